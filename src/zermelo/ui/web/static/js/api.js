// The JSON API's client: requests, and its errors as ApiError with the server's message.

import { ui } from "./state.js";


// -- talking to the API --------------------------------------------------------------------------

export class ApiError extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

export async function answerOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = (body && body.error) || {};
    throw new ApiError(response.status, error.type || "HTTPError", error.message || response.statusText);
  }
  return body;
}

export async function getJson(url) {
  return answerOf(await fetch(url, { headers: { Accept: "application/json" } }));
}

export async function postJson(url, data) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(data),
  });
  return answerOf(response);
}

export function gameRequest(extra = {}) {
  const request = { game: ui.game.name, options: ui.options, moves: ui.moves };
  if (ui.position !== null) request.position = ui.position;
  else if (ui.first !== null) request.first = ui.first;
  // A game of chance: the id the server issued, which draws its dice and deals (the page sends
  // only the decisions).
  if (ui.gameId !== null) request.game_id = ui.gameId;
  return { ...request, ...extra };
}
