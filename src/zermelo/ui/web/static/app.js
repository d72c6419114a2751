// zermelo in the browser: play any game against the AI, see its thinking, explore the minimax tree.
//
// The page keeps the game as a list of moves and asks the stateless API for everything else
// (board, legal moves, result, the AI's reply, the values of the moves). Every string shown comes
// from /api/messages in the chosen language; English msgids are the keys.

// Nothing imports this module: the boards and panels call the page back through js/registry.js,
// which this module fills (one renderer per board kind, and the page's actions).

import { ApiError, getJson, postJson, gameRequest } from "./js/api.js";
import { backgammonBoard } from "./js/boards/backgammon.js";
import { cardsBoard } from "./js/boards/cards.js";
import { chessBoard, downloadPgn } from "./js/boards/chess.js";
import { diceBoard } from "./js/boards/dice.js";
import { draughtsBoard } from "./js/boards/draughts.js";
import { dropBoard } from "./js/boards/drop.js";
import { gridBoard, renderExtraMoves } from "./js/boards/grid.js";
import { placeBoard } from "./js/boards/place.js";
import { t, loadMessages } from "./js/i18n.js";
import { buildOptions, translateOptions, writeOptions, readOptions } from "./js/options.js";
import { renderOverlay, renderThinking } from "./js/overlay.js";
import { page, registerBoard, rendererFor } from "./js/registry.js";
import { $, markOf, other, ui } from "./js/state.js";
import { loadTree } from "./js/tree.js";

// One drawing per board kind (the "kind" of the board the API sends); any other kind is a grid.
registerBoard("place", placeBoard);
registerBoard("drop", dropBoard);
registerBoard("draughts", draughtsBoard);
registerBoard("chess", chessBoard);
registerBoard("grid", gridBoard);
registerBoard("dice", diceBoard);
registerBoard("backgammon", backgammonBoard);
registerBoard("cards", cardsBoard);


// -- the game ------------------------------------------------------------------------------------

export function sideAfter(count) {
  // The side to move after count moves of this game (its start may have either side to move).
  const first = ui.view ? markOf(ui.view.start_to_move) : "X";
  return count % 2 === 0 ? first : other(first);
}

// The marks of the side to move and of the winner (the API names sides by the game's names).
export function mover(view) {
  return markOf(view.to_move);
}

export function winnerMark(view) {
  return markOf(view.winner);
}

export function sideName(mark) {
  // Games that name their sides (chess: White and Black; checkers: Black and White) are shown
  // with those names.
  if (ui.game && ui.game.sides && ui.game.sides[0] !== "X") return t(ui.game.sides[mark === "X" ? 0 : 1]);
  return mark;
}

export function humansTurn() {
  return Boolean(ui.view) && ui.cursor === null && !ui.view.terminal && mover(ui.view) === ui.human;
}

// The learned level (az) is offered for the games whose levels list it; another game plays hard.
function offerLevels() {
  const select = $("#level");
  const learned = select.querySelector('option[value="az"]');
  const offered = (ui.game.levels || []).includes("az");
  learned.hidden = !offered;
  learned.disabled = !offered;
  if (!offered && select.value === "az") select.value = "hard";
}

