"""The shared protocol's chance and hidden-information helpers (core/state.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Self

import pytest

from zermelo.core.state import (
    Chance,
    HiddenInfo,
    Payoff,
    Player,
    information_set,
    is_chance,
    payoff_of,
    same_side,
    sample_outcome,
)
from zermelo.games.registry import get_game


@dataclass(frozen=True)
class Coin:
    """A biased coin, then the game ends: heads (3/4) wins for the first player."""

    flipped: str = ""

    @property
    def to_move(self) -> Player:
        return Player.FIRST

    @property
    def winner(self) -> Player | None:
        return {"": None, "H": Player.FIRST, "T": Player.SECOND}[self.flipped]

    @property
    def ply(self) -> int:
        return len(self.flipped)

    def is_chance(self) -> bool:
        return not self.flipped

    def chance_outcomes(self) -> Sequence[tuple[str, float]]:
        return [("H", 0.75), ("T", 0.25)] if not self.flipped else []

    def legal_moves(self) -> Sequence[str]:
        return [outcome for outcome, _ in self.chance_outcomes()]

    def play(self, move: str) -> Self:
        return type(self)(move)

    def is_terminal(self) -> bool:
        return bool(self.flipped)

    def key(self) -> Hashable:
        return self

    def notation(self) -> str:
        return self.flipped or "-"

    def parse_move(self, text: str) -> str:
        return text

    def format_move(self, move: str) -> str:
        return move

    def information_set(self, player: Player) -> Hashable:
        return ("seen by", int(player))

    def observation(self, player: Player) -> str:
        return "?"

    def payoff(self) -> float:
        return {"": 0.0, "H": 2.0, "T": -2.0}[self.flipped]


def test_a_chance_state_is_seen_as_one_and_plain_games_are_not() -> None:
    assert isinstance(Coin(), Chance) and isinstance(Coin(), Payoff)
    assert isinstance(Coin(), HiddenInfo)
    assert is_chance(Coin()) and not is_chance(Coin("H"))
    for name in ("tictactoe", "connect4", "chess", "checkers"):
        state = get_game(name).new()
        assert not is_chance(state)
        assert not isinstance(state, Chance)


def test_sampling_follows_the_probabilities_and_replays_from_the_seed() -> None:
    draws = [sample_outcome(Coin(), random.Random(7)) for _ in range(3)]
    assert len(set(draws)) == 1  # the same seed, the same outcome
    rng = random.Random(2026)
    counts = Counter(sample_outcome(Coin(), rng) for _ in range(20_000))
    assert abs(counts["H"] / 20_000 - 0.75) < 0.015
    # One rng.random() per draw: the generator moves exactly one step.
    rng_a, rng_b = random.Random(5), random.Random(5)
    sample_outcome(Coin(), rng_a)
    rng_b.random()
    assert rng_a.random() == rng_b.random()


def test_sampling_a_decision_node_is_refused() -> None:
    with pytest.raises(ValueError, match="not a chance node"):
        sample_outcome(Coin("H"), random.Random(1))
    with pytest.raises(ValueError, match="not a chance node"):
        sample_outcome(get_game("tictactoe").new(), random.Random(1))


def test_payoff_is_the_games_points_or_the_winner() -> None:
    assert payoff_of(Coin("H")) == 2.0 and payoff_of(Coin("T")) == -2.0
    state = get_game("tictactoe").parse("XXXOO....")
    assert state.is_terminal() and payoff_of(state) == 1.0
    assert payoff_of(get_game("tictactoe").parse("XOXXOOOXX")) == 0.0


def test_information_sets_and_sides() -> None:
    assert information_set(Coin(), Player.SECOND) == ("seen by", 1)
    state = get_game("tictactoe").new()
    assert information_set(state, Player.FIRST) == state.key()
    child = state.play(state.legal_moves()[0])
    assert not same_side(state, child) and same_side(Coin(), Coin("H"))
