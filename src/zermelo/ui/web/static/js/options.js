// The game's rule options (board size, row length, ...): one input per option the game declares.

import { t } from "./i18n.js";
import { page } from "./registry.js";
import { $, ui } from "./state.js";


// -- game options (board size, row length, rules): one input per option the game offers --------

export function optionLabel(name) {
  if (name === "width") return t("Columns");
  if (name === "height") return t("Rows");
  if (name === "k") return t("In a row to win");
  if (name === "exact") return t("Only exactly that many in a row wins");
  // Any other game's option: the help its record gives.
  const spec = ui.game && ui.game.options[name];
  return spec && spec.help ? t(spec.help) : name;
}

export function buildOptions() {
  const box = $("#options");
  box.replaceChildren();
  for (const [name, spec] of Object.entries(ui.game.options)) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = name;
    input.dataset.option = name;
    if (spec.type === "boolean") {
      label.className = "check";
      input.type = "checkbox";
      input.checked = Boolean(spec.default);
      label.append(input, document.createElement("span"));
    } else {
      label.className = "field number";
      input.type = "number";
      input.min = spec.min;
      input.max = spec.max;
      input.step = 1;
      input.value = spec.default;
      input.inputMode = "numeric";
      label.append(document.createElement("span"), input);
    }
    input.addEventListener("change", () => page.newGame());
    box.append(label);
  }
  translateOptions();
}

// Three short labels share a row (Columns, Rows, ...); a longer one, as a plugin's help text
// ("number of heaps, of 1, 3, 5, ... stones"), takes the whole row rather than a third of it.
const SHORT_LABEL = 12;

export function translateOptions() {
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const label = input.parentElement;
    const text = optionLabel(input.dataset.option);
    label.querySelector("span").textContent = text;
    if (input.type !== "checkbox") label.classList.toggle("wide", text.length > SHORT_LABEL);
  }
}

export function writeOptions(options) {
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option;
    const value = name in options ? options[name] : ui.game.options[name].default;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = value;
  }
}

export function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const spec = ui.game.options[input.dataset.option];
    if (spec.type === "boolean") {
      if (input.checked !== Boolean(spec.default)) options[input.dataset.option] = input.checked;
    } else {
      const value = Number.parseInt(input.value, 10);
      if (Number.isInteger(value) && value !== spec.default) options[input.dataset.option] = value;
    }
  }
  return options;
}
