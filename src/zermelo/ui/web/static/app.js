// zermelo in the browser: play any game against the AI, see its thinking, explore the minimax tree.
//
// The page keeps the game as a list of moves and asks the stateless API for everything else
// (board, legal moves, result, the AI's reply, the values of the moves). Every string shown comes
// from /api/messages in the chosen language; English msgids are the keys.

// Nothing imports this module: the boards and panels call the page back through js/registry.js,
// which this module fills (one renderer per board kind, and the page's actions).

import { ApiError, getJson, postJson, gameRequest } from "./js/api.js";
import { chessBoard, downloadPgn } from "./js/boards/chess.js";
import { draughtsBoard } from "./js/boards/draughts.js";
import { dropBoard } from "./js/boards/drop.js";
import { gridBoard, renderExtraMoves } from "./js/boards/grid.js";
import { placeBoard } from "./js/boards/place.js";
import { t, loadMessages } from "./js/i18n.js";
import { buildOptions, translateOptions, writeOptions, readOptions } from "./js/options.js";
import { renderOverlay, renderThinking } from "./js/overlay.js";
import { page, registerBoard, rendererFor } from "./js/registry.js";
import { $, other, ui } from "./js/state.js";
import { loadTree } from "./js/tree.js";

// One drawing per board kind (the "kind" of the board the API sends); any other kind is a grid.
registerBoard("place", placeBoard);
registerBoard("drop", dropBoard);
registerBoard("draughts", draughtsBoard);
registerBoard("chess", chessBoard);
registerBoard("grid", gridBoard);


// -- the game ------------------------------------------------------------------------------------

export function sideAfter(count) {
  // Every game here starts with X (the first player).
  return count % 2 === 0 ? "X" : "O";
}

export function sideName(mark) {
  // Games that name their sides (chess: White and Black; checkers: Black and White) are shown
  // with those names.
  if (ui.game && ui.game.sides && ui.game.sides[0] !== "X") return t(ui.game.sides[mark === "X" ? 0 : 1]);
  return mark;
}

export function humansTurn() {
  return ui.view && !ui.view.terminal && ui.view.to_move === ui.human;
}

export async function newGame(setup = {}) {
  const name = $("#game").value;
  const changed = !ui.game || ui.game.name !== name;
  ui.game = ui.games.find((game) => game.name === name) || ui.games[0];
  if (changed) buildOptions();
  const previous = changed ? {} : ui.options;
  ui.options = readOptions();
  ui.moves = [];
  ui.human = document.querySelector('input[name="starts"]:checked').value === "ai" ? "O" : "X";
  if (setup.seed !== undefined) {
    ui.seed = setup.seed;
  } else {
    const seed = new Uint32Array(1);
    crypto.getRandomValues(seed);
    ui.seed = seed[0];
  }
  ui.thinking = null;
  ui.selection = [];
  ui.requestId++;
  ui.busy = false;
  setMessage("");
  $("#explain-switch").hidden = !ui.game.explain;
  $("#explain-panel").hidden = !(ui.game.explain && $("#explain").checked);
  ui.view = ui.game.initial;
  if ((setup.moves && setup.moves.length) || Object.keys(ui.options).length) {
    // Other options, or a shared link's moves: the server builds (and checks) the position.
    try {
      ui.view = await postJson("/api/state", gameRequest({ moves: setup.moves || [] }));
      ui.moves = ui.view.moves;
    } catch (error) {
      // Options the game refuses: say why, and go back to the last ones that worked.
      ui.options = previous;
      writeOptions(previous);
      ui.view = Object.keys(previous).length
        ? await postJson("/api/state", gameRequest({ moves: [] }))
        : ui.game.initial;
      render();
      showError(error);
      return;
    }
  }
  render();
  if (!ui.view.terminal && ui.view.to_move !== ui.human) {
    await play(null);
  } else {
    await afterChange();
  }
}

