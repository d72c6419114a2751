"""Every registered game keeps the written contract of :class:`zermelo.core.state.State`, checked
move by move along random games (hypothesis draws the seed): not just that the methods exist."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError
from zermelo.games.registry import GameSpec, game_names, get_game

GAMES = sorted({get_game(name).name for name in game_names()})
SMALL = {"mnk": {"width": 4, "height": 4, "k": 3}}


def check_step(state: Any, move: Any, spec: GameSpec) -> Any:
    before, before_hash = state.notation(), hash(state)
    child = state.play(move)
    # immutable: playing leaves the state as it was
    assert state.notation() == before and hash(state) == before_hash
    assert child.ply == state.ply + 1
    if not spec.chance:  # turns alternate, except where dice say otherwise (Pig rolls again)
        assert child.to_move is state.to_move.opponent
    # notation round-trips, for the position and for the move
    assert state.parse_move(state.format_move(move)) == move
    again = spec.parse(child.notation())
    assert again.notation() == child.notation()
    assert again.to_move is child.to_move and again.legal_moves() == child.legal_moves()
    return child


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_state_contract(name: str, seed: int) -> None:
    spec = get_game(name)
    rng = random.Random(seed)
    state = spec.new(**SMALL.get(name, {}))
    assert state.ply == 0 and state.winner is None and not state.is_terminal()
    for _ in range(60):
        moves = list(state.legal_moves())
        if state.is_terminal():
            assert moves == []
            break
        assert moves and len(set(moves)) == len(moves)
        assert state.winner is None
        state = check_step(state, rng.choice(moves), spec)
    if state.is_terminal():
        with pytest.raises(IllegalMoveError):
            state.play(state.parse_move(state.format_move(rng.choice(_some_moves(spec)))))


def _some_moves(spec: GameSpec) -> list[Any]:
    return list(spec.new(**SMALL.get(spec.name, {})).legal_moves())
