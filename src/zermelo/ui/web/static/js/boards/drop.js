// The "drop" board: a click anywhere in a column plays that column (Connect Four, any size).

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { $ } from "../state.js";
import { markElement } from "./place.js";

function renderDrop(board, view, playable, { onLine, last: [lastRow, lastCol] }) {
  const legal = new Set(view.legal);
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
    button.addEventListener("click", () => page.clickMove(move));
    board.append(button);
  });
}

// Left and right go to the next column.
function dropKey(event, [dx]) {
  const columns = [...$("#board").querySelectorAll("[data-move]")];
  const index = columns.indexOf(document.activeElement);
  if (index < 0) return;
  const target = columns[Math.min(Math.max(index + dx, 0), columns.length - 1)];
  if (target) {
    event.preventDefault();
    target.focus();
  }
}

export const dropBoard = { draw: renderDrop, key: dropKey };
