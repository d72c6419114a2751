// The "chess" board: click a piece, then its square, or drag it there; a promotion asks for the
// piece. Coordinates on the edges, a flip button (and the "f" key), and an arrow for the best move
// while the thinking is shown.
//
// The server sends the legal moves with their squares ({from, to, promotion, move}); the page
// sends back the move's notation (SAN).

import { t } from "../i18n.js";
import { page, rendererFor } from "../registry.js";
import { ui } from "../state.js";
import { coordLabel } from "./coords.js";
import { enableDrag } from "./drag.js";

const FIGURES = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const NAMES = {
  k: "king",
  q: "queen",
  r: "rook",
  b: "bishop",
  n: "knight",
  p: "pawn",
};

export function pieceLabel(piece) {
  const colour = piece === piece.toUpperCase() ? t("White") : t("Black");
  return `${colour} ${t(NAMES[piece.toLowerCase()])}`;
}

function movesFrom(square) {
  return ui.view.board.moves.filter((move) => move.from === square);
}

export async function clickChessSquare(square) {
  if (ui.busy || !ui.view || ui.view.terminal || !page.humansTurn()) return;
  const from = ui.selection[0];
  if (from) {
    const chosen = movesFrom(from).filter((move) => move.to === square);
    if (chosen.length === 1) {
      await page.play(chosen[0].move);
      return;
    }
    if (chosen.length > 1) {
      ui.selection = [from, square]; // a promotion: the picker asks for the piece
      page.setMessage(t("Choose the piece to promote to."));
      page.render();
      return;
    }
    if (square === from) {
      ui.selection = [];
      page.setMessage("");
      page.render();
      return;
    }
  }
  if (movesFrom(square).length) {
    ui.selection = [square];
    page.setMessage("");
    page.render();
    return;
  }
  page.setMessage(from ? t("That is not a move for this piece: pick a highlighted square.") : t("Pick one of your pieces."));
}

function promotionPicker(from, to) {
  const picker = document.createElement("div");
  picker.className = "promotion";
  picker.dataset.testid = "promotion";
  picker.setAttribute("role", "group");
  picker.setAttribute("aria-label", t("Choose the piece to promote to."));
  const white = ui.human === "X";
  for (const move of movesFrom(from).filter((entry) => entry.to === to)) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.promotion = move.promotion;
    const piece = white ? move.promotion.toUpperCase() : move.promotion;
    button.textContent = FIGURES[move.promotion];
    button.className = `figure ${white ? "white" : "black"}`;
    button.setAttribute("aria-label", pieceLabel(piece));
    button.addEventListener("click", () => page.play(move.move));
    picker.append(button);
  }
  return picker;
}

// The board's orientation: from the person's side (White at the bottom, or Black when the person
// plays Black), turned over by the flip button or the "f" key.
let flipped = false;

export function blackAtBottom() {
  return (ui.human === "O") !== flipped;
}

export function flipBoard() {
  flipped = !flipped;
  page.render();
}

// The best move's arrow is drawn while "Show thinking" is on, unless switched off here.
let arrowOn = true;

function renderChess(board, view, playable) {
  board.setAttribute("role", "grid");
  const turned = blackAtBottom();
  board.dataset.orientation = turned ? "black" : "white";
  const [from, promotionTo] = ui.selection;
  const targets = new Set(from ? movesFrom(from).map((move) => move.to) : []);
  const movable = new Set(view.board.moves.map((move) => move.from));
  const last = new Set(view.board.last || []);
  const order = [...Array(8).keys()];
  const rows = turned ? [...order].reverse() : order;
  const cols = turned ? [...order].reverse() : order;
  for (const [shownRow, r] of rows.entries()) {
    const line = document.createElement("div");
    line.className = "row";
    line.setAttribute("role", "row");
    for (const [shownCol, c] of cols.entries()) {
      const square = view.board.points[r][c];
      const piece = view.board.cells[r][c];
      const button = document.createElement("button");
      button.type = "button";
      button.className = `cell square ${(r + c) % 2 === 0 ? "light" : "dark"}`;
      button.dataset.square = square;
      button.setAttribute("role", "gridcell");
      const label = piece === "." ? t("Square {move}, empty", { move: square }) : t("Square {move}, {mark}", { move: square, mark: pieceLabel(piece) });
      button.setAttribute("aria-label", last.has(square) ? `${label} (${t("last move")})` : label);
      if (!playable) button.setAttribute("aria-disabled", "true");
      if (piece !== ".") {
        const figure = document.createElement("span");
        figure.className = `figure ${piece === piece.toUpperCase() ? "white" : "black"}`;
        figure.setAttribute("aria-hidden", "true");
        figure.dataset.drag = "";
        figure.textContent = FIGURES[piece.toLowerCase()];
        button.dataset.piece = piece;
        button.append(figure);
      }
      // Coordinates as lichess draws them: the ranks down the left edge, the files along the
      // bottom, each the square's own name in the notation (e4: file e, rank 4).
      if (shownCol === 0) button.append(coordLabel(square.slice(1), "rank"));
      if (shownRow === 7) button.append(coordLabel(square[0], "file"));
      if (last.has(square)) button.classList.add("last");
      if (view.board.check === square) button.classList.add("check");
      if (playable && !from && movable.has(square)) button.classList.add("movable");
      if (from === square) button.classList.add("selected");
      if (targets.has(square)) button.classList.add("target");
      button.addEventListener("click", () => clickChessSquare(square));
      line.append(button);
    }
    board.append(line);
  }
  if (from && promotionTo) board.append(promotionPicker(from, promotionTo));
  enableChessDrag(board);
}