export async function play(move) {
  if (ui.busy) return;
  ui.busy = true;
  const id = ++ui.requestId;
  setMessage("");
  ui.selection = [];
  if (move !== null) {
    showPending(move);
  }
  setStatus(t("The AI is thinking…"));
  $("#status").dataset.state = "ai-turn";
  try {
    const answer = await postJson(
      "/api/play",
      gameRequest({ move, ai: true, level: $("#level").value, seed: ui.seed }),
    );
    if (id !== ui.requestId) return;
    ui.view = answer;
    ui.moves = answer.moves;
    ui.thinking = answer.thinking;
    if (answer.preparing) setMessage(t(answer.preparing));
  } catch (error) {
    if (id !== ui.requestId) return;
    showError(error);
  } finally {
    if (id === ui.requestId) ui.busy = false;
  }
  render();
  await afterChange();
}

export function showError(error) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    setMessage(t("That move is not allowed: {reason}", { reason: error.message }));
  } else {
    setMessage(t("Something went wrong: {reason}", { reason: error.message }));
  }
}

export async function clickMove(move) {
  if (ui.busy || !ui.view) return;
  if (!ui.view.terminal && !humansTurn()) return;
  if (ui.view.terminal || !ui.view.legal.includes(move)) {
    // Let the server say why: the game is over, or the square is taken.
    try {
      await postJson("/api/state", gameRequest({ moves: [...ui.moves, move] }));
    } catch (error) {
      showError(error);
    }
    return;
  }
  await play(move);
}

export async function undo() {
  if (ui.busy || !ui.moves.length) return;
  const moves = ui.moves.slice(0, -1);
  const minimum = ui.human === "X" ? 0 : 1;
  while (moves.length > minimum && sideAfter(moves.length) !== ui.human) {
    moves.pop();
  }
  if (moves.length === ui.moves.length) return;
  ui.moves = moves;
  ui.thinking = null;
  ui.selection = [];
  setMessage("");
  try {
    ui.view = await postJson("/api/state", gameRequest());
  } catch (error) {
    showError(error);
  }
  render();
  await afterChange();
}

export async function afterChange() {
  ui.analysis = null;
  renderThinking();
  const tasks = [];
  if ($("#thinking").checked) tasks.push(analyze());
  if (ui.game.explain && $("#explain").checked) tasks.push(loadTree());
  await Promise.all(tasks);
}

export async function analyze() {
  const view = ui.view;
  if (!view || view.terminal) {
    renderThinking();
    return;
  }
  const id = ui.requestId;
  try {
    const answer = await postJson("/api/analyze", gameRequest({ budget: { time_ms: 1500 } }));
    if (id !== ui.requestId || view !== ui.view) return;
    ui.analysis = answer;
  } catch (error) {
    showError(error);
  }
  renderThinking();
  renderOverlay();
}

// -- drawing -------------------------------------------------------------------------------------

export function setStatus(text) {
  $("#status").textContent = text;
}

export function setMessage(text) {
  $("#message").textContent = text;
}

export function statusText() {
  const view = ui.view;
  if (!view) return "";
  if (view.terminal) {
    if (view.winner === null) return t("It's a draw.");
    return view.winner === ui.human ? t("You win!") : t("The AI wins.");
  }
  if (view.to_move === ui.human) return t("Your turn ({mark})", { mark: sideName(ui.human) });
  return t("The AI is thinking…");
}

