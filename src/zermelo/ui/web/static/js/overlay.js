// The thinking overlay: every move's value on the board and in the side panel.

import { t, tn } from "./i18n.js";
import { rendererFor } from "./registry.js";
import { $, ui } from "./state.js";


export function valueClass(value) {
  if (value.kind === "estimate") return value.estimate >= 0 ? "estimate-up" : "estimate-down";
  return value.kind;
}

export function valueStrength(value, largest) {
  // Faster wins and faster losses are drawn stronger; estimates by their size among this
  // position's estimates (each game's evaluation has its own scale).
  if (value.kind === "win" || value.kind === "loss") return Math.max(0.45, 1 - (value.moves - 1) * 0.12);
  if (value.kind === "estimate") return largest > 0 ? 0.2 + 0.6 * (Math.abs(value.estimate) / largest) : 0.2;
  return 0.6;
}

export function estimateText(estimate) {
  const size = Math.abs(estimate);
  const digits = size >= 10 ? 0 : size >= 1 ? 1 : 2;
  const text = estimate.toFixed(digits);
  return estimate > 0 && Number(text) !== 0 ? `+${text}` : text.replace(/^-(0(\.0+)?)$/, "$1");
}

// The words of a value: the API sends them as a message id and its fields (the one rule of
// zermelo.core.scores.value_text, which the terminal uses too); an older answer without them is
// read by the same rule here.
export function valueWords(value) {
  if (value.text) return t(value.text.id, value.text.fields);
  if (value.kind === "win") return value.moves ? t("win in {n}", { n: value.moves }) : t("won");
  if (value.kind === "loss") return value.moves ? t("loss in {n}", { n: value.moves }) : t("lost");
  if (value.kind === "draw") return t("draw");
  return t("estimate {value}", { value: estimateText(value.estimate) });
}

// A move's value in a game of chance: the chance to win it gives (Pig), or the points it is
// expected to win (backgammon, scored in points); else the value's words.
export function entryWords(entry) {
  if (typeof entry.p_win === "number") {
    const p = `${(100 * entry.p_win).toLocaleString(ui.lang, { maximumFractionDigits: 1 })}%`;
    return t("P(win) {p}", { p });
  }
  if (typeof entry.expected === "number") return t("{value} points expected", { value: estimateText(entry.expected) });
  return valueWords(entry.value);
}

export function entryShort(entry) {
  if (typeof entry.p_win === "number") return `${Math.round(100 * entry.p_win)}%`;
  return valueShort(entry.value);
}

export function valueShort(value) {
  if (value.kind === "win") return `+${value.moves}`;
  if (value.kind === "loss") return `−${value.moves}`;
  if (value.kind === "draw") return "=";
  return estimateText(value.estimate);
}

export function renderOverlay() {
  const board = $("#board");
  // Values belong to the game's last position: none while an earlier one is viewed.
  const on = $("#thinking").checked && ui.analysis && !ui.view.terminal && ui.cursor === null;
  board.classList.toggle("thinking-on", Boolean(on));
  for (const element of board.querySelectorAll("[data-move]")) {
    element.classList.remove("win", "loss", "draw", "estimate-up", "estimate-down", "best");
    delete element.dataset.value;
    element.style.removeProperty("--strength");
    element.removeAttribute("title");
    const badge = element.querySelector(".value");
    if (badge) badge.textContent = "";
  }
  renderMoveList(on);
  // The board's own drawings over its squares (chess: the best move's arrow), and its tools.
  const renderer = rendererFor(ui.view.board.kind);
  const tools = $("#board-tools");
  if (tools) tools.hidden = !renderer.tools;
  if (renderer.overlay) renderer.overlay(board, ui.analysis, Boolean(on));
  if (!on) return;
  const estimates = ui.analysis.moves.filter((entry) => entry.value.kind === "estimate");
  const largest = Math.max(0, ...estimates.map((entry) => Math.abs(entry.value.estimate)));
  for (const entry of ui.analysis.moves) {
    const element = board.querySelector(`[data-move="${CSS.escape(entry.move)}"]`);
    if (!element) continue;
    const words = entryWords(entry);
    element.classList.add(valueClass(entry.value));
    element.style.setProperty("--strength", valueStrength(entry.value, largest).toFixed(2));
    element.dataset.value = words;
    element.title = `${entry.move}: ${words}` + (entry.value.exact ? "" : ` (${t("heuristic")})`);
    if (entry.move === ui.analysis.best) element.classList.add("best");
    const badge = element.querySelector(".value");
    if (badge) badge.textContent = entryShort(entry);
  }
}

