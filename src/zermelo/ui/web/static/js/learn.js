// The Learn page: the tutorial's worked examples stepped through, and nodes against depth.
//
// The trace comes from /api/learn/trace (the tutorial's minimax and alpha-beta, searched on the
// server), the counts from /api/learn/nodes (measured live by the engine's searches). Step 0 is
// the position; step k shows the root's first k moves searched, the newest drawn two plies deep;
// the last step is the AI's choice.

import { getJson } from "./api.js";
import { loadMessages, t, tn } from "./i18n.js";
import { $, other, ui } from "./state.js";

const learn = { example: "1", algorithm: "alphabeta", trace: null, step: 0, game: "tictactoe", counts: {} };

const COLOURS = { minimax: "#d1495b", alphabeta: "#edae49", table: "#00798c", ordering: "#4257e0" };
const LABELS = {
  minimax: "minimax",
  alphabeta: "alpha-beta",
  table: "alpha-beta + table",
  ordering: "alpha-beta + table + ordering",
};


// -- numbers ---------------------------------------------------------------------------------------

function number(value) {
  if (value === "inf") return "+∞";
  if (value === "-inf") return "−∞";
  if (value === 0) return "0";
  return value > 0 ? `+${value}` : `${value}`;
}

function valueText(node) {
  const shown = number(node.value);
  if (node.bound === "upper") return `≤ ${shown}`;
  if (node.bound === "lower") return `≥ ${shown}`;
  return `= ${shown}`;
}

function count(n) {
  return n.toLocaleString(ui.lang);
}


// -- the steps --------------------------------------------------------------------------------------

function tree() {
  return learn.trace[learn.algorithm];
}

function stepCount() {
  return tree().children.length + 2;
}

function shownMoves() {
  return Math.min(learn.step, tree().children.length);
}

function mover(node) {
  // The side that made the move into ``node``: at a MAX level the human (MIN) just moved.
  return node.max ? other(learn.trace.ai) : learn.trace.ai;
}

function cutReason(node) {
  const cut = node.cutoff;
  const params = { moves: cut.moves.join(" "), alpha: number(cut.alpha), beta: number(cut.beta) };
  if (node.max) {
    return t("pruned {moves}: α = {alpha} ≥ β = {beta}; MAX already has {alpha} here, and MIN will not allow more than {beta}, so the other moves cannot matter", params);
  }
  return t("pruned {moves}: α = {alpha} ≥ β = {beta}; MIN can already hold MAX to {beta} here, and MAX has {alpha} elsewhere, so the other moves cannot matter", params);
}

function nodeItem(node, depth, newest) {
  const item = document.createElement("li");
  item.setAttribute("role", "treeitem");
  item.className = "node";
  if (newest) item.classList.add("newest");
  item.dataset.move = String(node.move);
  const row = document.createElement("div");
  row.className = "node-row";
  const text = document.createElement("span");
  text.className = "node-text";
  const title = document.createElement("strong");
  title.textContent = t("{mark} on {square}", { mark: mover(node), square: node.move });
  const value = document.createElement("span");
  value.className = `tag ${node.value > 0 ? "win" : node.value < 0 ? "loss" : "draw"}`;
  value.dataset.testid = "value";
  value.textContent = `V(s) ${valueText(node)}`;
  const level = document.createElement("span");
  level.textContent = t("{level} to move", { level: t(node.max ? "MAX" : "MIN") });
  const facts = document.createElement("span");
  facts.className = "node-facts";
  facts.textContent = tn("{nodes} nodes", node.nodes, { nodes: count(node.nodes) });
  text.append(title, value, level);
  if (learn.algorithm === "alphabeta") {
    const window = document.createElement("span");
    window.className = "window";
    window.textContent = t("[α = {alpha}, β = {beta}]", { alpha: number(node.alpha), beta: number(node.beta) });
    text.append(window);
  }
  text.append(facts);
  row.append(text);
  item.append(row);
  if (depth > 0 && node.children.length) {
    const group = document.createElement("ul");
    group.setAttribute("role", "group");
    for (const child of node.children) group.append(nodeItem(child, depth - 1, false));
    if (node.cutoff) group.append(cutItem(node));
    item.append(group);
  }
  return item;
}

function cutItem(node) {
  const item = document.createElement("li");
  item.className = "node cut pruned";
  item.dataset.testid = "cutoff";
  const row = document.createElement("div");
  row.className = "node-row";
  row.textContent = `✂ ${cutReason(node)}`;
  item.append(row);
  return item;
}

function drawBoard(position, just) {
  const board = $("#board");
  board.replaceChildren();
  for (let square = 0; square < 9; square++) {
    const cell = document.createElement("span");
    const mark = position[square];
    if (mark === "X" || mark === "O") {
      cell.textContent = mark;
    } else if (square === just) {
      cell.textContent = learn.trace.ai;
      cell.className = "just";
    } else {
      cell.textContent = String(square);
      cell.className = "free";
    }
    board.append(cell);
  }
}

