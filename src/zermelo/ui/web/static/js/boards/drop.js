// The "drop" board: a click anywhere in a column plays that column (Connect Four, any size).

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { $, ui } from "../state.js";
import { coordLabel } from "./coords.js";
import { markElement } from "./place.js";

// Only a disc just played falls into its slot: one that was on the board already (a page opened
// from a link, a redraw for a new language or the overlay, an undo) is drawn where it lies. The
// board remembers the position it drew and the discs that were new in it, so a redraw of the same
// position keeps animating the same discs and no others.
const drawn = { key: null, cells: null, fresh: new Set() };

function freshDiscs(view) {
  const key = `${ui.game.name}:${view.board.width}x${view.board.height}`;
  const cells = view.board.cells.map((row) => [...row].join("")).join("/");
  if (drawn.key === key && drawn.cells === cells) return drawn.fresh;
  const fresh = new Set();
  if (drawn.key === key && drawn.cells !== null) {
    const before = drawn.cells.split("/");
    let later = true; // the position follows the one drawn: no disc of it changed colour
    view.board.cells.forEach((row, r) =>
      [...row].forEach((mark, c) => {
        if (mark === ".") return;
        if (before[r] && before[r][c] === ".") fresh.add(`${r},${c}`);
        else if (!before[r] || before[r][c] !== mark) later = false;
      }),
    );
    if (!later) fresh.clear();
  }
  Object.assign(drawn, { key, cells, fresh });
  return fresh;
}

function renderDrop(board, view, playable, { onLine, last: [lastRow, lastCol] }) {
  const legal = new Set(view.legal);
  const fresh = freshDiscs(view);
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
      if (mark !== ".") {
        const disc = markElement(mark);
        if (fresh.has(`${row},${col}`)) disc.classList.add("dropping");
        cell.append(disc);
      }
      if (row === lastRow && col === lastCol) cell.classList.add("last");
      if (onLine.has(`${row},${col}`)) cell.classList.add("winning");
      button.append(cell);
    }
    // The column's name in the notation (Connect Four's 1-7), under it.
    button.append(coordLabel(move, "column"));
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
