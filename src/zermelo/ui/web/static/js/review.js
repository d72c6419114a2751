// The "Review" panel: POST /api/review judges every move of the game on the board, and the
// evaluation graph (the first player's winning chances after each move) is drawn as inline SVG,
// with the inaccuracies, mistakes and blunders marked and listed.
//
// Self-contained: index.html loads it beside app.js; it reads the game from the shared state.

import { postJson, gameRequest } from "./api.js";
import { t } from "./i18n.js";
import { $ } from "./state.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 160;
const COLOURS = { inaccuracy: "#d4a017", mistake: "#e67e22", blunder: "#c0392b" };
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function svg(name, attributes = {}) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

// The graph of a review's moves: x the ply, y the first player's winning chances (0-100 %).
export function drawGraph(moves) {
  const graph = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "review-graph",
    "aria-label": t("Evaluation graph"), "data-testid": "review-graph",
  });
  const x = (ply) => (moves.length ? (ply / moves.length) * (WIDTH - 10) + 5 : 5);
  const y = (chances) => HEIGHT / 2 - (chances * (HEIGHT - 10)) / 2;
  graph.append(svg("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "axis" }));
  const points = [[x(0), y(0)], ...moves.map((move) => [x(move.ply), y(move.chances)])];
  const line = points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
  graph.append(svg("polygon", { points: `${x(0)},${HEIGHT / 2} ${line} ${points.at(-1)[0]},${HEIGHT / 2}`, class: "area" }));
  graph.append(svg("polyline", { points: line, class: "curve", fill: "none" }));
  for (const move of moves) {
    if (!move.mark) continue;
    const dot = svg("circle", { cx: x(move.ply), cy: y(move.chances), r: 4, fill: COLOURS[move.mark], "data-mark": move.mark });
    const title = svg("title");
    title.textContent = `${move.ply}. ${move.move} ${SIGNS[move.mark]} ${t(move.mark)}`;
    dot.append(title);
    graph.append(dot);
  }
  return graph;
}

function listMarks(list, moves) {
  list.replaceChildren();
  for (const move of moves.filter((m) => m.mark)) {
    const item = document.createElement("li");
    item.textContent = t("{ply}. {move} {sign} {mark}; best {best}", {
      ply: move.ply, move: move.move, sign: SIGNS[move.mark], mark: t(move.mark), best: move.best,
    });
    item.dataset.mark = move.mark;
    list.append(item);
  }
}

async function runReview() {
  const panel = $("#review-panel");
  const status = $("#review-status");
  const button = $("#review-button");
  panel.hidden = false;
  button.disabled = true;
  status.textContent = t("Reviewing every move...");
  try {
    const answer = await postJson("/api/review", gameRequest({ time_ms: 100 }));
    const graph = $("#review-graph");
    graph.replaceChildren(drawGraph(answer.moves));
    listMarks($("#review-marks"), answer.moves);
    const count = (mark) => answer.moves.filter((m) => m.mark === mark).length;
    status.textContent = t("{moves} moves: {inaccuracies} inaccuracies, {mistakes} mistakes, {blunders} blunders", {
      moves: answer.reviewed, inaccuracies: count("inaccuracy"), mistakes: count("mistake"), blunders: count("blunder"),
    });
  } catch (error) {
    status.textContent = error.message;
  } finally {
    button.disabled = false;
  }
}

const button = $("#review-button");
if (button) button.addEventListener("click", runReview);