export function render() {
  translateDynamic();
  const view = ui.view;
  const board = $("#board");
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.move : null;
  const focusedSquare = board.contains(document.activeElement) ? document.activeElement.dataset.square : null;
  board.replaceChildren();
  board.dataset.game = ui.game.name;
  board.dataset.kind = view.board.kind;
  board.dataset.marks = ui.game.marks;
  board.style.setProperty("--cols", view.board.width);
  board.style.setProperty("--rows", view.board.height);
  board.setAttribute("aria-label", ui.game.title);
  const [lastRow, lastCol] = view.last || [-1, -1];
  const onLine = new Set((view.line || []).map(([row, col]) => `${row},${col}`));
  const playable = humansTurn() && !ui.busy;
  board.classList.toggle("waiting", !playable);
  renderExtraMoves(view, playable);
  rendererFor(view.board.kind).draw(board, view, playable, { onLine, last: [lastRow, lastCol] });
  if (focused !== null && focused !== undefined) {
    const again = board.querySelector(`[data-move="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  } else if (focusedSquare) {
    const again = board.querySelector(`[data-square="${CSS.escape(focusedSquare)}"]`);
    if (again) again.focus();
  }
  setStatus(ui.busy ? t("The AI is thinking…") : statusText());
  $("#status").dataset.state = view.terminal ? "over" : humansTurn() ? "your-turn" : "ai-turn";
  $("#sides").textContent = t("You play {mark}; the AI plays {other}.", { mark: sideName(ui.human), other: sideName(other(ui.human)) });
  $("#undo").disabled = ui.busy || ui.moves.length <= (ui.human === "X" ? 0 : 1);
  $("#save-pgn").hidden = !view.board.pgn;
  renderOverlay();
}

export function showPending(move) {
  // The board shows the person's move at once where its kind can, so the click feels immediate
  // while the AI thinks; elsewhere (a grid's move may change any cells) the server's answer shows it.
  $("#board").classList.add("waiting");
  const renderer = rendererFor(ui.game.kind);
  if (renderer.pending) renderer.pending(move);
}

export function translateDynamic() {
  translateOptions();
  const select = $("#game");
  for (const option of select.options) {
    const game = ui.games.find((entry) => entry.name === option.value);
    if (game) option.textContent = t(game.title);
  }
}

// -- keyboard: arrow keys move between the points of the board (as its kind says), Enter or Space
// plays ---------------------------------------------------------------------------------------------

export function onBoardKey(event) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const step = steps[event.key];
  if (!step || !ui.view) return;
  const renderer = rendererFor(ui.view.board.kind);
  if (renderer.key) renderer.key(event, step);
}

// What the boards and panels call back (see js/registry.js).
Object.assign(page, { play, clickMove, render, setMessage, humansTurn, newGame, showError });

// -- start -----------------------------------------------------------------------------------

export async function start() {
  const stored = localStorage.getItem("zermelo.lang");
  await loadMessages(stored);
  const answer = await getJson("/api/games");
  ui.games = answer.games;
  const select = $("#game");
  for (const game of ui.games) select.append(new Option(t(game.title), game.name));
  // Links may preset the game: ?game=tictactoe&level=hard&starts=ai&moves=4,0&seed=7
  const params = new URLSearchParams(location.search);
  const wanted = params.get("game");
  if (wanted && ui.games.some((game) => game.name === wanted)) select.value = wanted;
  const level = params.get("level");
  if (["easy", "medium", "hard"].includes(level)) $("#level").value = level;
  if (params.get("starts") === "ai") document.querySelector('input[name="starts"][value="ai"]').checked = true;
  const setup = {};
  const seed = Number.parseInt(params.get("seed") || "", 10);
  if (Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32) setup.seed = seed;
  if (params.get("moves")) setup.moves = params.get("moves").split(",").filter(Boolean).slice(0, 512);

  $("#lang").addEventListener("change", async (event) => {
    localStorage.setItem("zermelo.lang", event.target.value);
    await loadMessages(event.target.value);
    render();
    renderThinking();
    if (ui.game.explain && $("#explain").checked) await loadTree();
  });
  $("#new").addEventListener("click", () => newGame());
  $("#game").addEventListener("change", () => newGame());
  // A new level takes effect from the AI's next move; the game goes on.
  for (const radio of document.querySelectorAll('input[name="starts"]')) {
    radio.addEventListener("change", () => newGame());
  }
  $("#undo").addEventListener("click", () => undo());
  $("#save-pgn").addEventListener("click", () => downloadPgn());
  $("#board").addEventListener("keydown", onBoardKey);
  $("#thinking").addEventListener("change", async () => {
    renderThinking();
    renderOverlay();
    if ($("#thinking").checked && !ui.analysis) await analyze();
  });
  $("#explain").addEventListener("change", async () => {
    $("#explain-panel").hidden = !$("#explain").checked;
    if ($("#explain").checked) await loadTree();
  });
  await newGame(setup);
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  setMessage(t("Something went wrong: {reason}", { reason: error.message }));
});
