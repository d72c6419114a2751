"""Expectiminimax and *-minimax: the reference on hand-made trees, and Star1/Star2 equal to it on
every position of small Pig games while visiting fewer nodes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from zermelo.core.errors import BudgetError
from zermelo.core.state import Player
from zermelo.games.pig import PigState
from zermelo.search.expectimax import (
    ChanceAnalysis,
    chance_analysis,
    expectiminimax,
    star_minimax,
)


@dataclass(frozen=True)
class Toy:
    """A hand-made game tree: ``kind`` "leaf" (``payoff`` for the first player), "move" (the
    side ``to_move`` chooses a child) or "chance" (children drawn with ``probs``)."""

    kind: str
    to_move: Player = Player.FIRST
    children: tuple[Toy, ...] = ()
    probs: tuple[float, ...] = ()
    payoff_first: float = 0.0
    ply: int = 0

    @property
    def winner(self) -> Player | None:
        if self.kind != "leaf" or self.payoff_first == 0:
            return None
        return Player.FIRST if self.payoff_first > 0 else Player.SECOND

    def payoff(self) -> float:
        return self.payoff_first

    def is_terminal(self) -> bool:
        return self.kind == "leaf"

    def is_chance(self) -> bool:
        return self.kind == "chance"

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(enumerate(self.probs)) if self.kind == "chance" else []

    def legal_moves(self) -> list[int]:
        return list(range(len(self.children)))

    def play(self, move: int) -> Toy:
        return self.children[move]

    def key(self) -> Toy:
        return self

    def notation(self) -> str:
        return repr(self)

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)

    def value_bounds(self) -> tuple[float, float]:
        return (-3.0, 3.0)


def leaf(payoff: float, to_move: Player = Player.FIRST) -> Toy:
    return Toy("leaf", to_move, payoff_first=payoff)


X, O = Player.FIRST, Player.SECOND  # noqa: E741 - the sides' marks


def test_a_chance_node_is_the_weighted_mean_and_turns_need_not_alternate() -> None:
    # X chooses between a sure 1 point and a die: 1/4 of 3 points, 3/4 of a position where X
    # moves again (no alternation) choosing between -1 and 0.5.
    again = Toy("move", X, (leaf(-1.0, O), leaf(0.5, O)))
    gamble = Toy("chance", X, (leaf(3.0, O), again), (0.25, 0.75))
    root = Toy("move", X, (leaf(1.0, O), gamble))
    result = expectiminimax(root)
    assert result.value == pytest.approx(0.25 * 3 + 0.75 * 0.5)  # 1.125
    assert result.move == 1
    assert [m.value for m in result.moves] == pytest.approx([1.125, 1.0])
    # The same tree where O moves after the die: O picks X's -1.
    again_o = Toy("move", O, (leaf(-1.0, X), leaf(0.5, X)))
    root_o = Toy("move", X, (leaf(1.0, O), Toy("chance", X, (leaf(3.0, O), again_o), (0.25, 0.75))))
    assert expectiminimax(root_o).value == pytest.approx(1.0)
    assert expectiminimax(root_o).move == 0
    for star in (1, 2):
        assert star_minimax(root, star=star).value == pytest.approx(1.125)
        assert star_minimax(root_o, star=star).move == 0


def test_a_chance_root_values_each_outcome_for_the_roller() -> None:
    root = Toy("chance", O, (leaf(-2.0, X), leaf(1.0, O)), (0.5, 0.5))
    result = expectiminimax(root)
    # O rolls: outcome 0 gives O +2 (X to move, payoff -2 for X), outcome 1 gives O -1.
    assert result.move is None
    assert [m.value for m in result.moves] == pytest.approx([2.0, -1.0])
    assert result.value == pytest.approx(0.5)
    analysis = chance_analysis(root, 1, evaluator=lambda state: 0.0)
    assert analysis.chance and analysis.to_move is O
    assert [(line.move, line.probability, line.value) for line in analysis.lines] == [
        ("0", 0.5, 2.0),
        ("1", 0.5, -1.0),
    ]


def test_budgets_and_bad_arguments_are_one_line_errors() -> None:
    start = PigState.initial(goal=10)
    with pytest.raises(BudgetError, match="more than 5 nodes"):
        expectiminimax(start, 6, node_limit=5)
    with pytest.raises(BudgetError, match="more than 5 nodes"):
        star_minimax(start, 6, node_limit=5)
    with pytest.raises(BudgetError, match="depth must be 0 or more"):
        expectiminimax(start, -1)
    with pytest.raises(BudgetError, match="star must be 1 or 2"):
        star_minimax(start, 2, star=3)
    with pytest.raises(BudgetError, match="lower < upper"):
        star_minimax(start, 2, lower=1.0, upper=-1.0)
    with pytest.raises(BudgetError, match="needs an evaluation"):
        expectiminimax(Toy("move", X, (leaf(1.0),)), 1)


def every_position(goal: int, die: int) -> Iterator[PigState]:
    """Every Pig position of ``goal`` and ``die``: both sides to move, every pair of banked
    scores, every turn total up to what one more roll can reach past the goal, the die at rest
    and rolling."""
    for side in Player:
        for own in range(goal):
            for other in range(goal):
                for turn in range(goal - own + die):
                    for rolling in (False, True):
                        first, second = (own, other) if side is X else (other, own)
                        yield PigState(first, second, turn, side, rolling, goal, die)


@pytest.mark.parametrize(("goal", "die", "depths"), [(6, 6, (2, 4)), (5, 3, (5,))])
def test_star1_and_star2_equal_the_reference_on_every_position(
    goal: int, die: int, depths: tuple[int, ...]
) -> None:
    nodes = {0: 0, 1: 0, 2: 0}
    positions = 0
    for state in every_position(goal, die):
        positions += 1
        for depth in depths:
            reference = expectiminimax(state, depth)
            nodes[0] += reference.stats.nodes
            for star in (1, 2):
                result = star_minimax(state, depth, star=star)
                nodes[star] += result.stats.nodes
                assert result.value == pytest.approx(reference.value, abs=1e-12), (state, depth)
                assert result.exact == reference.exact
                second_best = [m.value for m in reference.moves[1:2]]
                if reference.move is not None and (
                    not second_best or reference.value - second_best[0] > 1e-9
                ):
                    assert result.move == reference.move, (state, depth, star)
    assert positions == 2 * goal * sum(goal - own + die for own in range(goal)) * 2
    assert nodes[1] < nodes[0]
    assert nodes[2] <= nodes[1]


def test_star2_prunes_more_than_star1_deeper() -> None:
    state = PigState.initial(goal=20)
    reference = expectiminimax(state, 7)
    star1 = star_minimax(state, 7, star=1)
    star2 = star_minimax(state, 7, star=2)
    assert star1.value == pytest.approx(reference.value, abs=1e-12)
    assert star2.value == pytest.approx(reference.value, abs=1e-12)
    assert star2.stats.nodes < star1.stats.nodes < reference.stats.nodes


def test_chance_analysis_values_each_move_and_each_outcome() -> None:
    state = PigState.parse("3 5 4 X goal=10")
    analysis = chance_analysis(state, 4)
    assert isinstance(analysis, ChanceAnalysis)
    assert not analysis.chance and analysis.best == analysis.lines[0].move
    assert {line.move for line in analysis.lines} == {"roll", "hold"}
    for line in analysis.lines:
        child = state.play(state.parse_move(line.move))
        value = expectiminimax(child, 3).value
        assert line.value == pytest.approx(value if child.to_move is X else -value, abs=1e-12)
    rolling = chance_analysis(state.play("roll"), 4)
    assert rolling.chance and rolling.best is None
    assert [line.move for line in rolling.lines] == ["1", "2", "3", "4", "5", "6"]
    assert all(line.probability == pytest.approx(1 / 6) for line in rolling.lines)
    assert rolling.value == pytest.approx(sum(line.value for line in rolling.lines) / 6)
    # A 1 loses the turn total: it is the worst outcome for the roller.
    assert min(rolling.lines, key=lambda line: line.value).move == "1"


@pytest.mark.parametrize(
    ("text", "depth", "nodes"),
    [("0 0 0 X", 6, (883, 646, 646)), ("70 30 22 X", 8, (7155, 5051, 4817))],
)
def test_node_counts_are_pinned(text: str, depth: int, nodes: tuple[int, int, int]) -> None:
    # A change to any count changes the search (its order or its pruning): on purpose only.
    state = PigState.parse(text)
    counted = (
        expectiminimax(state, depth).stats.nodes,
        star_minimax(state, depth, star=1).stats.nodes,
        star_minimax(state, depth, star=2).stats.nodes,
    )
    assert counted == nodes


def test_an_endless_tree_without_a_depth_is_one_line() -> None:
    state = PigState.initial(goal=10)
    with pytest.raises(BudgetError, match="too deep to read to its end"):
        expectiminimax(state)
    with pytest.raises(BudgetError, match="too deep to read to its end"):
        star_minimax(state)
    with pytest.raises(BudgetError, match="too deep to read to its end"):
        chance_analysis(state, 100_000)


def test_minimax_and_alphabeta_refuse_a_game_of_chance_in_one_line() -> None:
    from zermelo.core.errors import CapabilityError
    from zermelo.search import alphabeta, analyze_position, minimax

    state = PigState.initial(goal=10)
    searches: list[Callable[[], object]] = [
        lambda: alphabeta(state, depth=4),
        lambda: analyze_position(state, depth=4),
        lambda: minimax(state, 4),
    ]
    for search in searches:
        with pytest.raises(CapabilityError, match="chance nodes") as error:
            search()
        assert "\n" not in str(error.value)


def test_a_chance_capable_state_without_dice_ahead_is_still_searched() -> None:
    # A wrapper class that offers the Chance protocol for a game with no chance (OpenSpiel's
    # wrappers do) is searched by alpha-beta as before.
    from zermelo.search import alphabeta

    leafy = Toy("move", X, (leaf(1.0, O), leaf(-1.0, O)))
    assert alphabeta(leafy).move == 0
