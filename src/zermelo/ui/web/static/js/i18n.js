// Translation: the messages of /api/messages in the chosen language, English msgids as keys.

import { getJson } from "./api.js";
import { $, ui } from "./state.js";


// -- translation -------------------------------------------------------------------------------

export function t(msgid, params = {}) {
  const text = ui.messages[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A counted message: its plural msgid picks the pair; exactly one takes the singular.
export function tn(plural, count, params = {}) {
  const forms = ui.plurals[plural];
  const text = forms ? forms[count === 1 ? 0 : 1] : plural;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function translateStatic() {
  document.documentElement.lang = ui.lang;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
    element.title = t(element.dataset.i18nLabel);
  }
  document.title = `${t("zermelo")} · ${t("Play against the AI and watch it think")}`;
}

export async function loadMessages(lang) {
  const query = lang ? `?lang=${encodeURIComponent(lang)}` : "";
  const answer = await getJson(`/api/messages${query}`);
  ui.lang = answer.lang;
  ui.messages = answer.messages;
  ui.plurals = answer.plurals;
  const select = $("#lang");
  if (!select.options.length) {
    for (const [code, name] of Object.entries(answer.languages)) {
      select.append(new Option(name, code));
    }
  }
  select.value = ui.lang;
  translateStatic();
}
