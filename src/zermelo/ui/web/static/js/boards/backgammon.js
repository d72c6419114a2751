// The "backgammon" board: 24 triangles in four quadrants, stacks of checkers (a count past five),
// the bar, the borne-off trays, the dice and the cube (the board's facts).
//
// A move is made die by die: a click on one of your checkers, then on where it goes. The server
// sends every legal full move with its checker steps (board.steps: [{move, steps: [[from, to]]}]);
// the page keeps the steps clicked so far and narrows the legal moves to those that contain them,
// a click being one step or a checker's run of several (24 then 13 for 24/18/13). When the steps
// clicked make a whole legal move, it is played. A box takes a typed move too (24/18 13/11).

import { t } from "../i18n.js";
import { page } from "../registry.js";
import { ui } from "../state.js";
import { dieFace } from "./dice.js";

// What has been clicked for the move being made: the steps so far and the checker picked up.
const making = { view: null, steps: [], from: null };

function current(view) {
  if (making.view !== view) Object.assign(making, { view, steps: [], from: null });
  return making;
}

// The steps left of a move once the step a→b is made: a step a→b, or a run a→x→…→b of one
// checker; null when the move has no such step.
export function consume(steps, a, b) {
  const exact = steps.findIndex(([from, to]) => from === a && to === b);
  if (exact >= 0) return steps.filter((_, index) => index !== exact);
  for (let index = 0; index < steps.length; index++) {
    const [from, to] = steps[index];
    if (from !== a || to === b) continue;
    const rest = consume(steps.filter((_, other) => other !== index), to, b);
    if (rest !== null) return rest;
  }
  return null;
}

// The legal moves that hold every step clicked so far, each with the steps it has left.
export function narrow(moves, clicked) {
  const found = [];
  for (const entry of moves) {
    let left = entry.steps;
    for (const [a, b] of clicked) {
      left = left === null ? null : consume(left, a, b);
    }
    if (left !== null) found.push({ move: entry.move, left });
  }
  return found;
}

// Where a checker on point a may go next among the narrowed moves (a step or a run).
export function targets(candidates, a) {
  const found = new Set();
  for (const { left } of candidates) {
    const reach = (steps, from) => {
      for (let index = 0; index < steps.length; index++) {
        const [x, y] = steps[index];
        if (x !== from) continue;
        found.add(y);
        reach(steps.filter((_, other) => other !== index), y);
      }
    };
    reach(left, a);
  }
  return found;
}

function checkers(text) {
  const match = /^([XO])(\d+)$/.exec(text || "");
  return match ? { mark: match[1], count: Number(match[2]) } : null;
}

function stack(text) {
  const box = document.createElement("span");
  box.className = "stack";
  const found = checkers(text);
  if (!found) return box;
  box.dataset.owner = found.mark;
  box.dataset.count = String(found.count);
  for (let index = 0; index < Math.min(found.count, 5); index++) {
    const checker = document.createElement("span");
    checker.className = `checker ${found.mark === "X" ? "first" : "second"}`;
    if (index === 4 && found.count > 5) checker.textContent = String(found.count);
    box.append(checker);
  }
  return box;
}

function point(view, row, col, state, candidates, playable, kind) {
  const name = (view.board.points[row] || [])[col] || "";
  const text = (view.board.cells[row] || [])[col] || "";
  const button = document.createElement("button");
  button.type = "button";
  button.className = kind;
  if (kind === "point") button.classList.add(col % 2 === 0 ? "dark" : "light");
  button.dataset.point = name;
  button.dataset.cell = text;
  const found = checkers(text);
  const label = found ? t("Point {point}: {count} of {mark}", { point: name, count: found.count, mark: found.mark }) : t("Point {point}, empty", { point: name });
  button.setAttribute("aria-label", label);
  if (!playable || !name) button.setAttribute("aria-disabled", "true");
  const sources = new Set(candidates.flatMap(({ left }) => left.map(([from]) => from)));
  if (playable && sources.has(name)) button.classList.add("source");
  if (state.from === name) button.classList.add("picked");
  if (state.from !== null && targets(candidates, state.from).has(name)) button.classList.add("target");
  button.append(stack(text));
  const number = document.createElement("span");
  number.className = "point-name";
  number.textContent = name;
  button.append(number);
  if (name) button.addEventListener("click", () => clickPoint(view, name));
  return button;
}

export function clickPoint(view, name) {
  if (!page.humansTurn() || ui.busy) return;
  const state = current(view);
  const candidates = narrow(view.board.steps || [], state.steps);
  if (state.from !== null && state.from !== name && targets(candidates, state.from).has(name)) {
    state.steps = [...state.steps, [state.from, name]];
    state.from = null;
    const done = narrow(view.board.steps || [], state.steps).find(({ left }) => left.length === 0);
    if (done) {
      Object.assign(making, { view: null, steps: [], from: null });
      page.play(done.move);
      return;
    }
  } else if (state.from === name) {
    state.from = null;
  } else if (candidates.some(({ left }) => left.some(([from]) => from === name))) {
    state.from = name;
    page.setMessage("");
  } else {
    page.setMessage(t("No checker of yours can move from {point} now.", { point: name }));
  }
  page.render();
}

function renderBackgammon(board, view, playable) {
  board.setAttribute("role", "group");
  const state = current(view);
  const candidates = playable ? narrow(view.board.steps || [], state.steps) : [];
  const table = document.createElement("div");
  table.className = "bg-table";
  for (const row of [0, 1]) {
    const half = document.createElement("div");
    half.className = `bg-half ${row === 0 ? "upper" : "lower"}`;
    const cells = view.board.cells[row] || [];
    const points = Math.min(12, Math.max(0, cells.length - 2));
    for (let col = 0; col < points; col++) {
      if (col === 6) half.append(point(view, row, cells.length - 2, state, candidates, playable, "bar"));
      half.append(point(view, row, col, state, candidates, playable, "point"));
    }
    half.append(point(view, row, cells.length - 1, state, candidates, playable, "off"));
    table.append(half);
  }
  board.append(table);

  // The dice and the cube, from the facts (drawn as dice where they are digits).
  const tray = document.createElement("div");
  tray.className = "bg-dice";
  for (const [label, value] of view.board.facts || []) {
    if (/dice|roll/i.test(label) && /^\d+$/.test(value)) {
      for (const face of value) tray.append(dieFace(face, t("die {face}", { face })));
    }
  }
  board.append(tray);

  const made = document.createElement("p");
  made.className = "bg-partial";
  made.dataset.testid = "partial-move";
  made.textContent = state.steps.length ? `${state.steps.map(([a, b]) => `${a}/${b}`).join(" ")} …` : "";
  board.append(made);

  const typed = document.createElement("form");
  typed.className = "typed-move";
  const input = document.createElement("input");
  input.type = "text";
  input.name = "move";
  input.dataset.testid = "typed-move";
  input.setAttribute("aria-label", t("Type a move"));
  input.placeholder = "24/18 13/11";
  input.disabled = !playable;
  const send = document.createElement("button");
  send.type = "submit";
  send.textContent = t("Play");
  send.disabled = !playable;
  const clear = document.createElement("button");
  clear.type = "button";
  clear.textContent = t("Clear");
  clear.disabled = !state.steps.length && state.from === null;
  clear.addEventListener("click", () => {
    Object.assign(making, { view: null, steps: [], from: null });
    page.render();
  });
  typed.append(input, send, clear);
  typed.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) page.clickMove(text);
  });
  board.append(typed);
}

export const backgammonBoard = { draw: renderBackgammon, listsValues: true };
