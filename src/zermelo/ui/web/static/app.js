// zermelo in the browser: play any game against the AI, see its thinking, explore the minimax tree.
//
// The page keeps the game as a list of moves and asks the stateless API for everything else
// (board, legal moves, result, the AI's reply, the values of the moves). Every string shown comes
// from /api/messages in the chosen language; English msgids are the keys.

const $ = (selector) => document.querySelector(selector);

const ui = {
  lang: "en",
  messages: {},
  options: {},
  plurals: {},
  games: [],
  game: null, // the entry of /api/games for the current game
  view: null, // the last answer of /api/state or /api/play
  moves: [],
  human: "X",
  seed: 1,
  busy: false,
  thinking: null, // the AI's last search, from /api/play
  analysis: null,
  requestId: 0,
  selection: [], // checkers: the squares clicked so far for the move being made
};

// -- translation -------------------------------------------------------------------------------

function t(msgid, params = {}) {
  const text = ui.messages[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A counted message: its plural msgid picks the pair; exactly one takes the singular.
function tn(plural, count, params = {}) {
  const forms = ui.plurals[plural];
  const text = forms ? forms[count === 1 ? 0 : 1] : plural;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function translateStatic() {
  document.documentElement.lang = ui.lang;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  document.title = `${t("zermelo")} · ${t("Play against the AI and watch it think")}`;
}

async function loadMessages(lang) {
  const query = lang ? `?lang=${encodeURIComponent(lang)}` : "";
  const answer = await getJson(`/api/messages${query}`);
  ui.lang = answer.lang;
  ui.messages = answer.messages;
  ui.plurals = answer.plurals;
  const select = $("#lang");
  if (!select.options.length) {
    for (const [code, name] of Object.entries(answer.languages)) {
      select.append(new Option(name, code));
    }
  }
  select.value = ui.lang;
  translateStatic();
}

// -- talking to the API --------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

async function answerOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = (body && body.error) || {};
    throw new ApiError(response.status, error.type || "HTTPError", error.message || response.statusText);
  }
  return body;
}

async function getJson(url) {
  return answerOf(await fetch(url, { headers: { Accept: "application/json" } }));
}

async function postJson(url, data) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(data),
  });
  return answerOf(response);
}

function gameRequest(extra = {}) {
  return { game: ui.game.name, options: ui.options, moves: ui.moves, ...extra };
}

// -- game options (board size, row length, rules): one input per option the game offers --------

function optionLabel(name) {
  if (name === "width") return t("Columns");
  if (name === "height") return t("Rows");
  if (name === "k") return t("In a row to win");
  if (name === "exact") return t("Only exactly that many in a row wins");
  return name;
}

function buildOptions() {
  const box = $("#options");
  box.replaceChildren();
  for (const [name, spec] of Object.entries(ui.game.options)) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = name;
    input.dataset.option = name;
    if (spec.type === "boolean") {
      label.className = "check";
      input.type = "checkbox";
      input.checked = Boolean(spec.default);
      label.append(input, document.createElement("span"));
    } else {
      label.className = "field number";
      input.type = "number";
      input.min = spec.min;
      input.max = spec.max;
      input.step = 1;
      input.value = spec.default;
      input.inputMode = "numeric";
      label.append(document.createElement("span"), input);
    }
    input.addEventListener("change", () => newGame());
    box.append(label);
  }
  translateOptions();
}

function translateOptions() {
  for (const input of document.querySelectorAll("#options [data-option]")) {
    input.parentElement.querySelector("span").textContent = optionLabel(input.dataset.option);
  }
}

function writeOptions(options) {
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option;
    const value = name in options ? options[name] : ui.game.options[name].default;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = value;
  }
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const spec = ui.game.options[input.dataset.option];
    if (spec.type === "boolean") {
      if (input.checked !== Boolean(spec.default)) options[input.dataset.option] = input.checked;
    } else {
      const value = Number.parseInt(input.value, 10);
      if (Number.isInteger(value) && value !== spec.default) options[input.dataset.option] = value;
    }
  }
  return options;
}

// -- the game ------------------------------------------------------------------------------------

function other(mark) {
  return mark === "X" ? "O" : "X";
}

function sideAfter(count) {
  // Every game here starts with X (the first player).
  return count % 2 === 0 ? "X" : "O";
}

