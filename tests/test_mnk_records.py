"""The m,n,k record and the gomoku record made from it say exactly what they said when each was
written out in full: the same fields, field by field."""

from __future__ import annotations

import dataclasses
from typing import Any

from zermelo.core.record import BoolOption, GameSpec, IntOption, Ref
from zermelo.core.state import Player
from zermelo.games.mnk import _CODEC, GOMOKU_SPEC, SPEC

EXACT = BoolOption("exact", "only exactly k in a row wins (no overlines)")
SHARED: dict[str, Any] = {
    "parse": "zermelo.games.mnk.parse",
    "first_mover": Player.FIRST,
    "sides": ("X", "O"),
    "default_time": 1.0,
    "move_time": 1.5,
    "levels": {
        level: Ref(f"zermelo.agents.gomoku:{level}") for level in ("easy", "medium", "hard")
    },
    "mcts": {"cutoff": 0, "scale": 100.0, "c": 0.1},
    "board": "place",
    "grid": "zermelo.games.mnk._grid",
    "intro": ("Line up your stones across, down or diagonally to win.",),
    "web_engine": Ref("zermelo.solvers.gomoku.web:GOMOKU"),
    "analysis_depth": 1,
    "explain_tree": False,
    "quick": False,
    "perft": None,
    "position_solver": None,
    "exact_analysis": None,
    "engine_analysis": None,
    "explainer": Ref("zermelo.solvers.gomoku.capabilities:EXPLAINER"),
    "saver": None,
    "openings": None,
    "codec": _CODEC,
    "parse_on": None,
    "hub_variant": None,
    "chance": False,
    "hidden": False,
    "scored": False,
    "view": None,
    "game_solver": None,
    "numbering": None,
    "learned": None,
}


def fields(spec: GameSpec) -> dict[str, Any]:
    """The record's fields, functions by their dotted names."""

    def name(value: Any) -> Any:
        if callable(value) and hasattr(value, "__qualname__"):
            return f"{value.__module__}.{value.__qualname__}"
        return value

    return {f.name: name(getattr(spec, f.name)) for f in dataclasses.fields(spec)}


def test_the_mnk_record() -> None:
    assert fields(SPEC) == {
        **SHARED,
        "name": "mnk",
        "title": "m,n,k game",
        "title_short": None,
        "new": "zermelo.games.mnk._new_mnk",
        "options": (
            IntOption("width", "number of columns", 1, 19, 15),
            IntOption("height", "number of rows (default: as many as columns)", 1, 19, 15),
            IntOption("k", "stones in a row that win (default 5, or the board's side if smaller)", 1, 19, 5),
            EXACT,
        ),
        "aliases": ("m,n,k",),
        "notation": "a column letter and a row number, such as c3",
        "start_solver": Ref("zermelo.solvers.gomoku.capabilities:SOLVER"),
        "tuner": None,
    }  # fmt: skip


def test_the_gomoku_record() -> None:
    assert fields(GOMOKU_SPEC) == {
        **SHARED,
        "name": "gomoku",
        "title": "Gomoku (caro)",
        "title_short": "Gomoku",
        "new": "zermelo.games.mnk._new_gomoku",
        "options": (EXACT,),
        "aliases": ("caro",),
        "notation": "a column letter and a row number, such as h8",
        "start_solver": None,
        "tuner": Ref("zermelo.solvers.gomoku.capabilities:TUNER"),
    }
