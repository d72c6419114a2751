"""The optional state capabilities are protocols (zermelo.core.state), asked with isinstance or
issubclass: a protocol whose method name or shape drifted from the games' would silently switch a
capability off, so each built-in game is checked against the capabilities it really offers, and
each capability against what it does for a search."""

from __future__ import annotations

import random

import pytest

from zermelo.core.state import (
    AvoidsLosses,
    Evaluates,
    ExplainsItself,
    HasQuiet,
    NarrowsMoves,
    Terminates,
    WinsAtOnce,
    supports_evaluation,
)
from zermelo.games.mnk import new_game
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import alphabeta
from zermelo.search.moves import moves_rule, non_losing_rule, search_moves, winning_move_rule
from zermelo.search.quiescence import quiescent

CAPABILITIES = {
    "evaluate": Evaluates,
    "winning_move": WinsAtOnce,
    "non_losing_moves": AvoidsLosses,
    "search_moves": NarrowsMoves,
    "is_quiet": HasQuiet,
    "termination": Terminates,
    "explain": ExplainsItself,
}

OFFERS = {
    "tictactoe": {"evaluate", "winning_move", "non_losing_moves", "termination"},
    "connect4": {"evaluate", "winning_move", "termination"},
    "gomoku": {"evaluate", "winning_move", "search_moves", "termination"},
    "mnk": {"evaluate", "winning_move", "search_moves", "termination"},
    "checkers": {"evaluate", "is_quiet", "explain", "termination"},
    "chess": {"evaluate", "termination"},
}


@pytest.mark.parametrize("game", sorted(OFFERS))
def test_each_game_has_exactly_the_capabilities_it_offers(game: str) -> None:
    state = get_game(game).new()
    kind = type(state)
    found = {name for name, protocol in CAPABILITIES.items() if issubclass(kind, protocol)}
    assert found == OFFERS[game]
    # The instance check agrees with the class check the searches use.
    assert {name for name, p in CAPABILITIES.items() if isinstance(state, p)} == found
    # And with the methods the classes define under those names.
    assert {name for name in CAPABILITIES if callable(getattr(kind, name, None))} == found
    assert supports_evaluation(state) is ("evaluate" in found)


def test_the_rules_find_the_methods_of_the_class() -> None:
    kind = TicTacToeState
    assert winning_move_rule(kind) is TicTacToeState.winning_move
    assert non_losing_rule(kind) is TicTacToeState.non_losing_moves
    assert moves_rule(kind) is TicTacToeState.legal_moves
    connect4 = type(get_game("connect4").new())
    assert non_losing_rule(connect4) is None


def test_search_moves_narrow_big_boards_only() -> None:
    small = new_game(4, 4, 3).play(5)
    assert list(search_moves(small)) == list(small.legal_moves())
    big = new_game(15, 15, 5).play(112)
    near = list(search_moves(big))
    assert near == big.candidate_moves()
    assert len(near) == 24 and len(big.legal_moves()) == 224
    # The tree of alpha-beta reads the same moves at the root.
    result = alphabeta(big, depth=1)
    assert result.move in near


def test_quiescence_reads_is_quiet_and_ignores_states_without_it() -> None:
    checkers = get_game("checkers").new()
    evaluate = quiescent()
    assert isinstance(checkers, HasQuiet) and checkers.is_quiet()
    assert isinstance(checkers, Evaluates)
    assert evaluate(checkers) == checkers.evaluate()
    tictactoe = TicTacToeState.initial()
    assert evaluate(tictactoe) == tictactoe.evaluate()


def test_a_state_with_a_capability_as_a_plain_attribute_is_not_mistaken() -> None:
    class Pretends(TicTacToeState):
        search_moves = None  # an attribute, not a method

    state = Pretends(0, 0)
    assert list(search_moves(state)) == list(state.legal_moves())
    assert alphabeta(state, rng=random.Random(0)).value == 0
