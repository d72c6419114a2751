// The minimax tree explainer, expanded node by node from /api/tree.

import { postJson, gameRequest } from "./api.js";
import { t, tn } from "./i18n.js";
import { page } from "./registry.js";
import { $, other, ui } from "./state.js";


// -- the minimax tree ----------------------------------------------------------------------------

export function treeValueWords(value) {
  if (value.kind === "draw") return t("draw");
  if (value.moves === 0) return t("{mark} has won", { mark: value.winner });
  return t("{mark} wins in {n}", { mark: value.winner, n: value.moves });
}

export function treeValueClass(value, mover) {
  if (value.kind === "draw") return "draw";
  return value.winner === mover ? "win" : "loss";
}

// -- a game of chance's tree: decisions take the best child, chance nodes the mean of their
// outcomes by probability (expectiminimax); each outcome is shown with its probability ---------

export function percent(value) {
  return `${(100 * value).toLocaleString(ui.lang, { maximumFractionDigits: 1 })}%`;
}

export function chanceItem(node, open) {
  const { item, row, toggle, expandable } = nodeShell(node, node.chance ? "node chance-node" : "node");
  const text = document.createElement("span");
  text.className = "node-text";
  const title = document.createElement("strong");
  if (node.move === null) title.textContent = `${t("current position")} · ${t("{mark} to move", { mark: node.to_move })}`;
  else if (node.probability !== null) title.textContent = t("rolled {outcome}", { outcome: node.move });
  else title.textContent = node.move;
  text.append(title);
  if (node.probability !== null) {
    const chance = document.createElement("span");
    chance.className = "tag probability";
    chance.dataset.probability = String(node.probability);
    chance.textContent = t("probability {p}", { p: percent(node.probability) });
    text.append(chance);
  }
  const value = document.createElement("span");
  value.className = `tag ${node.value.first >= 0 ? "win" : "loss"}`;
  const first = ui.game.sides[0];
  value.textContent = ui.game.scored
    ? t("expected {value} points for {mark}", { value: node.value.first.toFixed(2), mark: first })
    : t("{mark} wins with probability {p}", { mark: first, p: percent(node.value.p_first) });
  text.append(value);
  const facts = document.createElement("span");
  facts.className = "node-facts";
  facts.textContent = node.chance ? t("chance node: the mean of its outcomes") : t("{mark} to move", { mark: node.to_move });
  text.append(facts);
  row.append(text);
  item.append(row);
  return openable(item, toggle, expandable, node, open, chanceItem);
}

export async function loadTree() {
  const list = $("#tree");
  const view = ui.view;
  try {
    const root = await postJson("/api/tree", gameRequest({ path: [] }));
    if (view !== ui.view) return;
    const hint = $("#explain-panel .hint");
    if (hint && hint.dataset.i18n) {
      hint.textContent = ui.game.chance
        ? t("Expectiminimax: at your decisions the best child, at the dice the mean of the outcomes weighted by their probabilities. Open a node to see its children.")
        : t(hint.dataset.i18n);
    }
    if (ui.game.chance) {
      $("#tree-totals").replaceChildren(
        pill(t("Expectiminimax {depth} plies ahead: {nodes} nodes", { depth: root.totals.depth, nodes: root.totals.expectimax.toLocaleString(ui.lang) }), "minimax"),
      );
      list.replaceChildren(chanceItem(root, true));
      return;
    }
    const percent = Math.round(100 * (1 - root.totals.alphabeta / root.totals.minimax));
    $("#tree-totals").replaceChildren(
      pill(tn("Minimax: {nodes} nodes", root.totals.minimax, { nodes: root.totals.minimax.toLocaleString(ui.lang) }), "minimax"),
      pill(tn("Alpha-beta: {nodes} nodes", root.totals.alphabeta, { nodes: root.totals.alphabeta.toLocaleString(ui.lang) }), "alphabeta"),
      pill(t("Alpha-beta skipped {percent}% of the tree.", { percent }), "skipped"),
    );
    list.replaceChildren(treeItem(root, true));
  } catch (error) {
    page.showError(error);
  }
}

export function pill(text, kind) {
  const span = document.createElement("span");
  span.className = `pill ${kind}`;
  span.textContent = text;
  return span;
}

