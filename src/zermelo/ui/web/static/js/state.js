// The page's shared state: the DOM helper and what the page knows of the game in play.

export const $ = (selector) => document.querySelector(selector);

// The other side's mark.
export function other(mark) {
  return mark === "X" ? "O" : "X";
}

export const ui = {
  lang: "en",
  messages: {},
  options: {},
  plurals: {},
  games: [],
  game: null, // the entry of /api/games for the current game
  view: null, // the last answer of /api/state or /api/play
  moves: [],
  human: "X",
  seed: 1,
  busy: false,
  thinking: null, // the AI's last search, from /api/play
  analysis: null,
  requestId: 0,
  selection: [], // draughts and chess: the squares clicked so far for the move being made
};