function render() {
  const data = learn.trace;
  const root = tree();
  const total = stepCount();
  const shown = shownMoves();
  const last = learn.step === total - 1;
  $("#previous").disabled = learn.step === 0;
  $("#next").disabled = last;
  $("#step-count").textContent = t("Step {step} of {steps}", { step: learn.step + 1, steps: total });
  const newest = learn.step >= 1 && !last ? root.children[learn.step - 1] : null;
  drawBoard(data.position, last ? data.move : newest ? newest.move : null);

  if (data.terminal) {
    $("#step-title").textContent = "";
    $("#step-text").textContent = t("The game is over: there is nothing to search.");
    $("#counts").replaceChildren();
    $("#learn-tree").replaceChildren();
    return;
  }
  if (learn.step === 0) {
    $("#step-title").textContent = t("The position");
    $("#step-text").textContent = t(
      "{mark} (the AI, MAX) is to move. Like the tutorial's get_best_move, the search tries every free square in order: {moves}. V(s) is +1 when X wins, -1 when O wins, 0 for a draw.",
      { mark: data.ai, moves: root.children.map((c) => c.move).join(" ") },
    );
  } else if (last) {
    $("#step-title").textContent = t("The choice");
    const percent = Math.round(100 * (1 - data.nodes.alphabeta / data.nodes.minimax));
    $("#step-text").textContent = `${t("The AI plays {square}: V(s) = {value}, the first square with the best value.", { square: data.move, value: number(data.value) })} ${t("Minimax visited {minimax} nodes; alpha-beta visited {alphabeta} and found the same value, skipping {percent}% of the tree.", { minimax: count(data.nodes.minimax), alphabeta: count(data.nodes.alphabeta), percent })}`;
  } else {
    $("#step-title").textContent = t("{mark} on {square}", { mark: data.ai, square: newest.move });
    $("#step-text").textContent = newest.cutoff || hasCut(newest)
      ? t("The values come back up: each MIN level takes the lowest value of its children, each MAX level the highest. Alpha-beta stops a level as soon as alpha ≥ beta.")
      : t("The values come back up: each MIN level takes the lowest value of its children, each MAX level the highest.");
  }
  const sums = (which) => 1 + data[which].children.slice(0, last ? undefined : shown).reduce((s, c) => s + c.nodes, 0);
  const pill = (text, kind) => {
    const span = document.createElement("span");
    span.className = `pill ${kind}`;
    span.textContent = text;
    return span;
  };
  $("#counts").replaceChildren(
    pill(tn("Minimax: {nodes} nodes", sums("minimax"), { nodes: count(sums("minimax")) }), "minimax"),
    pill(tn("Alpha-beta: {nodes} nodes", sums("alphabeta"), { nodes: count(sums("alphabeta")) }), "alphabeta"),
  );

  const best = shown ? Math.max(...root.children.slice(0, shown).map((c) => c.value)) : null;
  const top = document.createElement("li");
  top.className = "node";
  top.setAttribute("role", "treeitem");
  const row = document.createElement("div");
  row.className = "node-row";
  const strong = document.createElement("strong");
  strong.textContent = t("Root: {mark} to move (MAX), best V(s) so far = {value}", {
    mark: data.ai, value: best === null ? "?" : number(best),
  });
  row.append(strong);
  top.append(row);
  const group = document.createElement("ul");
  group.setAttribute("role", "group");
  root.children.slice(0, last ? undefined : shown).forEach((child, index) => {
    const isNewest = !last && index === shown - 1;
    const item = nodeItem(child, isNewest ? 2 : 0, isNewest);
    if (last && child.move === data.move) item.classList.add("newest");
    group.append(item);
  });
  top.append(group);
  $("#learn-tree").replaceChildren(top);
}

function hasCut(node) {
  return Boolean(node.cutoff) || node.children.some(hasCut);
}

async function loadTrace() {
  learn.trace = await getJson(`/api/learn/trace?example=${encodeURIComponent(learn.example)}`);
  learn.step = 0;
  render();
}


// -- the chart --------------------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

