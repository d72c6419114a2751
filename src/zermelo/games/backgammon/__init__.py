"""Backgammon, money play with the doubling cube: the rules (:mod:`.state`) on the move generator
of :mod:`.kernel` (numba), its board for the faces and its record.

The levels are the TD-Gammon-style net of :mod:`zermelo.solvers.backgammon` (see
:mod:`zermelo.agents.backgammon`).
"""

from __future__ import annotations

from typing import Final

from zermelo.core.record import N_, BoolOption, GameSpec, Grid, Ref
from zermelo.core.state import Player
from zermelo.games.backgammon.state import (
    CUBE_ACTIONS,
    MARKS,
    MAX_CUBE,
    BackgammonMove,
    BackgammonState,
    Phase,
    Play,
    Roll,
    perft,
)

__all__ = [
    "CUBE_ACTIONS",
    "MAX_CUBE",
    "SPEC",
    "BackgammonMove",
    "BackgammonState",
    "Phase",
    "Play",
    "Roll",
    "grid",
    "new",
    "perft",
]


def new(cube: bool = True, first: Player = Player.FIRST) -> BackgammonState:
    """The start of a game. The opening roll decides who plays first, so ``first`` (which a
    front end may pass) changes nothing."""
    return BackgammonState.initial(cube=cube)


def _cell(count: int, mark: str) -> str:
    return f"{mark}{count}" if count else ""


def grid(state: BackgammonState) -> Grid:
    """The ``backgammon`` board: two rows of 26 cells, the top row X's points 13 to 24 then X's
    bar and tray, the bottom row X's points 12 down to 1 then O's bar and tray. A point's cell
    holds ``X5`` or ``O2``; its move names the point in the side to move's numbering (``bar`` and
    ``off`` for that side's bar and tray). Facts: the dice, the cube, the pip counts."""
    values = [b - 256 if b > 127 else b for b in state.board]
    mover = state.to_move

    def point(p: int) -> tuple[str, str]:
        v = values[p]
        text = f"X{v}" if v > 0 else f"O{-v}" if v < 0 else ""
        return text, str(p if mover is Player.FIRST else 25 - p)

    top = [point(p) for p in range(13, 25)]
    bottom = [point(p) for p in range(12, 0, -1)]
    x_bar, x_off = _cell(values[25], "X"), _cell(values[0], "X")
    o_bar, o_off = _cell(values[26], "O"), _cell(values[27], "O")
    mine = mover is Player.FIRST
    cells = [
        [t for t, _ in top] + [x_bar, x_off],
        [t for t, _ in bottom] + [o_bar, o_off],
    ]
    trays: tuple[list[str | None], list[str | None]] = (["bar", "off"], [None, None])
    moves: list[list[str | None]] = [
        [*(m for _, m in top), *trays[0 if mine else 1]],
        [*(m for _, m in bottom), *trays[1 if mine else 0]],
    ]
    x_pips, o_pips = state.pips()
    facts: list[tuple[str, str]] = [(N_("to move"), MARKS[mover])]
    if state.phase is Phase.MOVE:
        facts.append((N_("dice"), f"{state.dice[0]}{state.dice[1]}"))
    if state.cubeful:
        owner = "" if state.owner is None else f" {MARKS[state.owner]}"
        facts.append((N_("cube"), f"{state.cube}{owner}"))
    facts.append((N_("pips"), f"X {x_pips}, O {o_pips}"))
    return Grid.of(
        cells,
        moves,
        facts=facts,
    )


SPEC: Final = GameSpec[BackgammonState](
    name="backgammon",
    title=N_("Backgammon"),
    new=new,
    parse=BackgammonState.parse,
    options=(BoolOption("cube", N_("money play with the doubling cube"), True),),
    aliases=("bg",),
    first_mover=None,
    sides=("X", "O"),
    default_time=1.0,
    move_time=0.5,
    # the TD net: easy untrained 1-ply, medium trained 1-ply, hard trained 2-ply
    levels={
        level: Ref(f"zermelo.agents.backgammon:{level}") for level in ("easy", "medium", "hard")
    },
    board="backgammon",
    grid=grid,
    notation=N_(
        "a play such as 24/18 13/11, bar/22, 6/off, 13/7(2) or 8/4* (your own point numbers, "
        "24 to 1), pass when the roll cannot be played; roll or double before the dice, take or "
        "drop after a double"
    ),
    intro=(
        N_(
            "Move your 15 checkers around to your home board (points 1 to 6) and bear them off; "
            "the first to bear all off wins, twice over (a gammon) if the other side bore none "
            "off. A lone checker can be hit and must then enter from the bar. Before rolling you "
            "may double the stakes: your opponent takes, and owns the cube, or drops and loses."
        ),
    ),
    analysis_depth=1,
    engine_analysis=Ref("zermelo.solvers.backgammon.analysis:ANALYSIS"),
    chance=True,
    scored=True,
)
"""Backgammon's record: chance (dice), scored in points (gammons, the cube), the backgammon
board."""
