"""Start positions for draughts matches (the records' ``Openings`` capability).

The FMJD draws its match openings by ballot from lists kept by its committees; no such list is
published in a form that can be shipped here, so the built-in set is every opening of one move by
each side from the usual start, in the kernel's move order: 81 positions of international
draughts (9 first moves, each answered by 9) and 64 of dama (8 by 8). None of them gives either
side an advantage a match would notice, and an arena that alternates colours plays each twice.

A file of openings is read either as PDN (the position at the end of each game) or as one FEN a
line (``#`` starts a comment line).
"""

from __future__ import annotations

import re
from typing import Final

from zermelo.core.errors import N_, ParseError, ZermeloError
from zermelo.core.record import GameSpec, Ref
from zermelo.core.state import AnyState
from zermelo.games.draughts.pdn import DAMA_PDN, INTERNATIONAL_PDN, PdnFile

__all__ = ["DAMA_OPENINGS", "INTERNATIONAL_OPENINGS", "DraughtsOpenings", "two_ply"]


_FEN_START: Final = re.compile(r"[WBwb]\s*:")


def two_ply(start: AnyState) -> list[str]:
    """The position after every first move and every answer to it from ``start``, in notation
    (the game's move order, so the list is the same on every run)."""
    positions: list[str] = []
    for first in start.legal_moves():
        after = start.play(first)
        for answer in after.legal_moves():
            positions.append(after.play(answer).notation())
    return positions


class DraughtsOpenings:
    """A draughts game's openings: :func:`two_ply` of its start, or those of a file."""

    def __init__(self, spec: str, pdn: PdnFile) -> None:
        self._spec = Ref[GameSpec](spec)
        self._pdn = pdn

    def openings(self, text: str | None) -> list[str]:
        spec = self._spec.resolve()
        if text is None:
            return two_ply(spec.new())
        lines = [line.strip() for line in text.splitlines()]
        listed = [line for line in lines if line and not line.startswith("#")]
        if not all(_FEN_START.match(line) for line in listed):
            positions = []
            for game in self._pdn.read_all(text):
                state = spec.parse(game.start) if game.start else spec.new()
                for move in game.moves:
                    state = state.play(state.parse_move(move))
                positions.append(state.notation())
            return positions
        positions = []
        for number, stripped in enumerate(lines, 1):
            if not stripped or stripped.startswith("#"):
                continue
            try:
                positions.append(spec.parse(stripped).notation())
            except ZermeloError as error:
                raise ParseError(N_("line {number}: {error}"), number=number, error=error) from None
        return positions


INTERNATIONAL_OPENINGS: Final = DraughtsOpenings(
    "zermelo.games.draughts.international:SPEC", INTERNATIONAL_PDN
)
"""International draughts: the 81 openings of one move each."""

DAMA_OPENINGS: Final = DraughtsOpenings("zermelo.games.draughts.dama:SPEC", DAMA_PDN)
"""Dama: the 64 openings of one move each."""
