"""The public API is curated: ``zermelo.__all__`` lists exactly what is meant to be used."""

from __future__ import annotations

import zermelo

EXPECTED = {
    "BudgetError",
    "GameSpec",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "MoveValue",
    "ParseError",
    "Player",
    "SearchResult",
    "SearchStats",
    "State",
    "TranspositionTable",
    "UnknownGameError",
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
        assert issubclass(error, zermelo.ZermeloError)
    assert issubclass(zermelo.ZermeloError, ValueError)