export async function newGame(setup = {}) {
  const name = $("#game").value;
  const changed = !ui.game || ui.game.name !== name;
  ui.game = ui.games.find((game) => game.name === name) || ui.games[0];
  if (changed) buildOptions();
  offerLevels();
  const previous = changed ? {} : ui.options;
  ui.options = readOptions();
  ui.moves = [];
  ui.position = setup.position || null;
  ui.cursor = null;
  ui.past = null;
  const aiStarts = document.querySelector('input[name="starts"]:checked').value === "ai";
  ui.gameId = null;
  if (ui.game.chance) {
    // A game of chance: the server draws its dice and deals, for a game id it issues now (or the
    // one a link names); you play the first side unless the AI starts.
    ui.human = aiStarts ? "O" : "X";
    ui.first = null;
    if (setup.gameId) ui.gameId = setup.gameId;
  } else if (ui.game.first_mover === null && ui.position === null) {
    // Either side may start (tic-tac-toe): you play O, as in the terminal and the tutorial, and
    // who starts decides which side moves first.
    ui.human = "O";
    ui.first = ui.game.sides[aiStarts ? 0 : 1];
  } else {
    ui.human = aiStarts ? "O" : "X";
    ui.first = null;
  }
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
  const usual = ui.first === null || ui.first === ui.game.initial.to_move;
  if (ui.game.chance || !usual || ui.position !== null || (setup.moves && setup.moves.length) || Object.keys(ui.options).length) {
    // Other options, or a shared link's moves: the server builds (and checks) the position.
    try {
      const moves = ui.game.chance && !ui.gameId ? [] : setup.moves || [];
      const human = ui.game.chance ? { human: ui.game.sides[ui.human === "X" ? 0 : 1] } : {};
      ui.view = await postJson("/api/state", gameRequest({ moves, ...human }));
      ui.moves = ui.view.moves;
      if (ui.view.game_id) ui.gameId = ui.view.game_id;
    } catch (error) {
      // Options the game refuses: say why, and go back to the last ones that worked.
      ui.options = previous;
      ui.position = null;
      ui.gameId = null;
      writeOptions(previous);
      ui.view = Object.keys(previous).length || !usual || ui.game.chance
        ? await postJson("/api/state", gameRequest({ moves: [] }))
        : ui.game.initial;
      if (ui.view.game_id) ui.gameId = ui.view.game_id;
      render();
      showError(error);
      return;
    }
  }
  if (setup.ply !== undefined && setup.ply < ui.moves.length) await goTo(setup.ply, { quiet: true });
  render();
  if (ui.cursor === null && !ui.view.terminal && mover(ui.view) !== ui.human) {
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
  let answered = false;
  try {
    const answer = await postJson(
      "/api/play",
      gameRequest({ move, ai: true, level: $("#level").value, seed: ui.seed }),
    );
    if (id !== ui.requestId) return;
    ui.view = answer;
    ui.moves = answer.moves;
    ui.thinking = answer.thinking;
    leaveHistory();
    answered = true;
    if (answer.preparing) setMessage(t(answer.preparing));
  } catch (error) {
    if (id !== ui.requestId) return;
    showError(error);
  } finally {
    if (id === ui.requestId) ui.busy = false;
  }
  render();
  if (answered && id === ui.requestId && ui.game.chance && ui.cursor === null && !ui.view.terminal && mover(ui.view) !== ui.human) {
    // A game of chance keeps the turn where it is (a Pig player rolls on): the AI's next
    // decision, one request each, until yours is due.
    await play(null);
    return;
  }
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
  if (ui.busy || !ui.view || ui.cursor !== null) return;
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

// The sides of a game of chance's decisions (its turns need not alternate: a Pig player keeps
// rolling), from the history the server sends.
export function decisionSides(view = ui.view) {
  return ((view && view.history) || []).filter((entry) => !entry.chance).map((entry) => markOf(entry.side));
}

// The fewest moves undo leaves: the AI's first move stays when it started.
export function undoMinimum() {
  if (ui.game && ui.game.chance) {
    const first = decisionSides().indexOf(ui.human);
    return first < 0 ? ui.moves.length : first;
  }
  return sideAfter(0) === ui.human ? 0 : 1;
}

export async function undo() {
  if (ui.busy || !ui.moves.length || ui.game.hidden) return;
  if (ui.cursor !== null) leaveHistory();
  let moves = ui.moves.slice(0, -1);
  const minimum = undoMinimum();
  if (ui.game.chance) {
    // Back to your last decision, taken back with the AI's after it (the dice replay the same).
    const sides = decisionSides();
    const last = sides.lastIndexOf(ui.human);
    moves = last < minimum ? ui.moves.slice() : ui.moves.slice(0, last);
  }
  while (!ui.game.chance && moves.length > minimum && sideAfter(moves.length) !== ui.human) {
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
  // A hidden game's moves are not valued: their values would tell the cards you cannot see.
  if ($("#thinking").checked && !ui.game.hidden) tasks.push(analyze());
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

// The reason of a game that gives none (zermelo.core.state.GAME_OVER): the result alone says it.
const NO_REASON = "game over";

// Why the game ended, in words ("Game over: checkmate."), or "" while it runs or when the game
// gives no reason.
export function reasonText(view) {
  if (!view || !view.terminal || !view.reason || view.reason === NO_REASON) return "";
  return t("Game over: {reason}.", { reason: t(view.reason) });
}

export function statusText() {
  const view = ui.view;
  if (!view) return "";
  if (ui.cursor !== null) {
    return t("Move {n} of {total}", { n: ui.cursor, total: ui.moves.length });
  }
  if (view.terminal) {
    const reason = reasonText(view);
    const result =
      view.winner === null ? t("It's a draw.") : winnerMark(view) === ui.human ? t("You win!") : t("The AI wins.");
    const points = pointsText(view);
    const said = points ? `${result} ${points}` : result;
    return reason ? `${reason} ${said}` : said;
  }
  if (mover(view) === ui.human) return t("Your turn ({mark})", { mark: sideName(ui.human) });
  return t("The AI is thinking…");
}

// What you won or lost in a game scored in points (backgammon's gammons and cube, poker's chips).
export function pointsText(view) {
  if (!ui.game || !ui.game.scored || typeof view.payoff !== "number") return "";
  const mine = ui.human === "X" ? view.payoff : -view.payoff;
  const number = Number.isInteger(mine) ? String(mine) : mine.toFixed(2);
  return t("Points for you: {points}", { points: mine > 0 ? `+${number}` : number });
}

// The board's labelled facts (Grid.facts: the dice, the cube, the pot), under any board.
export function renderFacts(view) {
  const list = $("#board-facts");
  if (!list) return;
  list.replaceChildren();
  const facts = view.board.facts || [];
  list.hidden = facts.length === 0;
  for (const [label, value] of facts) {
    const item = document.createElement("div");
    item.dataset.fact = label;
    const name = document.createElement("dt");
    name.textContent = t(label);
    const text = document.createElement("dd");
    text.textContent = value;
    item.append(name, text);
    list.append(item);
  }
}

export function render() {
  translateDynamic();
  // The position viewed in the move list, else the game's last one.
  const view = ui.cursor !== null && ui.past ? ui.past : ui.view;
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
  renderFacts(view);
  if (focused !== null && focused !== undefined) {
    const again = board.querySelector(`[data-move="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  } else if (focusedSquare) {
    const again = board.querySelector(`[data-square="${CSS.escape(focusedSquare)}"]`);
    if (again) again.focus();
  }
  setStatus(ui.busy ? t("The AI is thinking…") : statusText());
  $("#status").dataset.state =
    ui.cursor !== null ? "viewing" : view.terminal ? "over" : humansTurn() ? "your-turn" : "ai-turn";
  $("#sides").textContent = t("You play {mark}; the AI plays {other}.", { mark: sideName(ui.human), other: sideName(other(ui.human)) });
  // A hand of cards is not taken back: its deal stays the same (the game id draws it), so an
  // undo after a showdown would replay it knowing the AI's cards.
  $("#undo").disabled = ui.busy || ui.moves.length <= undoMinimum() || Boolean(ui.game && ui.game.hidden);
  $("#save-pgn").hidden = !ui.view.board.pgn;
  renderMoves();
  renderText(view);
  syncUrl();
  renderOverlay();
}

// -- the move list: every move in the game's notation (numbered pairs), and the position after
// any of them viewed (view-only until "Play from here") ---------------------------------------

// A game of chance's moves: each decision (which views the position after it) with the dice
// rolled and the cards dealt between them ("?" for a hidden deal), in the order they came.
export function renderChanceMoves(list, shown) {
  let decision = 0;
  for (const entry of ui.view.history || []) {
    const item = document.createElement("li");
    item.className = "move-row";
    const side = document.createElement("span");
    side.className = "move-number";
    side.textContent = sideName(markOf(entry.side));
    item.append(side);
    if (entry.chance) {
      const roll = document.createElement("span");
      roll.className = "move-item chance";
      roll.textContent = entry.move === "?" ? t("a card is dealt") : t("rolled {outcome}", { outcome: entry.move });
      item.append(roll);
    } else {
      decision += 1;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move-item";
      button.dataset.ply = String(decision);
      button.textContent = entry.move;
      if (decision === shown) button.setAttribute("aria-current", "step");
      const target = decision;
      button.addEventListener("click", () => goTo(target));
      item.append(button);
    }
    list.append(item);
  }
}

export function renderMoves() {
  const list = $("#move-list");
  list.replaceChildren();
  if (ui.game && ui.game.chance) {
    renderChanceMoves(list, ui.cursor === null ? ui.moves.length : ui.cursor);
    const viewingChance = ui.cursor !== null;
    const shownChance = ui.cursor === null ? ui.moves.length : ui.cursor;
    $("#nav-first").disabled = ui.busy || shownChance === 0;
    $("#nav-back").disabled = ui.busy || shownChance === 0;
    $("#nav-next").disabled = ui.busy || !viewingChance;
    $("#nav-last").disabled = ui.busy || !viewingChance;
    $("#play-here").hidden = !viewingChance;
    $("#play-here").disabled = ui.busy;
    return;
  }
  const first = ui.view ? markOf(ui.view.start_to_move) : "X";
  const offset = first === "X" ? 0 : 1; // a start with the second side to move opens with "1…"
  const shown = ui.cursor === null ? ui.moves.length : ui.cursor;
  let row = null;
  ui.moves.forEach((move, index) => {
    const slot = index + offset;
    if (row === null || slot % 2 === 0) {
      row = document.createElement("li");
      row.className = "move-row";
      const number = document.createElement("span");
      number.className = "move-number";
      number.textContent = `${Math.floor(slot / 2) + 1}.${slot % 2 === 1 ? "…" : ""}`;
      row.append(number);
      list.append(row);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move-item";
    button.dataset.ply = String(index + 1);
    button.textContent = move;
    if (index + 1 === shown) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => goTo(index + 1));
    row.append(button);
  });
  const viewing = ui.cursor !== null;
  $("#nav-first").disabled = ui.busy || shown === 0;
  $("#nav-back").disabled = ui.busy || shown === 0;
  $("#nav-next").disabled = ui.busy || !viewing;
  $("#nav-last").disabled = ui.busy || !viewing;
  $("#play-here").hidden = !viewing;
  $("#play-here").disabled = ui.busy;
  const current = list.querySelector('[aria-current="step"]');
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

// View the position after the first count moves; count = the number of moves is the game itself.
export async function goTo(count, { quiet = false } = {}) {
  if (ui.busy && !quiet) return;
  const target = Math.max(0, Math.min(count, ui.moves.length));
  if (target === ui.moves.length) {
    leaveHistory();
  } else {
    const id = ++ui.requestId;
    try {
      const past = await postJson("/api/state", gameRequest({ moves: ui.moves.slice(0, target) }));
      if (id !== ui.requestId) return;
      ui.past = past;
      ui.cursor = target;
    } catch (error) {
      showError(error);
      return;
    }
  }
  ui.selection = [];
  if (!quiet) {
    render();
    renderThinking();
  }
}

export function leaveHistory() {
  ui.cursor = null;
  ui.past = null;
}

// Play on from the position viewed: the moves after it are dropped.
export async function playFromHere() {
  if (ui.busy || ui.cursor === null) return;
  ui.moves = ui.moves.slice(0, ui.cursor);
  ui.view = ui.past;
  leaveHistory();
  ui.thinking = null;
  setMessage("");
  render();
  if (!ui.view.terminal && mover(ui.view) !== ui.human) {
    await play(null);
  } else {
    await afterChange();
  }
}

// ←/→ step through the moves and Home/End jump to the start and the end, anywhere but on the
// board (whose arrow keys move between its points) and in the page's fields.
export function onHistoryKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && target.closest && target.closest("#board, input, select, textarea, [contenteditable]")) return;
  const shown = ui.cursor === null ? ui.moves.length : ui.cursor;
  const wanted = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: ui.moves.length }[event.key];
  if (wanted === undefined || !ui.view) return;
  event.preventDefault();
  if (wanted < 0 || wanted > ui.moves.length || wanted === shown) return;
  goTo(wanted);
}

// -- the position as text: its notation (a FEN for chess) and the game's record (a PGN for chess,
// else the start and the moves), and a pasted position or game read back ----------------------

export function renderText(view) {
  $("#export-position").value = view.position;
  $("#export-record").value = ui.cursor === null ? ui.view.record : view.record;
}

export async function importText() {
  if (ui.busy) return;
  const text = $("#import-text").value;
  try {
    const answer = await postJson("/api/import", { game: ui.game.name, options: ui.options, text });
    const request = answer.request;
    ui.requestId++;
    ui.options = request.options || {};
    ui.position = request.position === undefined ? null : request.position;
    ui.gameId = request.game_id === undefined ? null : request.game_id;
    ui.first = null;
    ui.moves = request.moves;
    ui.view = answer.state;
    leaveHistory();
    ui.thinking = null;
    ui.selection = [];
    // You take the side to move; the AI the other.
    ui.human = mover(ui.view);
    setMessage("");
    $("#import-text").value = "";
    render();
    await afterChange();
  } catch (error) {
    setMessage(t("Could not import: {reason}", { reason: error.message }));
  }
}

// The address keeps the game: its moves (and where the move list is), so a link opens it again.
export function syncUrl() {
  if (!ui.game || !history.replaceState) return;
  const params = new URLSearchParams(location.search);
  params.set("game", ui.game.name);
  if (ui.moves.length) params.set("moves", ui.moves.join(","));
  else params.delete("moves");
  if (ui.cursor !== null) params.set("ply", String(ui.cursor));
  else params.delete("ply");
  if (ui.position !== null) params.set("position", ui.position);
  else params.delete("position");
  // A game of chance goes on from its id (the server's dice and deals); a link without it is new.
  if (ui.gameId !== null) params.set("id", ui.gameId);
  else params.delete("id");
  // Who started: in a game where either side may, it says which side the moves begin with.
  if (document.querySelector('input[name="starts"]:checked').value === "ai") params.set("starts", "ai");
  else params.delete("starts");
  const query = params.toString();
  if (query !== location.search.replace(/^\?/, "")) history.replaceState(null, "", `${location.pathname}?${query}`);
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
  if (["easy", "medium", "hard", "az"].includes(level)) $("#level").value = level;
  if (params.get("starts") === "ai") document.querySelector('input[name="starts"][value="ai"]').checked = true;
  const setup = {};
  const seed = Number.parseInt(params.get("seed") || "", 10);
  if (Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32) setup.seed = seed;
  if (params.get("moves")) setup.moves = params.get("moves").split(",").filter(Boolean).slice(0, 512);
  if (params.get("position")) setup.position = params.get("position").slice(0, 2000);
  if (params.get("id")) setup.gameId = params.get("id").slice(0, 64);
  const ply = Number.parseInt(params.get("ply") || "", 10);
  if (Number.isInteger(ply) && ply >= 0) setup.ply = ply;

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
  document.addEventListener("keydown", onHistoryKey);
  $("#nav-first").addEventListener("click", () => goTo(0));
  $("#nav-back").addEventListener("click", () => goTo((ui.cursor === null ? ui.moves.length : ui.cursor) - 1));
  $("#nav-next").addEventListener("click", () => goTo((ui.cursor === null ? ui.moves.length : ui.cursor) + 1));
  $("#nav-last").addEventListener("click", () => goTo(ui.moves.length));
  $("#play-here").addEventListener("click", () => playFromHere());
  $("#import").addEventListener("click", () => importText());
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
