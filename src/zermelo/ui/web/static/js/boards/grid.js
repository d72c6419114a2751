// The "grid" board of any game: cells with short texts, and buttons for moves on no cell.

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { $, ui } from "../state.js";
import { coordLabel, edgeNames } from "./coords.js";


// -- the generic grid: any game's cells with their texts; a click on a cell plays its move -------

function renderGrid(board, view, playable, { onLine, last: [lastRow, lastCol] }) {
  board.setAttribute("role", "grid");
  const legal = new Set(view.legal);
  // Files and ranks where the points' moves name them (othello's d3); none for other names.
  const names = edgeNames(view.board.points, `${ui.game.name}:${view.board.width}x${view.board.height}`);
  const bottom = view.board.cells.length - 1;
  board.classList.toggle("dense", view.board.width > 12);
  view.board.cells.forEach((row, r) => {
    const line = document.createElement("div");
    line.className = "row";
    line.setAttribute("role", "row");
    row.forEach((text, c) => {
      const move = view.board.points[r][c];
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cell";
      button.dataset.move = move === null ? "" : move;
      button.setAttribute("role", "gridcell");
      let label = text;
      if (move !== null) label = text ? t("Square {move}, {mark}", { move, mark: text }) : t("Square {move}, empty", { move });
      button.setAttribute("aria-label", label);
      if (move === null || !legal.has(move) || !playable) button.setAttribute("aria-disabled", "true");
      const mark = document.createElement("span");
      mark.className = "text";
      mark.textContent = text;
      button.append(mark);
      if (r === lastRow && c === lastCol) button.classList.add("last");
      if (onLine.has(`${r},${c}`)) button.classList.add("winning");
      const badge = document.createElement("span");
      badge.className = "value";
      button.append(badge);
      if (names && c === 0) button.append(coordLabel(names.ranks[r], "rank"));
      if (names && r === bottom) button.append(coordLabel(names.files[c], "file"));
      if (move !== null) button.addEventListener("click", () => page.clickMove(move));
      line.append(button);
    });
    board.append(line);
  });
}

// Legal moves on no cell of the board (a pass, say), as buttons under it.
export function renderExtraMoves(view, playable) {
  const box = $("#extra-moves");
  const extra = view.board.extra || [];
  box.replaceChildren();
  box.hidden = extra.length === 0;
  for (const move of extra) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.extra = move;
    button.textContent = move;
    button.disabled = !playable;
    button.addEventListener("click", () => page.clickMove(move));
    box.append(button);
  }
}

// Arrow keys move between the points of a board drawn row by row; Enter or Space plays.
export function gridKey(event, [dx, dy]) {
  const points = [...$("#board").querySelectorAll("[data-move]")];
  const index = points.indexOf(document.activeElement);
  if (index < 0) return;
  const cols = ui.view.board.width;
  const col = Math.min(Math.max((index % cols) + dx, 0), cols - 1);
  const row = Math.min(Math.max(Math.floor(index / cols) + dy, 0), ui.view.board.height - 1);
  const target = points[row * cols + col];
  if (target) {
    event.preventDefault();
    target.focus();
  }
}

export const gridBoard = { draw: renderGrid, key: gridKey };
