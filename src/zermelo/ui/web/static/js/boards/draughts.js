// The "draughts" board: only the numbered (dark) squares are points; a move takes two clicks or
// more.

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { $, ui } from "../state.js";
import { enableDrag } from "./drag.js";


// -- a move is clicked square by square (the piece, then where it goes) --------------------------
//
// The legal moves come from the server in notation ("11-15", "15x24x31"). A click on a piece
// selects it when some legal move starts there (so, when a capture is mandatory, only pieces that
// can jump); a click on a square then plays the one legal move of that piece which ends there and
// passes the squares clicked in between. When two jumps end on the same square, clicking the
// squares a jump passes through picks it.

export function squaresOf(move) {
  return move.split(/[-x]/).map(Number);
}

function checkersMoves() {
  return ui.view.legal.map((move) => ({ text: move, squares: squaresOf(move) }));
}

// The legal moves from the selection's piece that pass the selection's other squares in order.
export function movesThrough(path) {
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

export function pieceOwner(square) {
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

export async function clickSquare(text) {
  if (ui.busy || !ui.view || ui.view.terminal || !page.humansTurn()) return;
  const square = Number(text);
  const starts = checkersMoves().some(({ squares }) => squares[0] === square);
  if (ui.selection.length) {
    const path = [...ui.selection, square];
    const through = movesThrough(path);
    const ending = through.filter(({ squares }) => squares[squares.length - 1] === square);
    // The squares clicked are the whole move: that one, even if a longer jump also fits.
    const exact = ending.filter(({ squares }) => squares.join() === path.join());
    if (ending.length === 1 || exact.length === 1) {
      await page.play((exact.length === 1 ? exact : ending)[0].text);
      return;
    }
    if (ending.length > 1) {
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
        disc.dataset.drag = "";
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
  enableDraughtsDrag(board);
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
      checkersMoves().some(({ squares }) => squares[0] === Number(move)),
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

// Left and right go to the next dark square in the row, up and down to the nearest one in the next
// row (only dark squares are points).
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

// The piece moves at once; what it took goes when the server answers.
function pending(move) {
  const squares = squaresOf(move);
  const from = document.querySelector(`#board [data-move="${squares[0]}"]`);
  const to = document.querySelector(`#board [data-move="${squares[squares.length - 1]}"]`);
  const piece = from && from.querySelector(".piece");
  if (piece && to && from !== to) to.prepend(piece);
}

export const draughtsBoard = { draw: renderCheckers, pending, key: checkersKey, listsValues: true };
