// The "place" board: every empty point is a move (ruled cells of letters, as tic-tac-toe; stones
// on a board with coordinates, as m,n,k and gomoku).

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { ui } from "../state.js";
import { coordLabel, edgeNames } from "./coords.js";
import { gridKey } from "./grid.js";

export function markElement(mark) {
  const span = document.createElement("span");
  span.className = `mark mark-${mark}`;
  span.setAttribute("aria-hidden", "true");
  if (ui.game.marks === "letters") span.textContent = mark;
  return span;
}

function renderPlace(board, view, playable, { onLine, last: [lastRow, lastCol] }) {
  board.setAttribute("role", "grid");
  // A board of stones has files and ranks on its edges (gomoku's h8); ruled cells of letters are
  // named by number (tic-tac-toe's 0-8), shown in each cell's corner.
  const letters = ui.game.marks === "letters";
  const names = letters ? null : edgeNames(view.board.points, `${ui.game.name}:${view.board.width}x${view.board.height}`);
  const bottom = view.board.points.length - 1;
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
      if (letters) button.append(coordLabel(move, "number"));
      if (names && c === 0) button.append(coordLabel(names.ranks[r], "rank"));
      if (names && r === bottom) button.append(coordLabel(names.files[c], "file"));
      if (last) button.classList.add("last");
      if (onLine.has(`${r},${c}`)) button.classList.add("winning");
      const badge = document.createElement("span");
      badge.className = "value";
      button.append(badge);
      button.addEventListener("click", () => page.clickMove(move));
      line.append(button);
    });
    board.append(line);
  });
}

// The person's mark goes down at once, so the click feels immediate while the AI thinks.
function pending(move) {
  const target = document.querySelector(`#board [data-move="${CSS.escape(move)}"]`);
  if (target && target.classList.contains("cell") && !target.querySelector(".mark")) {
    target.prepend(markElement(ui.human));
  }
}

export const placeBoard = { draw: renderPlace, pending, key: gridKey };
