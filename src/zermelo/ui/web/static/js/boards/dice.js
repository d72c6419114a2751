// The "dice" board: a race of scores with a die (Pig). Both totals, the turn's total, the last
// roll as a die face, and the moves (roll, hold) as the board's own buttons.

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { markOf, ui } from "../state.js";

// The pips of a face of six or fewer, on a 3x3 grid (cells 0..8, row by row).
const PIPS = {
  1: [4],
  2: [0, 8],
  3: [0, 4, 8],
  4: [0, 2, 6, 8],
  5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8],
};

// A die showing face (a number as text); faces past six (a bigger die) are written as the number.
export function dieFace(face, label) {
  const die = document.createElement("span");
  die.className = "die";
  die.dataset.face = face;
  die.setAttribute("role", "img");
  die.setAttribute("aria-label", label);
  const pips = PIPS[face];
  if (pips) {
    for (let cell = 0; cell < 9; cell++) {
      const spot = document.createElement("span");
      spot.className = pips.includes(cell) ? "pip on" : "pip";
      die.append(spot);
    }
  } else {
    die.classList.add("number");
    die.textContent = face;
  }
  return die;
}

// The moves as buttons inside the board (so that the thinking overlay's values sit on them).
export function moveButtons(view, playable) {
  const box = document.createElement("div");
  box.className = "board-buttons";
  for (const move of view.board.buttons || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move-button";
    button.dataset.move = move;
    const label = document.createElement("span");
    label.className = "text";
    label.textContent = t(move);
    const badge = document.createElement("span");
    badge.className = "value";
    button.append(label, badge);
    if (!playable) button.setAttribute("aria-disabled", "true");
    button.addEventListener("click", () => page.clickMove(move));
    box.append(button);
  }
  return box;
}

function renderDice(board, view, playable) {
  board.setAttribute("role", "group");
  const [first, second, turn, roll] = view.board.cells[0] || ["0", "0", "0", ""];
  const sides = (ui.game && ui.game.sides) || ["X", "O"];
  const mover = markOf(view.to_move);
  const scores = document.createElement("div");
  scores.className = "scores";
  [first, second].forEach((total, index) => {
    const mark = index === 0 ? "X" : "O";
    const panel = document.createElement("div");
    panel.className = "score";
    panel.dataset.side = mark;
    panel.dataset.testid = `total-${mark}`;
    if (mark === mover && !view.terminal) panel.classList.add("to-move");
    const name = document.createElement("span");
    name.className = "side-name";
    const who = mark === ui.human ? t("You") : t("The AI");
    name.textContent = `${t(sides[index])} · ${who}`;
    const value = document.createElement("strong");
    value.className = "total";
    value.textContent = total;
    panel.append(name, value);
    scores.append(panel);
  });
  const middle = document.createElement("div");
  middle.className = "turn";
  const turnLabel = document.createElement("span");
  turnLabel.textContent = t("Turn total");
  const turnValue = document.createElement("strong");
  turnValue.className = "turn-total";
  turnValue.dataset.testid = "turn-total";
  turnValue.textContent = turn;
  middle.append(turnLabel, turnValue);
  if (roll) middle.append(dieFace(roll, t("Last roll: {face}", { face: roll })));
  board.append(scores, middle, moveButtons(view, playable));
}

export const diceBoard = { draw: renderDice };
