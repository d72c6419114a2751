"""Finding the winning line on a board drawn as text rows, for every face that highlights it."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["winning_line"]

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def winning_line(rows: Sequence[str], mark: str, k: int) -> list[tuple[int, int]]:
    """Every ``(row, col)`` of ``rows`` (text rows from the top) on a run of ``k`` or more ``mark``.

    Sorted; empty when there is no such run.
    """
    height = len(rows)
    width = len(rows[0]) if rows else 0

    def owned(row: int, col: int) -> bool:
        return 0 <= row < height and 0 <= col < width and rows[row][col] == mark

    found: set[tuple[int, int]] = set()
    for row in range(height):
        for col in range(width):
            if rows[row][col] != mark:
                continue
            for d_row, d_col in _DIRECTIONS:
                if owned(row - d_row, col - d_col):
                    continue  # counted from the start of its run
                run = []
                r, c = row, col
                while owned(r, c):
                    run.append((r, c))
                    r, c = r + d_row, c + d_col
                if len(run) >= k:
                    found.update(run)
    return sorted(found)
