"""A transposition table: the tutorial's "memory bank" of positions already seen.

Entries are keyed by ``state.key()`` and hold a bound on the node's value, the depth it was searched
to, and the best move found. Scores are stored relative to the node (a win in 3 plies from the node
stays a win in 3 plies wherever the node is met again); :func:`zermelo.search.alphabeta` converts to
and from root-relative scores.

Entries from subtrees that were searched to the end, with no heuristic leaf, are stored with
``EXACT_DEPTH`` and serve a search of any depth.

The table is a Python ``dict`` bounded by ``capacity``. When it is full, the entries of older
generations are dropped first (``new_search`` starts a generation), then everything; so one table can
serve many searches in a row without being cleared by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

__all__ = ["EXACT_DEPTH", "LOWER", "UPPER", "VALUE", "Entry", "TranspositionTable"]

VALUE = 0
"""The stored score is the node's value."""
LOWER = 1
"""The node's value is at least the stored score (the search failed high)."""
UPPER = 2
"""The node's value is at most the stored score (the search failed low)."""

EXACT_DEPTH = 1 << 30
"""Depth recorded for subtrees read to the end: good for any requested depth."""


class Entry(NamedTuple):
    depth: int
    bound: int
    score: float
    move: Hashable
    generation: int


class TranspositionTable:
    """Bounded map from state keys to :class:`Entry`."""

    __slots__ = ("_entries", "capacity", "generation")

    def __init__(self, capacity: int = 2_000_000) -> None:
        if capacity < 1:
            raise ValueError(f"table capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self.generation = 0
        self._entries: dict[Hashable, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def new_search(self) -> None:
        """Start a new generation: older entries stay usable but are dropped first when full."""
        self.generation += 1

    def clear(self) -> None:
        self._entries.clear()

    def get(self, key: Hashable) -> Entry | None:
        return self._entries.get(key)

    def fast_get(self) -> Callable[[Hashable], Entry | None]:
        """The dict's own ``get``, valid for the table's lifetime: the search probes the table at
        every node, and this saves a Python call each time."""
        return self._entries.get

    def store(self, key: Hashable, depth: int, bound: int, score: float, move: Hashable) -> None:
        entries = self._entries
        if len(entries) >= self.capacity and key not in entries:
            self._make_room()
        entries[key] = Entry(depth, bound, score, move, self.generation)

    def _make_room(self) -> None:
        # In place, so that the bound ``get`` stays the dict's own method.
        current = self.generation
        kept = {k: e for k, e in self._entries.items() if e.generation == current}
        self._entries.clear()
        if len(kept) <= self.capacity // 2:
            self._entries.update(kept)