// On boards whose moves are not one square each (draughts, chess), the values are listed beside
// the board, best first.
export function renderMoveList(on) {
  const list = $("#move-values");
  const show = Boolean(on) && Boolean(rendererFor(ui.game.kind).listsValues);
  list.hidden = !show;
  list.replaceChildren();
  if (!show) return;
  const estimates = ui.analysis.moves.filter((entry) => entry.value.kind === "estimate");
  const largest = Math.max(0, ...estimates.map((entry) => Math.abs(entry.value.estimate)));
  for (const entry of ui.analysis.moves) {
    const item = document.createElement("li");
    item.className = `move-value ${valueClass(entry.value)}`;
    if (entry.move === ui.analysis.best) item.classList.add("best");
    item.dataset.moveValue = entry.move;
    item.style.setProperty("--strength", valueStrength(entry.value, largest).toFixed(2));
    const name = document.createElement("strong");
    name.textContent = entry.move;
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = entryWords(entry) + (entry.value.exact ? "" : ` (${t("heuristic")})`);
    item.title = entry.pv.join(" ");
    item.append(name, words);
    list.append(item);
  }
}

// The search's nodes and time; nothing for a value from an opening book or a solver that counts
// no nodes (it was not "0 nodes in 0 ms").
export function searchText(search) {
  if (search.simulations) {
    return t("{sims} simulations in {ms} ms", {
      sims: search.simulations.toLocaleString(ui.lang),
      ms: search.time_ms.toLocaleString(ui.lang, { maximumFractionDigits: 1 }),
    });
  }
  if (!search.nodes) return "–";
  return tn("{nodes} nodes in {ms} ms", search.nodes, {
    nodes: search.nodes.toLocaleString(ui.lang),
    ms: search.time_ms.toLocaleString(ui.lang, { maximumFractionDigits: 1 }),
  });
}

export function renderThinking() {
  const panel = $("#thinking-panel");
  panel.hidden = !$("#thinking").checked;
  $("#best-label").textContent = t("Best move");
  $("#pv-label").textContent = t("Principal variation");
  $("#stats-label").textContent = t("Search");
  const analysis = ui.analysis;
  if (ui.view && ui.view.terminal) {
    $("#best").textContent = t("Nothing to think about: the game is over.");
    $("#pv").textContent = "–";
    $("#stats").textContent = "–";
  } else if (analysis) {
    const best = analysis.moves.find((entry) => entry.move === analysis.best);
    $("#best").textContent = `${analysis.best} · ${best ? entryWords(best) : valueWords(analysis.value)}`;
    $("#pv").textContent = analysis.pv.join(" ");
    $("#stats").textContent = searchText(analysis);
  } else {
    $("#best").textContent = "…";
    $("#pv").textContent = "…";
    $("#stats").textContent = "…";
  }
  const last = ui.thinking;
  if (last) {
    $("#ai-last").textContent =
      `${t("The AI's last move: {move}", { move: last.move })} · ${valueWords(last.value)} · ` +
      `${t("Principal variation: {line}", { line: last.pv.join(" ") })}` +
      (last.nodes ? ` · ${searchText(last)}` : "");
  } else {
    $("#ai-last").textContent = "";
  }
}