function drawChart(data) {
  const width = 720;
  const height = 380;
  const left = 64;
  const right = 16;
  const top = 16;
  const bottom = 48;
  const depths = [...new Set(data.counts.map((c) => c.depth))].sort((a, b) => a - b);
  const maxDepth = Math.max(...depths);
  const b = data.b;
  const references = depths.map((d) => [d, b ** d, b ** (d / 2)]);
  const values = [...data.counts.map((c) => c.nodes), ...references.flatMap((r) => [r[1], r[2]])];
  const high = Math.ceil(Math.log10(Math.max(...values)));
  const low = Math.min(0, Math.floor(Math.log10(Math.min(...values))));
  const x = (d) => left + ((d - 1) / Math.max(1, maxDepth - 1)) * (width - left - right);
  const y = (n) => top + (1 - (Math.log10(n) - low) / Math.max(1, high - low)) * (height - top - bottom);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("Nodes against depth") });
  for (let power = low; power <= high; power++) {
    chart.append(svg("line", { class: "grid", x1: left, x2: width - right, y1: y(10 ** power), y2: y(10 ** power) }));
    chart.append(svg("text", { x: left - 8, y: y(10 ** power) + 4, "text-anchor": "end" }, `10^${power}`));
  }
  for (const d of depths) {
    chart.append(svg("text", { x: x(d), y: height - bottom + 18, "text-anchor": "middle" }, String(d)));
  }
  chart.append(svg("line", { class: "axis", x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }));
  chart.append(svg("line", { class: "axis", x1: left, x2: left, y1: top, y2: height - bottom }));
  chart.append(svg("text", { x: (left + width) / 2, y: height - 8, "text-anchor": "middle" }, t("depth d (plies)")));
  chart.append(svg("text", { x: 14, y: (top + height - bottom) / 2, "text-anchor": "middle", transform: `rotate(-90 14 ${(top + height - bottom) / 2})` }, t("nodes visited")));
  const line = (points, colour, dash, name) => {
    const path = points.map(([d, n], i) => `${i ? "L" : "M"}${x(d).toFixed(1)},${y(n).toFixed(1)}`).join(" ");
    chart.append(svg("path", { d: path, fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": dash, "data-series": name }));
  };
  line(references.map((r) => [r[0], r[1]]), "currentColor", "6 4", "b^d");
  line(references.map((r) => [r[0], r[2]]), "currentColor", "2 4", "b^(d/2)");
  for (const variant of data.variants) {
    const points = data.counts.filter((c) => c.variant === variant).map((c) => [c.depth, c.nodes]);
    if (!points.length) continue;
    line(points, COLOURS[variant], "", variant);
    for (const [d, n] of points) {
      const dot = svg("circle", { cx: x(d), cy: y(n), r: 3.5, fill: COLOURS[variant] });
      dot.append(svg("title", {}, `${t(LABELS[variant])}, d = ${d}: ${count(n)}`));
      chart.append(dot);
    }
  }
  $("#chart").replaceChildren(chart);
  const legend = [
    ...data.variants.map((v) => [t(LABELS[v]), COLOURS[v], ""]),
    ["b^d", "currentColor", "6 4"],
    ["b^(d/2)", "currentColor", "2 4"],
  ];
  $("#legend").replaceChildren(...legend.map(([label, colour, dash]) => {
    const item = document.createElement("li");
    const swatch = svg("svg", { width: 24, height: 8, "aria-hidden": "true" });
    swatch.append(svg("line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: colour, "stroke-width": 3, "stroke-dasharray": dash }));
    item.append(swatch, label);
    return item;
  }));
  $("#chart-hint").textContent = t(
    "b^d and b^(d/2) are the reference lines: O(b^m) for minimax and alpha-beta's best case O(b^(m/2)), with b = {b}. Every count was measured live on the server, at most {limit} nodes a search.",
    { b, limit: count(data.node_limit) },
  );
  $("#chart").dataset.ready = "true";
}

async function loadChart() {
  const game = learn.game;
  $("#chart").dataset.ready = "false";
  const title = $("#chart-game").selectedOptions[0].textContent;
  $("#chart-status").textContent = t("Counting the nodes of {game}...", { game: title });
  try {
    const data = learn.counts[game] || (await getJson(`/api/learn/nodes?game=${encodeURIComponent(game)}`));
    learn.counts[game] = data;
    if (game !== learn.game) return;
    $("#chart-status").textContent = "";
    drawChart(data);
  } catch (error) {
    $("#chart-status").textContent = error.message;
  }
}


// -- start ------------------------------------------------------------------------------------------

function retitle() {
  document.title = `${t("zermelo")} · ${t("Learn minimax")}`;
}

async function start() {
  const params = new URLSearchParams(location.search);
  await loadMessages(params.get("lang"));
  retitle();
  $("#lang").addEventListener("change", async (event) => {
    await loadMessages(event.target.value);
    retitle();
    render();
    if (learn.counts[learn.game]) drawChart(learn.counts[learn.game]);
  });
  $("#example").addEventListener("change", (event) => {
    learn.example = event.target.value;
    loadTrace().catch(showError);
  });
  $("#algorithm").addEventListener("change", (event) => {
    learn.algorithm = event.target.value;
    learn.step = Math.min(learn.step, stepCount() - 1);
    render();
  });
  $("#next").addEventListener("click", () => {
    learn.step = Math.min(learn.step + 1, stepCount() - 1);
    render();
  });
  $("#previous").addEventListener("click", () => {
    learn.step = Math.max(learn.step - 1, 0);
    render();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("select")) return;
    if (event.key === "ArrowRight") $("#next").click();
    if (event.key === "ArrowLeft") $("#previous").click();
  });
  $("#chart-game").addEventListener("change", (event) => {
    learn.game = event.target.value;
    loadChart();
  });
  await loadTrace();
  document.body.dataset.ready = "true";
  loadChart();
}

function showError(error) {
  $("#step-text").textContent = error.message;
}

start().catch(showError);
