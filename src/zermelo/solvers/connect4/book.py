"""Opening book (placeholder while the solver is built)."""

from __future__ import annotations


def load_book(width: int, height: int) -> dict[int, int] | None:
    return None
