// The page's shared state: the DOM helper and what the page knows of the game in play.

export const $ = (selector) => document.querySelector(selector);

// The other side's mark.
export function other(mark) {
  return mark === "X" ? "O" : "X";
}

// The mark ("X" for the first player, "O" for the second) of a side the API names by the game's
// own names ("White", "Black"); the boards and the page's turn logic work with marks.
export function markOf(side) {
  if (side === null || side === undefined) return null;
  const sides = (ui.game && ui.game.sides) || ["X", "O"];
  return sides.indexOf(side) === 1 ? "O" : "X";
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
  position: null, // the start position's notation when the game was imported, else null
  first: null, // the side that starts, by name, in a game whose rules let either side start
  cursor: null, // the number of moves of the position viewed in the move list; null: the last
  past: null, // the answer of /api/state for the position viewed, while cursor is not null
  gameId: null, // a game of chance: the id the server issued for it (its dice and deals), else null
};
