// The "chess" board: click a piece, then its square; a promotion asks for the piece.
//
// The server sends the legal moves with their squares ({from, to, promotion, move}); the page
// sends back the move's notation (SAN). The board is drawn from the person's side: White at the
// bottom, or Black when the person plays Black.

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { ui } from "../state.js";

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

function renderChess(board, view, playable) {
  board.setAttribute("role", "grid");
  const flipped = ui.human === "O";
  const [from, promotionTo] = ui.selection;
  const targets = new Set(from ? movesFrom(from).map((move) => move.to) : []);
  const movable = new Set(view.board.moves.map((move) => move.from));
  const last = new Set(view.board.last || []);
  const order = [...Array(8).keys()];
  const rows = flipped ? [...order].reverse() : order;
  for (const r of rows) {
    const line = document.createElement("div");
    line.className = "row";
    line.setAttribute("role", "row");
    const cols = flipped ? [...order].reverse() : order;
    for (const c of cols) {
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
        figure.textContent = FIGURES[piece.toLowerCase()];
        button.dataset.piece = piece;
        button.append(figure);
      }
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
  const flip = ui.human === "O" ? -1 : 1;
  const file = focused.charCodeAt(0) - 97 + dx * flip;
  const rank = Number(focused[1]) - dy * flip;
  if (file < 0 || file > 7 || rank < 1 || rank > 8) return;
  const target = document.querySelector(`#board [data-square="${String.fromCharCode(97 + file)}${rank}"]`);
  if (target) {
    event.preventDefault();
    target.focus();
  }
}

export const chessBoard = { draw: renderChess, key: chessKey, listsValues: true };
