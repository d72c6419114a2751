"""Positions and published perft counts for the draughts kernel's tests, and a small FEN reader
(test-only: the games' own PDN FEN parsers belong to their modules)."""

from __future__ import annotations

from zermelo.games.draughts.rules import INTERNATIONAL, Rules

# International draughts, the start position: the table (same (from, to, captured) once).
INTERNATIONAL_START = "W:W31-50:B1-20"
INTERNATIONAL_COUNTS = (9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423)

# Turkish dama, the start position: the table (each capture path counted); depth 8 from
# the kish crate's perft tests (github.com, "kish", Turkish draughts), which count the same way.
DAMA_START = "W:Wa2-h3:Ba6-h7"
DAMA_COUNTS = (8, 64, 708, 7538, 85090, 931312, 10782382, 123290300)

# The FMJD forum's perft thread (damforum.nl / laatste.info, viewtopic t=2308), as collected in
# Rein Halbersma's dctl tests (test/src/ai/traversal/international/fmjd.cpp): flying kings,
# maximum captures, kings on both sides, men next to their crowning rows.
PUBLISHED = {
    "random178": (
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
        (14, 55, 1168, 5432, 87195, 629010, 9041010, 86724219, 1216917193),
    ),
    "woldouby": (
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        (6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989, 9872645),
    ),
    "all-kings": (
        "W:WK31-50:BK1-20",
        (17, 79, 352, 1399, 7062, 37589, 217575, 1333217, 8558321, 58381162),
    ),
    "almost-promotion": (
        "W:W6,7,8,9,10:B41,42,43,44,45",
        (9, 81, 795, 7578, 86351, 936311, 11448262, 138362698),
    ),
}


def _square(rules: Rules, name: str) -> int:
    sq = rules.square_of(name)
    assert sq is not None, name
    return sq


def _names(rules: Rules, first: str, last: str) -> list[int]:
    """The squares from ``first`` to ``last``: numbers for international, a rectangle of
    squares for dama ("a2-h3" is ranks 2 and 3)."""
    a, b = _square(rules, first), _square(rules, last)
    if rules is INTERNATIONAL:
        return list(range(a, b + 1))
    files = range(min(a % 8, b % 8), max(a % 8, b % 8) + 1)
    ranks = range(min(a // 8, b // 8), max(a // 8, b // 8) + 1)
    return [rank * 8 + file for rank in ranks for file in files]


def fen(rules: Rules, text: str) -> tuple[int, int, int, int]:
    """(white, black, kings, side) of a PDN FEN ``W:W31-50:B1-20`` (dama: square names)."""
    side, *parts = text.strip().rstrip(".").split(":")
    masks = {"W": 0, "B": 0}
    kings = 0
    for part in parts:
        colour, body = part[0], part[1:]
        for token in filter(None, body.split(",")):
            king = token.startswith("K")
            first, _, last = token.lstrip("K").partition("-")
            for sq in _names(rules, first, last or first):
                masks[colour] |= 1 << sq
                if king:
                    kings |= 1 << sq
    return masks["W"], masks["B"], kings, 0 if side == "W" else 1


def squares(rules: Rules, *names: str) -> int:
    """The mask of the named squares."""
    mask = 0
    for name in names:
        mask |= 1 << _square(rules, name)
    return mask