// -- drag and drop: a piece dragged to a target square plays that move (a promotion still asks) --

const dragged = new WeakSet();

function enableChessDrag(board) {
  if (dragged.has(board)) return;
  dragged.add(board);
  enableDrag(board, {
    selector: "[data-square]",
    name: (element) => element.dataset.square,
    canStart: (square) =>
      board.dataset.kind === "chess" && !ui.busy && ui.view && !ui.view.terminal && page.humansTurn() && movesFrom(square).length > 0,
    start: (square) => {
      ui.selection = [square];
      for (const element of board.querySelectorAll(".target, .selected")) element.classList.remove("target", "selected");
      board.querySelector(`[data-square="${square}"]`).classList.add("selected");
      for (const move of movesFrom(square)) {
        const target = board.querySelector(`[data-square="${move.to}"]`);
        if (target) target.classList.add("target");
      }
    },
    drop: async (from, to) => {
      if (to === from) {
        // Put back where it was: the piece stays picked up, for a click on its square.
        page.render();
        return;
      }
      if (to === null || !movesFrom(from).some((move) => move.to === to)) {
        ui.selection = [];
        page.render();
        return;
      }
      ui.selection = [from];
      await clickChessSquare(to);
    },
  });
}

// The person's piece moves at once; what it took, and the AI's reply, come with the server's answer.
function pending(san) {
  const move = ui.view && ui.view.board.moves.find((entry) => entry.move === san);
  if (!move) return;
  const from = document.querySelector(`#board [data-square="${move.from}"]`);
  const to = document.querySelector(`#board [data-square="${move.to}"]`);
  const figure = from && from.querySelector(".figure");
  if (!figure || !to) return;
  const taken = to.querySelector(".figure");
  if (taken) taken.remove();
  to.prepend(figure);
}

// -- the best move's arrow: an SVG over the board, from the analysis the page already has -------

const SVG = "http://www.w3.org/2000/svg";

function squareCentre(square) {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square.slice(1));
  const turned = blackAtBottom();
  const x = turned ? 7 - file : file;
  const y = turned ? rank - 1 : 8 - rank;
  return [x + 0.5, y + 0.5];
}

function overlay(board, analysis, on) {
  const old = board.querySelector(".arrows");
  if (old) old.remove();
  const toggle = document.querySelector("#arrow");
  if (toggle) arrowOn = toggle.checked;
  if (!on || !arrowOn || !analysis) return;
  const move = ui.view.board.moves.find((entry) => entry.move === analysis.best);
  if (!move) return;
  const [x1, y1] = squareCentre(move.from);
  const [x2, y2] = squareCentre(move.to);
  const length = Math.hypot(x2 - x1, y2 - y1);
  // The shaft stops where the head begins, so the two do not overlap in a darker patch.
  const head = 0.45;
  const ex = x2 - ((x2 - x1) / length) * head;
  const ey = y2 - ((y2 - y1) / length) * head;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "arrows");
  svg.setAttribute("viewBox", "0 0 8 8");
  svg.setAttribute("aria-hidden", "true");
  svg.dataset.testid = "best-arrow";
  svg.dataset.from = move.from;
  svg.dataset.to = move.to;
  const defs = document.createElementNS(SVG, "defs");
  const marker = document.createElementNS(SVG, "marker");
  marker.setAttribute("id", "arrowhead");
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
  const line = document.createElementNS(SVG, "line");
  line.setAttribute("x1", x1);
  line.setAttribute("y1", y1);
  line.setAttribute("x2", ex);
  line.setAttribute("y2", ey);
  line.setAttribute("class", "arrow");
  line.setAttribute("stroke-width", "0.15");
  line.setAttribute("marker-end", "url(#arrowhead)");
  svg.append(defs, line);
  board.append(svg);
}

// The board's tools under it (flip, the arrow's switch): wired once, shown for the boards that
// have them (a renderer with tools, whose flip() turns it over: chess, draughts).
function flipShown() {
  const renderer = ui.view && rendererFor(ui.view.board.kind);
  if (!renderer || !renderer.flip) return false;
  renderer.flip();
  return true;
}

function wireTools() {
  const flip = document.querySelector("#flip");
  if (flip) flip.addEventListener("click", () => flipShown());
  const toggle = document.querySelector("#arrow");
  if (toggle) toggle.addEventListener("change", () => page.render());
  document.addEventListener("keydown", (event) => {
    if (event.key !== "f" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!ui.view || !rendererFor(ui.view.board.kind).flip) return;
    const active = document.activeElement;
    if (active && (active.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName))) return;
    event.preventDefault();
    flipShown();
  });
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireTools);
  else wireTools();
}

// The game so far as a PGN file, for the "Save as PGN" button.
export function downloadPgn() {
  const text = ui.view && ui.view.board && ui.view.board.pgn;
  if (!text) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  link.download = "zermelo.pgn";
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(link.href);
}

// Arrow keys move between the squares as the board is drawn (flipped for Black); Enter or Space
// clicks the square.
function chessKey(event, [dx, dy]) {
  const focused = document.activeElement && document.activeElement.dataset.square;
  if (!focused) return;
  const flip = blackAtBottom() ? -1 : 1;
  const file = focused.charCodeAt(0) - 97 + dx * flip;
  const rank = Number(focused[1]) - dy * flip;
  if (file < 0 || file > 7 || rank < 1 || rank > 8) return;
  const target = document.querySelector(`#board [data-square="${String.fromCharCode(97 + file)}${rank}"]`);
  if (target) {
    event.preventDefault();
    target.focus();
  }
}

export const chessBoard = { draw: renderChess, key: chessKey, pending, overlay, flip: flipBoard, tools: true, listsValues: true };
