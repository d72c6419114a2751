"""The public API is curated: ``zermelo.__all__`` lists exactly what is meant to be used."""

from __future__ import annotations

import zermelo

EXPECTED = {
    "BudgetError",
    "BusyError",
    "CapabilityError",
    "GameSpec",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Limits",
    "MoveValue",
    "ParseError",
    "Player",
    "SearchResult",
    "SearchStats",
    "State",
    "TranspositionTable",
    "UnknownGameError",
    "WorkerFailed",
    "ZermeloError",
    "__version__",
    "alphabeta",
    "analyze",
    "describe",
    "game_names",
    "get_game",
    "minimax",
}


def test_public_api_is_exactly_the_curated_names() -> None:
    assert set(zermelo.__all__) == EXPECTED
    for name in zermelo.__all__:
        assert hasattr(zermelo, name), name


def test_error_tree() -> None:
    for name in (
        "ParseError",
        "IllegalMoveError",
        "InvalidPositionError",
        "InvalidOptionError",
        "BudgetError",
        "UnknownGameError",
    ):
        error = getattr(zermelo, name)
        # Errors about a value given are ValueErrors too, as python-chess's are.
        assert issubclass(error, zermelo.ZermeloError) and issubclass(error, ValueError)
    for name in ("CapabilityError", "BusyError", "WorkerFailed"):
        error = getattr(zermelo, name)
        # Nothing was wrong with the value asked for: not a ValueError.
        assert issubclass(error, zermelo.ZermeloError) and not issubclass(error, ValueError)
    assert not issubclass(zermelo.ZermeloError, ValueError)
