// The "draughts" board: only the playable squares are points; a move takes two clicks or more.
//
// One drawing for every board the kind gives: 8x8 with the dark squares numbered (checkers),
// 10x10 numbered 1-50 (international draughts: the numbers small in the corner, as on FMJD
// diagrams, and the coordinates a-j/1-10 around), and 8x8 with every square playable and named
// a1..h8 (Turkish dama: one plain colour, coordinates). The server names each point by its
// square ("32", "d3") and sends every legal move's path (board.paths: its notation, the squares it
// visits, whether it captures); the page sends a move as its squares joined by "x" (a capture) or
// "-" (a step).

import { t } from "../i18n.js";
import { valueClass, valueShort, valueStrength, valueWords } from "../overlay.js";
import { page } from "../registry.js";
import { $, ui } from "../state.js";
import { coordLabel } from "./coords.js";
import { enableDrag } from "./drag.js";


// -- a move is clicked square by square (the piece, then where it goes) --------------------------
//
// A click on a piece selects it when some legal move starts there (so, when the maximum capture is
// mandatory, only the pieces that can make it); a click on a square then plays the one legal move
// of that piece which ends there and passes the squares clicked in between. When two captures end
// on the same square, clicking the squares a capture lands on in between picks it: the next
// landing squares are highlighted.

export function squaresOf(move) {
  return move.split(/[-x]/).filter(Boolean);
}

// The legal moves: { text (the notation), squares (names, origin first), send (what is played) }.
export function draughtsMoves(view = ui.view) {
  if (!view) return [];
  const paths = view.board.paths;
  if (!paths) return view.legal.map((move) => ({ text: move, squares: squaresOf(move), send: move }));
  return paths.map(({ move, path, capture }) => ({ text: move, squares: path, send: path.join(capture ? "x" : "-") }));
}