export function treeItem(node, open) {
  const { item, row, toggle, expandable } = nodeShell(node, "node");
  if (node.pruned) item.classList.add("pruned");

  const mini = document.createElement("span");
  mini.className = "mini-board";
  mini.setAttribute("aria-hidden", "true");
  const cells = node.position.split(" ")[0];
  for (let i = 0; i < 9; i++) {
    const cell = document.createElement("span");
    cell.textContent = cells[i] === "." ? "" : cells[i];
    if (node.move !== null && String(i) === node.move) cell.className = "just";
    mini.append(cell);
  }
  row.append(mini);

  const text = document.createElement("span");
  text.className = "node-text";
  const label = node.move === null
    ? `${t("current position")} · ${t("{mark} to move", { mark: node.to_move })}`
    : `${other(node.to_move)} → ${node.move}`;
  const title = document.createElement("strong");
  title.textContent = label;
  const value = document.createElement("span");
  // Coloured for the player who chooses: the one who made this move (at the root, the one to move).
  const chooser = node.move === null ? node.to_move : other(node.to_move);
  value.className = `tag ${treeValueClass(node.value, chooser)}`;
  value.textContent = treeValueWords(node.value);
  text.append(title, value);
  if (node.pruned) {
    const cut = document.createElement("span");
    cut.className = "tag cut";
    cut.textContent = t("pruned");
    cut.title = t("cut off by alpha-beta: it cannot change the value");
    text.append(cut);
  }
  const facts = document.createElement("span");
  facts.className = "node-facts";
  const parts = [tn("Minimax: {nodes} nodes", node.minimax_nodes, { nodes: node.minimax_nodes.toLocaleString(ui.lang) })];
  if (node.alphabeta) {
    parts.push(tn("Alpha-beta: {nodes} nodes", node.alphabeta.nodes, { nodes: node.alphabeta.nodes.toLocaleString(ui.lang) }));
    if (node.alphabeta.bound === "lower") {
      // The side to move found a reply good enough to refute the move that led here.
      parts.push(t("cut short after {n} of {total} replies: no better than an earlier move", {
        n: node.alphabeta.visited.length,
        total: node.children_count,
      }));
    } else if (node.alphabeta.bound === "upper") {
      parts.push(t("only a bound: every reply here was cut short"));
    }
  }
  facts.textContent = parts.join(" · ");
  text.append(facts);
  row.append(text);
  item.append(row);
  return openable(item, toggle, expandable, node, open, treeItem);
}

// A tree node's list item: its row, and the toggle that opens it (a dot for a leaf).
function nodeShell(node, className) {
  const item = document.createElement("li");
  item.setAttribute("role", "treeitem");
  item.className = className;
  item.dataset.path = node.path.join(",");
  const row = document.createElement("div");
  row.className = "node-row";
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "toggle";
  const expandable = !node.terminal && node.children_count > 0;
  toggle.disabled = !expandable;
  toggle.setAttribute("aria-label", t("Expand"));
  toggle.textContent = expandable ? "▸" : "•";
  row.append(toggle);
  return { item, row, toggle, expandable };
}

// The node's children under it, drawn by makeChild, asked of the server the first time the
// toggle opens it (or at once when open); the toggle closes them again.
function openable(item, toggle, expandable, node, open, makeChild) {
  const group = document.createElement("ul");
  group.setAttribute("role", "group");
  group.hidden = true;
  item.append(group);
  if (expandable) item.setAttribute("aria-expanded", "false");
  const expand = async () => {
    if (!group.hidden) {
      group.hidden = true;
      item.setAttribute("aria-expanded", "false");
      toggle.textContent = "▸";
      toggle.setAttribute("aria-label", t("Expand"));
      return;
    }
    if (!group.childElementCount) {
      const children = node.children || (await postJson("/api/tree", gameRequest({ path: node.path }))).children;
      group.replaceChildren(...children.map((child) => makeChild(child, false)));
    }
    group.hidden = false;
    item.setAttribute("aria-expanded", "true");
    toggle.textContent = "▾";
    toggle.setAttribute("aria-label", t("Collapse"));
  };
  toggle.addEventListener("click", () => expand().catch((error) => page.showError(error)));
  if (open && expandable) expand().catch((error) => page.showError(error));
  return item;
}
