// The coordinates drawn on a board's edge: the names the game's own notation gives its files and
// ranks, read from the moves of the board's points (the server names every point by the move a
// click there plays: "e4" in chess, "h8" in gomoku, "d3" in othello).
//
// A point named letters-then-number ("a1", "o15") gives its column's letters and its row's number.
// The names are trusted only when they are consistent: one file per column, one rank per row, and
// files a, b, c, ... in order; a board whose points say less (othello marks only its legal moves)
// fills the other columns and rows by the same steps. A board named otherwise (tic-tac-toe's 0-8,
// nim's "4-7") has no files and ranks: it gets null.

const NAMED = /^([a-z])(\d+)$/;
const remembered = new Map(); // a board's key -> its last names, for a position naming no point

export function edgeNames(points, key) {
  const height = points.length;
  const width = Math.max(0, ...points.map((row) => row.length));
  const fileOffsets = new Set();
  const ranks = new Map(); // row -> its number
  let named = 0;
  for (const [r, row] of points.entries()) {
    for (const [c, point] of row.entries()) {
      if (point === null || point === "") continue;
      const match = NAMED.exec(point);
      if (!match) return null;
      named++;
      fileOffsets.add(match[1].charCodeAt(0) - 97 - c);
      const rank = Number(match[2]);
      if (ranks.has(r) && ranks.get(r) !== rank) return null;
      ranks.set(r, rank);
    }
  }
  if (!named) return (key && remembered.get(key)) || null;
  if (fileOffsets.size !== 1) return null;
  const offset = [...fileOffsets][0];
  // The ranks run by one a row, up or down (one named row alone: 1 at the top reads downwards).
  const known = [...ranks.entries()].sort((a, b) => a[0] - b[0]);
  const [r0, rank0] = known[0];
  let step = rank0 === r0 + 1 ? 1 : -1;
  if (known.length > 1) step = Math.sign(known[1][1] - rank0);
  if (step === 0) return null;
  for (const [r, rank] of known) {
    if (rank !== rank0 + (r - r0) * step) return null;
  }
  const names = {
    files: [...Array(width).keys()].map((c) => String.fromCharCode(97 + offset + c)),
    ranks: [...Array(height).keys()].map((r) => String(rank0 + (r - r0) * step)),
  };
  if (names.ranks.some((rank) => Number(rank) < 1) || offset < 0) return null;
  if (key) remembered.set(key, names);
  return names;
}

// A coordinate label: a small text on a square's edge (class "coord" and the side it names).
export function coordLabel(text, side) {
  const label = document.createElement("span");
  label.className = `coord coord-${side}`;
  label.dataset.coord = side;
  label.setAttribute("aria-hidden", "true");
  label.textContent = text;
  return label;
}