// The legal moves from the selection's piece that pass the selection's other squares in order.
export function movesThrough(path) {
  return draughtsMoves().filter(({ squares }) => {
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

// Where each of `moves` lands next after the squares of `path` (which it passes in order).
function nextLandings(moves, path) {
  const next = new Set();
  for (const { squares } of moves) {
    let at = 0;
    for (const square of path.slice(1)) {
      at = squares.indexOf(square, at + 1);
    }
    if (at + 1 < squares.length) next.add(squares[at + 1]);
  }
  return next;
}

function cellOf(square) {
  for (const [r, row] of ui.view.board.points.entries()) {
    const c = row.indexOf(square);
    if (c >= 0) return [r, c];
  }
  return null;
}

export function pieceOwner(square) {
  const cell = cellOf(String(square));
  if (!cell) return null;
  const piece = ui.view.board.cells[cell[0]][cell[1]];
  if (piece === ".") return null;
  // The side of each colour: the first side's pieces are those the game names first ("Black"
  // in checkers, "White" in international draughts and dama).
  const first = ((ui.game && ui.game.sides) || ["Black"])[0].toLowerCase();
  return piece.toLowerCase() === first[0] ? "X" : "O";
}

export async function clickSquare(text) {
  if (ui.busy || !ui.view || ui.view.terminal || !page.humansTurn()) return;
  const square = String(text);
  const moves = draughtsMoves();
  const starts = moves.some(({ squares }) => squares[0] === square);
  if (ui.selection.length) {
    const path = [...ui.selection, square];
    const through = movesThrough(path);
    const ending = through.filter(({ squares }) => squares[squares.length - 1] === square);
    // The squares clicked are the whole move: that one, even if a longer capture also fits.
    const exact = ending.filter(({ squares }) => squares.join() === path.join());
    if (ending.length === 1 || exact.length === 1) {
      await page.play((exact.length === 1 ? exact : ending)[0].send);
      return;
    }
    if (ending.length > 1 && ending.length === through.length) {
      page.setMessage(t("Several captures end there: click the squares it jumps through, in order."));
      return;
    }
    if (square === ui.selection[0]) {
      // A second click on the piece puts it down again.
      ui.selection = [];
      page.setMessage("");
      page.render();
      return;
    }
    if (through.length) {
      ui.selection = path;
      page.setMessage("");
      page.render();
      return;
    }
    if (!starts) {
      page.setMessage(t("That is not a move for this piece: pick a highlighted square."));
      return;
    }
  }
  if (starts) {
    ui.selection = [square];
    page.setMessage("");
    page.render();
    return;
  }
  if (pieceOwner(square) !== ui.human) {
    page.setMessage(t("Pick one of your pieces."));
  } else if (ui.view.legal.some((move) => move.includes("x"))) {
    page.setMessage(t("A capture is mandatory: pick a piece that can jump."));
  } else {
    page.setMessage(t("That piece cannot move."));
  }
}

export function pieceName(piece) {
  return {
    b: t("black man"),
    w: t("white man"),
    B: t("black king"),
    W: t("white king"),
  }[piece];
}

// -- the board's orientation: as the game draws it, turned over by the flip button or "f" --------

let flipped = false;

export function flipDraughts() {
  flipped = !flipped;
  page.render();
}

function shownOrder(count) {
  const order = [...Array(count).keys()];
  return flipped ? order.reverse() : order;
}

const NUMBERED = /^\d+$/;

function renderDraughts(board, view, playable) {
  board.setAttribute("role", "grid");
  const { points, cells, files = [], ranks = [] } = view.board;
  const plain = Boolean(view.board.plain);
  const numbered = points.some((row) => row.some((name) => NUMBERED.test(name)));
  board.dataset.plain = plain ? "true" : "false";
  board.dataset.numbered = numbered ? "true" : "false";
  board.dataset.orientation = flipped ? "turned" : "usual";
  const [lastRow, lastCol] = view.last || [-1, -1];
  const lastSquares = new Set(view.board.last || []);
  const moves = draughtsMoves(view);
  const selectable = new Set(moves.map(({ squares }) => squares[0]));
  const targets = new Set();
  const via = new Set();
  let next = new Set();
  if (ui.selection.length) {
    const through = movesThrough(ui.selection);
    const ends = through.map(({ squares }) => squares[squares.length - 1]);
    for (const { squares } of through) {
      const end = squares[squares.length - 1];
      targets.add(end);
      // Squares in between matter only where two captures end on the same square.
      if (ends.indexOf(end) === ends.lastIndexOf(end)) continue;
      const at = squares.indexOf(ui.selection[ui.selection.length - 1], 1);
      for (const square of squares.slice(Math.max(at, 0) + 1, -1)) via.add(square);
    }
    if (via.size) next = nextLandings(through.filter(({ squares }) => squares.some((s) => via.has(s))), ui.selection);
  }
  const rows = shownOrder(points.length);
  const width = Math.max(0, ...points.map((row) => row.length));
  const cols = shownOrder(width);
  for (const [shownRow, r] of rows.entries()) {
    const line = document.createElement("div");
    line.className = "row";
    line.setAttribute("role", "row");
    for (const [shownCol, c] of cols.entries()) {
      const move = points[r][c];
      let element;
      if (move === "") {
        element = document.createElement("span");
        element.className = "square light";
        element.setAttribute("role", "gridcell");
      } else {
        element = playableSquare(move, cells[r][c], {
          last: (r === lastRow && c === lastCol) || lastSquares.has(move),
          playable,
          movable: playable && !ui.selection.length && selectable.has(move),
          targets,
          via,
          next,
          numbered,
        });
      }
      // The coordinates along the left edge and the bottom, as the board is shown.
      if (shownCol === 0 && ranks[r] !== undefined) element.append(coordLabel(ranks[r], "rank"));
      if (shownRow === rows.length - 1 && files[c] !== undefined) element.append(coordLabel(files[c], "file"));
      line.append(element);
    }
    board.append(line);
  }
  enableDraughtsDrag(board);
}

function playableSquare(move, piece, { last, playable, movable, targets, via, next, numbered }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cell square dark";
  button.dataset.move = move;
  button.setAttribute("role", "gridcell");
  const label = piece === "." ? t("Square {move}, empty", { move }) : t("Square {move}, {mark}", { move, mark: pieceName(piece) });
  button.setAttribute("aria-label", last ? `${label} (${t("last move")})` : label);
  if (!playable) button.setAttribute("aria-disabled", "true");
  if (piece !== ".") {
    const king = piece === piece.toUpperCase();
    const disc = document.createElement("span");
    disc.className = `piece piece-${piece.toLowerCase()}` + (king ? " king" : "");
    disc.setAttribute("aria-hidden", "true");
    disc.dataset.drag = "";
    if (king) disc.textContent = "♛";
    button.dataset.piece = piece;
    button.append(disc);
  }
  if (numbered) {
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = move;
    button.append(number);
  }
  const value = document.createElement("span");
  value.className = "value";
  value.setAttribute("aria-hidden", "true");
  button.append(value);
  if (last) button.classList.add("last");
  if (movable) button.classList.add("movable");
  if (ui.selection[0] === move) button.classList.add("selected");
  if (ui.selection.slice(1).includes(move)) button.classList.add("via", "chosen");
  if (targets.has(move)) button.classList.add("target");
  if (via.has(move)) button.classList.add("via");
  if (next.has(move)) button.classList.add("next");
  button.addEventListener("click", () => clickSquare(move));
  return button;
}

// A piece dragged to a square plays as the two clicks would (the piece's, then the square's).
const dragged = new WeakSet();

function enableDraughtsDrag(board) {
  if (dragged.has(board)) return;
  dragged.add(board);
  enableDrag(board, {
    selector: "[data-move]",
    name: (element) => element.dataset.move,
    canStart: (move) =>
      board.dataset.kind === "draughts" &&
      !ui.busy &&
      ui.view &&
      !ui.view.terminal &&
      page.humansTurn() &&
      draughtsMoves().some(({ squares }) => squares[0] === move),
    start: (move) => {
      ui.selection = [];
      clickSquare(move);
    },
    drop: async (from, to) => {
      if (to === from) return;
      if (to === null) {
        ui.selection = [];
        page.render();
        return;
      }
      await clickSquare(to);
    },
  });
}

// Arrow keys go to the next point in that direction as the board is shown: on a board of dark
// squares left and right skip the light square between, up and down go to the nearest dark square
// of the next row; on a board where every square is playable, to the neighbour.
function draughtsKey(event, [dx, dy]) {
  const points = ui.view.board.points;
  const focused = document.activeElement && document.activeElement.dataset.move;
  if (!focused) return;
  const cell = cellOf(focused);
  if (!cell) return;
  const [r, c] = cell;
  const sx = flipped ? -dx : dx;
  const sy = flipped ? -dy : dy;
  let tries;
  if (ui.view.board.plain) tries = [[r + sy, c + sx]];
  else tries = sy === 0 ? [[r, c + 2 * sx]] : [[r + sy, c + 1], [r + sy, c - 1]];
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

// The piece moves at once; what it took goes when the server answers.
function pending(move) {
  const squares = squaresOf(move);
  const from = document.querySelector(`#board [data-move="${CSS.escape(squares[0])}"]`);
  const to = document.querySelector(`#board [data-move="${CSS.escape(squares[squares.length - 1])}"]`);
  const piece = from && from.querySelector(".piece");
  if (piece && to && from !== to) to.prepend(piece);
}

// -- the thinking overlay: each move's value on its landing square (the selected piece's moves,
// else the best move's) and an arrow along the best move's path; the list beside the board names
// every move -----------------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";

function centreOf(square) {
  const cell = cellOf(square);
  if (!cell) return null;
  const height = ui.view.board.points.length;
  const width = ui.view.board.width;
  const [r, c] = cell;
  return [(flipped ? width - 1 - c : c) + 0.5, (flipped ? height - 1 - r : r) + 0.5];
}

function arrow(board, squares) {
  const points = squares.map(centreOf);
  if (points.some((point) => point === null) || points.length < 2) return;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "arrows");
  svg.setAttribute("viewBox", `0 0 ${ui.view.board.width} ${ui.view.board.height}`);
  svg.setAttribute("aria-hidden", "true");
  svg.dataset.testid = "best-arrow";
  svg.dataset.from = squares[0];
  svg.dataset.to = squares[squares.length - 1];
  const defs = document.createElementNS(SVG, "defs");
  const marker = document.createElementNS(SVG, "marker");
  marker.setAttribute("id", "draughts-arrowhead");
  marker.setAttribute("orient", "auto");
  marker.setAttribute("markerWidth", "3");
  marker.setAttribute("markerHeight", "4");
  marker.setAttribute("refX", "0.05");
  marker.setAttribute("refY", "2");
  marker.setAttribute("markerUnits", "strokeWidth");
  const tip = document.createElementNS(SVG, "path");
  tip.setAttribute("d", "M0,0 V4 L3,2 Z");
  tip.setAttribute("class", "arrow-head");
  marker.append(tip);
  defs.append(marker);
  // The last leg stops where the head begins.
  const [x1, y1] = points[points.length - 2];
  const [x2, y2] = points[points.length - 1];
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const head = 0.45;
  const end = [x2 - ((x2 - x1) / length) * head, y2 - ((y2 - y1) / length) * head];
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", [...points.slice(0, -1), end].map(([x, y]) => `${x},${y}`).join(" "));
  line.setAttribute("class", "arrow");
  line.setAttribute("fill", "none");
  line.setAttribute("stroke-width", "0.15");
  line.setAttribute("stroke-linejoin", "round");
  line.setAttribute("marker-end", "url(#draughts-arrowhead)");
  svg.append(defs, line);
  board.append(svg);
}

function overlay(board, analysis, on) {
  const old = board.querySelector(".arrows");
  if (old) old.remove();
  if (!on || !analysis) return;
  const moves = draughtsMoves();
  const byText = new Map(moves.map((move) => [move.text, move]));
  const estimates = analysis.moves.filter((entry) => entry.value.kind === "estimate");
  const largest = Math.max(0, ...estimates.map((entry) => Math.abs(entry.value.estimate)));
  const shown = ui.selection.length ? new Set(movesThrough(ui.selection).map(({ text }) => text)) : new Set([analysis.best]);
  const landed = new Set();
  for (const entry of analysis.moves) {
    const move = byText.get(entry.move);
    if (!move || !shown.has(entry.move)) continue;
    const end = move.squares[move.squares.length - 1];
    if (landed.has(end)) continue; // the best of the moves landing there (the list is best first)
    landed.add(end);
    const element = board.querySelector(`[data-move="${CSS.escape(end)}"]`);
    if (!element) continue;
    const words = valueWords(entry.value);
    element.classList.add(valueClass(entry.value));
    element.style.setProperty("--strength", valueStrength(entry.value, largest).toFixed(2));
    element.dataset.value = words;
    element.title = `${entry.move}: ${words}` + (entry.value.exact ? "" : ` (${t("heuristic")})`);
    if (entry.move === analysis.best) element.classList.add("best");
    const badge = element.querySelector(".value");
    if (badge) badge.textContent = valueShort(entry.value);
  }
  const toggle = document.querySelector("#arrow");
  const best = byText.get(analysis.best);
  if (best && (!toggle || toggle.checked)) arrow(board, best.squares);
}

export const draughtsBoard = {
  draw: renderDraughts,
  pending,
  key: draughtsKey,
  overlay,
  flip: flipDraughts,
  tools: true,
  listsValues: true,
};
