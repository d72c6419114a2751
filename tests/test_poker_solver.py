"""The poker GameSolver, the shipped equilibria and the policy agents of the levels."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents import poker as agents
from zermelo.core.capabilities import GameSolver
from zermelo.core.errors import BudgetError, IllegalMoveError, InvalidOptionError, ParseError
from zermelo.core.state import AnyState, Player, is_chance
from zermelo.games.poker import kuhn, leduc
from zermelo.games.registry import get_game
from zermelo.search import cfr
from zermelo.solvers import poker


def test_shipped_leduc_equilibrium() -> None:
    tree = poker.game_tree("leduc")
    strategy = poker.equilibrium("leduc")
    assert len(strategy) == 936
    assert cfr.nash_conv(tree, dict(strategy)) < 0.01
    assert cfr.expected_value(tree, dict(strategy)) == pytest.approx(-0.0856, abs=0.002)


def test_shipped_kuhn_equilibrium() -> None:
    tree = poker.game_tree("kuhn")
    strategy = poker.equilibrium("kuhn")
    assert cfr.exploitability(tree, dict(strategy)) < 0.001
    assert cfr.expected_value(tree, dict(strategy)) == pytest.approx(-1 / 18, abs=1e-3)


def test_early_strategies_are_between_uniform_and_the_equilibrium() -> None:
    for game in poker.GAMES:
        tree = poker.game_tree(game)
        early = cfr.nash_conv(tree, dict(poker.early_strategy(game)))
        assert cfr.nash_conv(tree, dict(poker.equilibrium(game))) < early
        assert early < cfr.nash_conv(tree, tree.uniform())


def _solve(
    name: str, iterations: int | None, **kwargs: object
) -> tuple[object, list[tuple[str, int, int]]]:
    spec = get_game(name)
    assert spec.game_solver is not None
    solver = spec.game_solver.resolve()
    assert isinstance(solver, GameSolver)
    seen: list[tuple[str, int, int]] = []
    solution = solver.solve_game({}, iterations, lambda *step: seen.append(step), **kwargs)  # type: ignore[arg-type]
    return solution, seen


def test_kuhn_game_solver() -> None:
    solution, seen = _solve("kuhn", 300)
    assert len(seen) == 300 and seen[-1] == ("CFR iterations", 300, 300)
    facts = dict(solution.facts)  # type: ignore[attr-defined]
    assert float(facts["first player's value"]) == pytest.approx(-1 / 18, abs=2e-3)
    assert float(facts["exploitability"]) < 0.001
    assert float(facts["NashConv"]) == pytest.approx(2 * float(facts["exploitability"]), abs=2e-6)
    assert facts["iterations"] == "300" and facts["method"] == "CFR+"
    assert solution.value == pytest.approx(-1 / 18, abs=2e-3)  # type: ignore[attr-defined]
    assert solution.header == ("player", "information set", "pass", "bet")  # type: ignore[attr-defined]
    rows = {row[1]: row for row in solution.rows}  # type: ignore[attr-defined]
    assert len(rows) == 12 and rows["K:b"] == ("O", "K:b", "0.000", "1.000")
    plus, plain = solution.series  # type: ignore[attr-defined]
    assert plus.x == plain.x == (1, 2, 5, 10, 20, *range(30, 301, 30))
    assert plus.y[0] == pytest.approx(plain.y[0])  # one iteration: the same strategy
    assert plus.y[-1] < plain.y[-1] and solution.log_y  # type: ignore[attr-defined]
    assert plus.y[-1] == pytest.approx(float(facts["exploitability"]), abs=1e-6)


def test_leduc_game_solver_table_has_every_information_set() -> None:
    solution, _ = _solve("leduc", 5)
    assert solution.header == ("player", "information set", "fold", "call", "raise")  # type: ignore[attr-defined]
    assert len(solution.rows) == 936  # type: ignore[attr-defined]
    first = [row for row in solution.rows if row[1] == "Ks:"]  # type: ignore[attr-defined]
    assert first and first[0][0] == "X" and first[0][2] == ""  # no fold when nothing is owed


def test_game_solver_honours_the_deadline_and_checks_its_input() -> None:
    started = time.monotonic()
    with pytest.raises(BudgetError, match="out of time after 0 of"):
        _solve("leduc", 100_000, deadline=time.monotonic() - 1)
    assert time.monotonic() - started < 30
    with pytest.raises(BudgetError, match="expected a whole number from 1"):
        _solve("kuhn", 0)
    with pytest.raises(InvalidOptionError, match="no options"):
        poker.KUHN.solve_game({"goal": 3}, 10, lambda *step: None)


def test_read_strategy_refuses_bad_files() -> None:
    good = poker.strategy_text("kuhn", poker.equilibrium("kuhn"))
    again = poker.read_strategy(good, "kuhn", "k.json")
    for key, row in poker.equilibrium("kuhn").items():
        assert again[key] == pytest.approx(row, abs=1e-12)
    data = json.loads(good)
    cases = {
        "not json": "not JSON",
        json.dumps({**data, "game": "leduc"}): "not a strategy file for kuhn",
        json.dumps({**data, "strategy": {}}): "each of the 12 information sets",
        json.dumps({**data, "strategy": {**data["strategy"], "K:": {"pass": 2.0}}}): "at K:",
        json.dumps(
            {**data, "strategy": {**data["strategy"], "K:": {"pass": 0.5, "bet": 0.6}}}
        ): "summing to 1",
        " " * (poker.MAX_BYTES + 1): "too large",
        json.dumps(
            {**data, "strategy": {**data["strategy"], "K:": {"pass": True, "bet": 0}}}
        ): "at K:",
    }
    for text, words in cases.items():
        with pytest.raises(ParseError, match=words) as caught:
            poker.read_strategy(text, "kuhn", "k.json")
        assert "\n" not in str(caught.value) and "k.json" in str(caught.value)


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=200)
    | st.builds(
        json.dumps,
        st.recursive(
            st.none() | st.floats() | st.text(max_size=5),
            lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
            max_leaves=8,
        ),
    )
)
def test_fuzz_read_strategy(text: str) -> None:
    try:
        strategy = poker.read_strategy(text, "kuhn", "fuzz.json")
    except ParseError as error:
        assert "\n" not in str(error)
    else:
        assert len(strategy) == 12


# -- the agents ---------------------------------------------------------------------------


def _play(module: object, text: str) -> AnyState:
    return module.parse(text)  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize(
    ("module", "one", "other", "player"),
    [
        (kuhn, "Q J", "Q K", Player.FIRST),
        (kuhn, "J Q pass", "K Q pass", Player.SECOND),
        (leduc, "Qs Jh raise call Kh", "Qs Ks raise call Kh", Player.FIRST),
        (leduc, "Jh Qs raise", "Kh Qs raise", Player.SECOND),
    ],
)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_agent_sees_only_its_information_set(
    module: object, one: str, other: str, player: Player, level: str
) -> None:
    first, second = _play(module, one), _play(module, other)
    assert first.to_move is second.to_move is player
    assert first.notation() != second.notation()
    game = "kuhn" if module is kuhn else "leduc"
    factory = getattr(agents, f"{game}_{level}")
    for seed in range(30):
        assert factory(seed, None).choose(first) == factory(seed, None).choose(second)


class _OnlyWhatTheSideSees:
    """A state that answers only what a player may read; anything else fails the test."""

    def __init__(self, state: AnyState) -> None:
        self._state = state
        self.to_move = state.to_move

    def information_set(self, player: Player) -> object:
        assert player is self._state.to_move
        return self._state.information_set(player)  # type: ignore[attr-defined]

    def observation(self, player: Player) -> str:
        raise AssertionError("observation read")

    def is_chance(self) -> bool:
        return False

    def chance_outcomes(self) -> list[object]:
        return []

    def legal_moves(self) -> list[object]:
        return list(self._state.legal_moves())

    def format_move(self, move: object) -> str:
        return self._state.format_move(move)


def test_the_agent_reads_nothing_else() -> None:
    state = leduc.parse("Ks Qh raise")
    agent = agents.leduc_hard(3, None)
    same = agents.leduc_hard(3, None)
    assert agent.choose(_OnlyWhatTheSideSees(state)) == same.choose(state)  # type: ignore[arg-type]


def test_the_hard_agent_plays_the_equilibrium() -> None:
    # the second player holding the king always calls a bet in Kuhn poker's equilibrium; with
    # the jack it never does
    king, jack = kuhn.parse("Q K bet"), kuhn.parse("Q J bet")
    assert {agents.kuhn_hard(seed, None).choose(king) for seed in range(50)} == {"bet"}
    assert {agents.kuhn_hard(seed, None).choose(jack) for seed in range(50)} == {"pass"}
    # easy draws both moves
    assert {agents.kuhn_easy(seed, None).choose(jack) for seed in range(50)} == {"pass", "bet"}
    # the first player's bluffing frequency with the jack: about the shipped probability
    start = kuhn.parse("J Q")
    bets = sum(agents.kuhn_hard(seed, None).choose(start) == "bet" for seed in range(2000))
    assert bets / 2000 == pytest.approx(poker.equilibrium("kuhn")["J:"]["bet"], abs=0.04)


def test_the_agent_refuses_what_it_cannot_play() -> None:
    agent = agents.kuhn_hard(0, None)
    deal = kuhn.parse("K")
    assert is_chance(deal)
    with pytest.raises(IllegalMoveError, match="drawn by the game"):
        agent.choose(deal)
    with pytest.raises(IllegalMoveError, match="game is over"):
        agent.choose(kuhn.parse("K Q pass pass"))
    from zermelo.games.tictactoe import TicTacToeState

    with pytest.raises(IllegalMoveError, match="hidden information"):
        agent.choose(TicTacToeState.initial())


def test_levels_resolve_for_both_games() -> None:
    for name in ("kuhn", "leduc"):
        spec = get_game(name)
        for level in ("easy", "medium", "hard"):
            ref = spec.levels[level]
            assert not isinstance(ref, str)
            agent = ref.resolve()(7, None)
            assert isinstance(agent, agents.PolicyAgent) and agent.name == f"{name}:{level}"