// Checkers names its sides by colour: the first player (X) is Black.
function sideName(mark) {
  if (ui.game && ui.game.kind === "checkers") return mark === "X" ? t("Black") : t("White");
  if (ui.game && ui.game.kind === "text") return mark === "X" ? t("First") : t("Second");
  return mark;
}

function humansTurn() {
  return ui.view && !ui.view.terminal && ui.view.to_move === ui.human;
}

async function newGame(setup = {}) {
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

async function play(move) {
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
  } catch (error) {
    if (id !== ui.requestId) return;
    showError(error);
  } finally {
    if (id === ui.requestId) ui.busy = false;
  }
  render();
  await afterChange();
}

function showError(error) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    setMessage(t("That move is not allowed: {reason}", { reason: error.message }));
  } else {
    setMessage(t("Something went wrong: {reason}", { reason: error.message }));
  }
}

async function clickMove(move) {
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

// -- checkers: a move is clicked square by square (the piece, then where it goes) ----------------
//
// The legal moves come from the server in notation ("11-15", "15x24x31"). A click on a piece
// selects it when some legal move starts there (so, when a capture is mandatory, only pieces that
// can jump); a click on a square then plays the one legal move of that piece which ends there and
// passes the squares clicked in between. When two jumps end on the same square, clicking the
// squares a jump passes through picks it.

function squaresOf(move) {
  return move.split(/[-x]/).map(Number);
}

function checkersMoves() {
  return ui.view.legal.map((move) => ({ text: move, squares: squaresOf(move) }));
}

// The legal moves from the selection's piece that pass the selection's other squares in order.
function movesThrough(path) {
  return checkersMoves().filter(({ squares }) => {
    if (squares[0] !== path[0]) return false;
    let at = 1;
    for (const square of path.slice(1)) {
      while (at < squares.length && squares[at] !== square) at++;
      if (at >= squares.length) return false;
      at++;
    }
    return true;
  });
}

function pieceOwner(square) {
  for (const [r, row] of ui.view.board.points.entries()) {
    const c = row.indexOf(String(square));
    if (c >= 0) {
      const piece = ui.view.board.cells[r][c];
      if (piece === ".") return null;
      return piece.toLowerCase() === "b" ? "X" : "O";
    }
  }
  return null;
}

async function clickSquare(text) {
  if (ui.busy || !ui.view || ui.view.terminal || !humansTurn()) return;
  const square = Number(text);
  const starts = checkersMoves().some(({ squares }) => squares[0] === square);
  if (ui.selection.length) {
    const path = [...ui.selection, square];
    const through = movesThrough(path);
    const ending = through.filter(({ squares }) => squares[squares.length - 1] === square);
    // The squares clicked are the whole move: that one, even if a longer jump also fits.
    const exact = ending.filter(({ squares }) => squares.join() === path.join());
    if (ending.length === 1 || exact.length === 1) {
      await play((exact.length === 1 ? exact : ending)[0].text);
      return;
    }
    if (ending.length > 1) {
      setMessage(t("Several captures end there: click the squares it jumps through, in order."));
      return;
    }
    if (square === ui.selection[0]) {
      // A second click on the piece puts it down again.
      ui.selection = [];
      setMessage("");
      render();
      return;
    }
    if (through.length) {
      ui.selection = path;
      setMessage("");
      render();
      return;
    }
    if (!starts) {
      setMessage(t("That is not a move for this piece: pick a highlighted square."));
      return;
    }
  }
  if (starts) {
    ui.selection = [square];
    setMessage("");
    render();
    return;
  }
  if (pieceOwner(square) !== ui.human) {
    setMessage(t("Pick one of your pieces."));
  } else if (ui.view.legal.some((move) => move.includes("x"))) {
    setMessage(t("A capture is mandatory: pick a piece that can jump."));
  } else {
    setMessage(t("That piece cannot move."));
  }
}

function pieceName(piece) {
  return {
    b: t("black man"),
    w: t("white man"),
    B: t("black king"),
    W: t("white king"),
  }[piece];
}

function renderCheckers(board, view, playable) {
  board.setAttribute("role", "grid");
  const [lastRow, lastCol] = view.last || [-1, -1];
  const selectable = new Set(checkersMoves().map(({ squares }) => squares[0]));
  const targets = new Set();
  const via = new Set();
  if (ui.selection.length) {
    const through = movesThrough(ui.selection);
    const ends = through.map(({ squares }) => squares[squares.length - 1]);
    for (const { squares } of through) {
      const end = squares[squares.length - 1];
      targets.add(end);
      // Squares in between matter only where two jumps end on the same square.
      if (ends.indexOf(end) === ends.lastIndexOf(end)) continue;
      const at = squares.indexOf(ui.selection[ui.selection.length - 1], 1);
      for (const square of squares.slice(Math.max(at, 0) + 1, -1)) via.add(square);
    }
  }
  view.board.points.forEach((row, r) => {
    const line = document.createElement("div");
    line.className = "row";
    line.setAttribute("role", "row");
    row.forEach((move, c) => {
      if (move === "") {
        const light = document.createElement("span");
        light.className = "square light";
        light.setAttribute("role", "gridcell");
        line.append(light);
        return;
      }
      const piece = view.board.cells[r][c];
      const square = Number(move);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cell square dark";
      button.dataset.move = move;
      button.setAttribute("role", "gridcell");
      const label = piece === "." ? t("Square {move}, empty", { move }) : t("Square {move}, {mark}", { move, mark: pieceName(piece) });
      const last = r === lastRow && c === lastCol;
      button.setAttribute("aria-label", last ? `${label} (${t("last move")})` : label);
      if (!playable) button.setAttribute("aria-disabled", "true");
      if (piece !== ".") {
        const disc = document.createElement("span");
        disc.className = `piece piece-${piece.toLowerCase()}` + (piece === piece.toUpperCase() ? " king" : "");
        disc.setAttribute("aria-hidden", "true");
        if (piece === piece.toUpperCase()) disc.textContent = "♛";
        button.dataset.piece = piece;
        button.append(disc);
      }
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = move;
      button.append(number);
      if (last) button.classList.add("last");
      if (playable && !ui.selection.length && selectable.has(square)) button.classList.add("movable");
      if (ui.selection[0] === square) button.classList.add("selected");
      if (ui.selection.slice(1).includes(square)) button.classList.add("via", "chosen");
      if (targets.has(square)) button.classList.add("target");
      if (via.has(square)) button.classList.add("via");
      button.addEventListener("click", () => clickSquare(move));
      line.append(button);
    });
    board.append(line);
  });
}

async function undo() {
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

async function afterChange() {
  ui.analysis = null;
  renderThinking();
  const tasks = [];
  if ($("#thinking").checked) tasks.push(analyze());
  if (ui.game.explain && $("#explain").checked) tasks.push(loadTree());
  await Promise.all(tasks);
}

async function analyze() {
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

function setStatus(text) {
  $("#status").textContent = text;
}

function setMessage(text) {
  $("#message").textContent = text;
}

function statusText() {
  const view = ui.view;
  if (!view) return "";
  if (view.terminal) {
    if (view.winner === null) return t("It's a draw.");
    return view.winner === ui.human ? t("You win!") : t("The AI wins.");
  }
  if (view.to_move === ui.human) return t("Your turn ({mark})", { mark: sideName(ui.human) });
  return t("The AI is thinking…");
}

function markElement(mark) {
  const span = document.createElement("span");
  span.className = `mark mark-${mark}`;
  span.setAttribute("aria-hidden", "true");
  if (ui.game.kind === "place" && ui.game.name === "tictactoe") span.textContent = mark;
  return span;
}

function render() {
  translateDynamic();
  const view = ui.view;
  const board = $("#board");
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.move : null;
  board.replaceChildren();
  board.dataset.game = ui.game.name;
  board.dataset.kind = view.board.kind;
  board.style.setProperty("--cols", view.board.width);
  board.style.setProperty("--rows", view.board.height);
  board.setAttribute("aria-label", ui.game.title);
  const legal = new Set(view.legal);
  const [lastRow, lastCol] = view.last || [-1, -1];
  const onLine = new Set((view.line || []).map(([row, col]) => `${row},${col}`));
  const playable = humansTurn() && !ui.busy;
  board.classList.toggle("waiting", !playable);
  if (view.board.kind === "checkers") {
    renderCheckers(board, view, playable);
  } else if (view.board.kind === "text") {
    renderText(board, view, playable);
  } else if (view.board.kind === "drop") {
    board.setAttribute("role", "group");
    view.board.columns.forEach((move, col) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "column";
      button.dataset.move = move;
      const full = !legal.has(move);
      button.setAttribute("aria-label", full ? t("Column {move}, full", { move }) : t("Column {move}", { move }));
      if (full || !playable) button.setAttribute("aria-disabled", "true");
      const badge = document.createElement("span");
      badge.className = "value";
      button.append(badge);
      for (let row = 0; row < view.board.height; row++) {
        const cell = document.createElement("span");
        cell.className = "slot";
        const mark = view.board.cells[row][col];
        if (mark !== ".") cell.append(markElement(mark));
        if (row === lastRow && col === lastCol) cell.classList.add("last");
        if (onLine.has(`${row},${col}`)) cell.classList.add("winning");
        button.append(cell);
      }
      button.addEventListener("click", () => clickMove(move));
      board.append(button);
    });
  } else {
    board.setAttribute("role", "grid");
    view.board.points.forEach((row, r) => {
      const line = document.createElement("div");
      line.className = "row";
      line.setAttribute("role", "row");
      row.forEach((move, c) => {
        const mark = view.board.cells[r][c];
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cell";
        button.dataset.move = move;
        button.setAttribute("role", "gridcell");
        const label = mark === "." ? t("Square {move}, empty", { move }) : t("Square {move}, {mark}", { move, mark });
        const last = r === lastRow && c === lastCol;
        button.setAttribute("aria-label", last ? `${label} (${t("last move")})` : label);
        if (mark !== "." || !playable) button.setAttribute("aria-disabled", "true");
        if (mark !== ".") button.append(markElement(mark));
        if (last) button.classList.add("last");
        if (onLine.has(`${r},${c}`)) button.classList.add("winning");
        const badge = document.createElement("span");
        badge.className = "value";
        button.append(badge);
        button.addEventListener("click", () => clickMove(move));
        line.append(button);
      });
      board.append(line);
    });
  }
  if (focused !== null && focused !== undefined) {
    const again = board.querySelector(`[data-move="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
  setStatus(ui.busy ? t("The AI is thinking…") : statusText());
  $("#status").dataset.state = view.terminal ? "over" : humansTurn() ? "your-turn" : "ai-turn";
  $("#sides").textContent = t("You play {mark}; the AI plays {other}.", { mark: sideName(ui.human), other: sideName(other(ui.human)) });
  $("#undo").disabled = ui.busy || ui.moves.length <= (ui.human === "X" ? 0 : 1);
  renderOverlay();
}

// Games without a board of their own: the position as the game draws it, then one button per
// legal move (the thinking overlay marks the buttons as it marks cells).
function renderText(board, view, playable) {
  board.setAttribute("role", "group");
  const drawing = document.createElement("pre");
  drawing.className = "text-board";
  drawing.textContent = view.board.text;
  const moves = document.createElement("div");
  moves.className = "text-moves";
  moves.setAttribute("aria-label", t("Legal moves: {moves}", { moves: view.legal.slice(0, 40).join(", ") }));
  for (const move of view.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "text-move";
    button.dataset.move = move;
    const name = document.createElement("span");
    name.textContent = move;
    const badge = document.createElement("span");
    badge.className = "value";
    button.append(name, badge);
    if (!playable) button.setAttribute("aria-disabled", "true");
    button.addEventListener("click", () => clickMove(move));
    moves.append(button);
  }
  board.append(drawing, moves);
}

function showPending(move) {
  // Put the person's mark down at once, so the click feels immediate while the AI thinks.
  if (ui.game.kind === "checkers") {
    // Move the piece at once; what it took goes when the server answers.
    const squares = squaresOf(move);
    const from = document.querySelector(`#board [data-move="${squares[0]}"]`);
    const to = document.querySelector(`#board [data-move="${squares[squares.length - 1]}"]`);
    const piece = from && from.querySelector(".piece");
    $("#board").classList.add("waiting");
    if (piece && to && from !== to) to.prepend(piece);
    return;
  }
  const target = document.querySelector(`#board [data-move="${CSS.escape(move)}"]`);
  if (!target) return;
  $("#board").classList.add("waiting");
  if (target.classList.contains("cell") && !target.querySelector(".mark")) {
    target.prepend(markElement(ui.human));
  }
}

function valueClass(value) {
  if (value.kind === "estimate") return value.estimate >= 0 ? "estimate-up" : "estimate-down";
  return value.kind;
}

function valueStrength(value, largest) {
  // Faster wins and faster losses are drawn stronger; estimates by their size among this
  // position's estimates (each game's evaluation has its own scale).
  if (value.kind === "win" || value.kind === "loss") return Math.max(0.45, 1 - (value.moves - 1) * 0.12);
  if (value.kind === "estimate") return largest > 0 ? 0.2 + 0.6 * (Math.abs(value.estimate) / largest) : 0.2;
  return 0.6;
}

function estimateText(estimate) {
  const size = Math.abs(estimate);
  const digits = size >= 10 ? 0 : size >= 1 ? 1 : 2;
  const text = estimate.toFixed(digits);
  return estimate > 0 && Number(text) !== 0 ? `+${text}` : text.replace(/^-(0(\.0+)?)$/, "$1");
}

function valueWords(value) {
  if (value.kind === "win") return value.moves ? t("win in {n}", { n: value.moves }) : t("won");
  if (value.kind === "loss") return value.moves ? t("loss in {n}", { n: value.moves }) : t("lost");
  if (value.kind === "draw") return t("draw");
  return t("estimate {value}", { value: estimateText(value.estimate) });
}

function valueShort(value) {
  if (value.kind === "win") return `+${value.moves}`;
  if (value.kind === "loss") return `−${value.moves}`;
  if (value.kind === "draw") return "=";
  return estimateText(value.estimate);
}

function renderOverlay() {
  const board = $("#board");
  const on = $("#thinking").checked && ui.analysis && !ui.view.terminal;
  board.classList.toggle("thinking-on", Boolean(on));
  for (const element of board.querySelectorAll("[data-move]")) {
    element.classList.remove("win", "loss", "draw", "estimate-up", "estimate-down", "best");
    delete element.dataset.value;
    element.style.removeProperty("--strength");
    element.removeAttribute("title");
    const badge = element.querySelector(".value");
    if (badge) badge.textContent = "";
  }
  renderMoveList(on);
  if (!on) return;
  const estimates = ui.analysis.moves.filter((entry) => entry.value.kind === "estimate");
  const largest = Math.max(0, ...estimates.map((entry) => Math.abs(entry.value.estimate)));
  for (const entry of ui.analysis.moves) {
    const element = board.querySelector(`[data-move="${CSS.escape(entry.move)}"]`);
    if (!element) continue;
    const words = valueWords(entry.value);
    element.classList.add(valueClass(entry.value));
    element.style.setProperty("--strength", valueStrength(entry.value, largest).toFixed(2));
    element.dataset.value = words;
    element.title = `${entry.move}: ${words}` + (entry.value.exact ? "" : ` (${t("heuristic")})`);
    if (entry.move === ui.analysis.best) element.classList.add("best");
    const badge = element.querySelector(".value");
    if (badge) badge.textContent = valueShort(entry.value);
  }
}

// Checkers moves are not one square each: their values are listed beside the board, best first.
function renderMoveList(on) {
  const list = $("#move-values");
  const show = Boolean(on) && ui.game.kind === "checkers";
  list.hidden = !show;
  list.replaceChildren();
  if (!show) return;
  const estimates = ui.analysis.moves.filter((entry) => entry.value.kind === "estimate");
  const largest = Math.max(0, ...estimates.map((entry) => Math.abs(entry.value.estimate)));
  for (const entry of ui.analysis.moves) {
    const item = document.createElement("li");
    item.className = `move-value ${valueClass(entry.value)}`;
    if (entry.move === ui.analysis.best) item.classList.add("best");
    item.dataset.moveValue = entry.move;
    item.style.setProperty("--strength", valueStrength(entry.value, largest).toFixed(2));
    const name = document.createElement("strong");
    name.textContent = entry.move;
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = valueWords(entry.value) + (entry.value.exact ? "" : ` (${t("heuristic")})`);
    item.title = entry.pv.join(" ");
    item.append(name, words);
    list.append(item);
  }
}

function renderThinking() {
  const panel = $("#thinking-panel");
  panel.hidden = !$("#thinking").checked;
  $("#best-label").textContent = t("Best move");
  $("#pv-label").textContent = t("Principal variation");
  $("#stats-label").textContent = t("Search");
  const analysis = ui.analysis;
  if (ui.view && ui.view.terminal) {
    $("#best").textContent = t("Nothing to think about: the game is over.");
    $("#pv").textContent = "–";
    $("#stats").textContent = "–";
  } else if (analysis) {
    $("#best").textContent = `${analysis.best} · ${valueWords(analysis.value)}`;
    $("#pv").textContent = analysis.pv.join(" ");
    $("#stats").textContent = tn("{nodes} nodes in {ms} ms", analysis.nodes, {
      nodes: analysis.nodes.toLocaleString(ui.lang),
      ms: analysis.time_ms.toLocaleString(ui.lang, { maximumFractionDigits: 1 }),
    });
  } else {
    $("#best").textContent = "…";
    $("#pv").textContent = "…";
    $("#stats").textContent = "…";
  }
  const last = ui.thinking;
  if (last) {
    $("#ai-last").textContent =
      `${t("The AI's last move: {move}", { move: last.move })} · ${valueWords(last.value)} · ` +
      `${t("Principal variation: {line}", { line: last.pv.join(" ") })} · ` +
      tn("{nodes} nodes in {ms} ms", last.nodes, {
        nodes: last.nodes.toLocaleString(ui.lang),
        ms: last.time_ms.toLocaleString(ui.lang, { maximumFractionDigits: 1 }),
      });
  } else {
    $("#ai-last").textContent = "";
  }
}

function translateDynamic() {
  translateOptions();
  const select = $("#game");
  for (const option of select.options) {
    const game = ui.games.find((entry) => entry.name === option.value);
    if (game) option.textContent = t(game.title);
  }
}

// -- the minimax tree ----------------------------------------------------------------------------

function treeValueWords(value) {
  if (value.kind === "draw") return t("draw");
  if (value.moves === 0) return t("{mark} has won", { mark: value.winner });
  return t("{mark} wins in {n}", { mark: value.winner, n: value.moves });
}

function treeValueClass(value, mover) {
  if (value.kind === "draw") return "draw";
  return value.winner === mover ? "win" : "loss";
}

async function loadTree() {
  const list = $("#tree");
  const view = ui.view;
  try {
    const root = await postJson("/api/tree", gameRequest({ path: [] }));
    if (view !== ui.view) return;
    const percent = Math.round(100 * (1 - root.totals.alphabeta / root.totals.minimax));
    $("#tree-totals").replaceChildren(
      pill(tn("Minimax: {nodes} nodes", root.totals.minimax, { nodes: root.totals.minimax.toLocaleString(ui.lang) }), "minimax"),
      pill(tn("Alpha-beta: {nodes} nodes", root.totals.alphabeta, { nodes: root.totals.alphabeta.toLocaleString(ui.lang) }), "alphabeta"),
      pill(t("Alpha-beta skipped {percent}% of the tree.", { percent }), "skipped"),
    );
    list.replaceChildren(treeItem(root, true));
  } catch (error) {
    showError(error);
  }
}

function pill(text, kind) {
  const span = document.createElement("span");
  span.className = `pill ${kind}`;
  span.textContent = text;
  return span;
}

function treeItem(node, open) {
  const item = document.createElement("li");
  item.setAttribute("role", "treeitem");
  item.className = "node";
  item.dataset.path = node.path.join(",");
  if (node.pruned) item.classList.add("pruned");
  const row = document.createElement("div");
  row.className = "node-row";
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "toggle";
  const expandable = !node.terminal && node.children_count > 0;
  toggle.disabled = !expandable;
  toggle.setAttribute("aria-label", t("Expand"));
  toggle.textContent = expandable ? "▸" : "•";
  row.append(toggle);

  const mini = document.createElement("span");
  mini.className = "mini-board";
  mini.setAttribute("aria-hidden", "true");
  const cells = node.position.split(" ")[0];
  for (let i = 0; i < 9; i++) {
    const cell = document.createElement("span");
    cell.textContent = cells[i] === "." ? "" : cells[i];
    if (node.move !== null && String(i) === node.move) cell.className = "just";
    mini.append(cell);
  }
  row.append(mini);

  const text = document.createElement("span");
  text.className = "node-text";
  const label = node.move === null
    ? `${t("current position")} · ${t("{mark} to move", { mark: node.to_move })}`
    : `${other(node.to_move)} → ${node.move}`;
  const title = document.createElement("strong");
  title.textContent = label;
  const value = document.createElement("span");
  // Coloured for the player who chooses: the one who made this move (at the root, the one to move).
  const chooser = node.move === null ? node.to_move : other(node.to_move);
  value.className = `tag ${treeValueClass(node.value, chooser)}`;
  value.textContent = treeValueWords(node.value);
  text.append(title, value);
  if (node.pruned) {
    const cut = document.createElement("span");
    cut.className = "tag cut";
    cut.textContent = t("pruned");
    cut.title = t("cut off by alpha-beta: it cannot change the value");
    text.append(cut);
  }
  const facts = document.createElement("span");
  facts.className = "node-facts";
  const parts = [tn("Minimax: {nodes} nodes", node.minimax_nodes, { nodes: node.minimax_nodes.toLocaleString(ui.lang) })];
  if (node.alphabeta) {
    parts.push(tn("Alpha-beta: {nodes} nodes", node.alphabeta.nodes, { nodes: node.alphabeta.nodes.toLocaleString(ui.lang) }));
    if (node.alphabeta.bound === "lower") {
      // The side to move found a reply good enough to refute the move that led here.
      parts.push(t("cut short after {n} of {total} replies: no better than an earlier move", {
        n: node.alphabeta.visited.length,
        total: node.children_count,
      }));
    } else if (node.alphabeta.bound === "upper") {
      parts.push(t("only a bound: every reply here was cut short"));
    }
  }
  facts.textContent = parts.join(" · ");
  text.append(facts);
  row.append(text);
  item.append(row);

  const group = document.createElement("ul");
  group.setAttribute("role", "group");
  group.hidden = true;
  item.append(group);
  item.setAttribute("aria-expanded", "false");
  if (!expandable) item.removeAttribute("aria-expanded");

  const expand = async () => {
    if (!group.hidden) {
      group.hidden = true;
      item.setAttribute("aria-expanded", "false");
      toggle.textContent = "▸";
      toggle.setAttribute("aria-label", t("Expand"));
      return;
    }
    if (!group.childElementCount) {
      const children = node.children || (await postJson("/api/tree", gameRequest({ path: node.path }))).children;
      group.replaceChildren(...children.map((child) => treeItem(child, false)));
    }
    group.hidden = false;
    item.setAttribute("aria-expanded", "true");
    toggle.textContent = "▾";
    toggle.setAttribute("aria-label", t("Collapse"));
  };
  toggle.addEventListener("click", () => expand().catch(showError));
  if (open && expandable) expand().catch(showError);
  return item;
}

// -- keyboard: arrow keys move between the points of the board, Enter or Space plays -------------

function onBoardKey(event) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const step = steps[event.key];
  if (!step || !ui.view) return;
  if (ui.view.board.kind === "checkers") {
    checkersKey(event, step);
    return;
  }
  if (ui.view.board.kind === "text") return;
  const points = [...$("#board").querySelectorAll("[data-move]")];
  const index = points.indexOf(document.activeElement);
  if (index < 0) return;
  const cols = ui.view.board.width;
  const drop = ui.view.board.kind === "drop";
  let col = drop ? index : index % cols;
  let row = drop ? 0 : Math.floor(index / cols);
  col = Math.min(Math.max(col + step[0], 0), cols - 1);
  if (!drop) row = Math.min(Math.max(row + step[1], 0), ui.view.board.height - 1);
  const target = points[drop ? col : row * cols + col];
  if (target) {
    event.preventDefault();
    target.focus();
  }
}

// Checkers: left and right go to the next dark square in the row, up and down to the nearest one
// in the next row (only dark squares are points).
function checkersKey(event, [dx, dy]) {
  const points = ui.view.board.points;
  const focused = document.activeElement && document.activeElement.dataset.move;
  if (!focused) return;
  const r = points.findIndex((row) => row.includes(focused));
  if (r < 0) return;
  const c = points[r].indexOf(focused);
  const tries = dy === 0 ? [[r, c + 2 * dx]] : [[r + dy, c + 1], [r + dy, c - 1]];
  for (const [row, col] of tries) {
    const move = points[row] && points[row][col];
    if (!move) continue;
    const target = $("#board").querySelector(`[data-move="${CSS.escape(move)}"]`);
    if (target) {
      event.preventDefault();
      target.focus();
      return;
    }
  }
}

// -- start -----------------------------------------------------------------------------------

async function start() {
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
