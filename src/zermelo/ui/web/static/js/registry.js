// The board renderers by kind, and the page's actions that boards and panels call back.
//
// app.js fills both when the page starts: it registers one renderer per board kind (the "kind" of
// the board the API sends: place, drop, draughts, chess, grid) and sets the actions. A board
// module imports this module, never app.js, so the modules' imports run one way.
//
// A renderer is { draw(board, view, playable, { onLine, last }), and optionally
// pending(move) (show the person's move at once, while the AI thinks), key(event, step) (arrow
// keys; true when handled), listsValues (its moves' values are listed beside the board, as a move
// is not one cell) }.

const renderers = new Map();

export function registerBoard(kind, renderer) {
  renderers.set(kind, renderer);
}

// The renderer of a board kind; a kind the page does not know is drawn as a grid.
export function rendererFor(kind) {
  return renderers.get(kind) || renderers.get("grid");
}

// What the page does, set by app.js: play(move), clickMove(move), render(), setMessage(text),
// humansTurn(), newGame(), showError(error).
export const page = {};
