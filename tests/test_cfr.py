"""CFR and CFR+ on Kuhn poker and Leduc hold'em: the known values, NashConv of the uniform
policy, convergence, and NashConv equal to OpenSpiel's on the same random policy."""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as spiel_policy
from open_spiel.python.algorithms import best_response, expected_game_score
from open_spiel.python.algorithms import exploitability as spiel_exploitability

from zermelo.core.errors import BudgetError
from zermelo.core.state import AnyState, Player
from zermelo.games.poker import kuhn, leduc
from zermelo.games.tictactoe import TicTacToeState
from zermelo.search import cfr as C  # noqa: N812 - read as the module's short name


@pytest.fixture(scope="module")
def kuhn_tree() -> C.GameTree:
    return C.build_tree(kuhn.parse(""))


@pytest.fixture(scope="module")
def leduc_tree() -> C.GameTree:
    return C.build_tree(leduc.parse(""))


def test_tree_sizes(kuhn_tree: C.GameTree, leduc_tree: C.GameTree) -> None:
    assert (kuhn_tree.nodes, len(kuhn_tree.keys)) == (58, 12)
    assert (leduc_tree.nodes, len(leduc_tree.keys)) == (9457, 936)


def test_uniform_nash_conv(kuhn_tree: C.GameTree, leduc_tree: C.GameTree) -> None:
    assert C.nash_conv(kuhn_tree, C.uniform_policy(kuhn_tree)) == pytest.approx(11 / 12, abs=1e-9)
    assert C.exploitability(kuhn_tree, kuhn_tree.uniform()) == pytest.approx(11 / 24, abs=1e-9)
    assert C.nash_conv(leduc_tree, leduc_tree.uniform()) == pytest.approx(4.747222, abs=1e-4)
    # the uniform pair's value: Kuhn 1/8 to the first player
    assert C.expected_value(kuhn_tree, kuhn_tree.uniform()) == pytest.approx(0.125, abs=1e-12)


def test_kuhn_cfr_plus_converges_to_minus_one_eighteenth(kuhn_tree: C.GameTree) -> None:
    solver = C.CfrSolver(kuhn_tree, plus=True)
    solver.iterate(1000)
    average = solver.average()
    assert C.exploitability(kuhn_tree, average) < 0.001
    assert C.expected_value(kuhn_tree, average) == pytest.approx(-1 / 18, abs=1e-3)
    # the equilibrium's known shape: the second player always bets a king after a pass, and
    # calls a bet with the king and never with the jack
    assert average["K:p"]["bet"] == pytest.approx(1.0, abs=1e-3)
    assert average["K:b"]["bet"] == pytest.approx(1.0, abs=1e-3)
    assert average["J:b"]["bet"] == pytest.approx(0.0, abs=1e-3)
    assert sum(average["Q:"].values()) == pytest.approx(1.0)


def test_kuhn_vanilla_cfr_converges_more_slowly(kuhn_tree: C.GameTree) -> None:
    vanilla = C.CfrSolver(kuhn_tree, plus=False)
    plus = C.CfrSolver(kuhn_tree, plus=True)
    vanilla.iterate(200)
    plus.iterate(200)
    slow = C.nash_conv(kuhn_tree, vanilla.average_array())
    fast = C.nash_conv(kuhn_tree, plus.average_array())
    assert fast < slow < 0.05
    assert C.expected_value(kuhn_tree, vanilla.average()) == pytest.approx(-1 / 18, abs=5e-3)


def test_leduc_cfr_plus_drives_nash_conv_below_a_hundredth(leduc_tree: C.GameTree) -> None:
    solver = C.CfrSolver(leduc_tree, plus=True)
    solver.iterate(240)
    average = solver.average_array()
    assert C.nash_conv(leduc_tree, average) < 0.01
    assert C.expected_value(leduc_tree, average) == pytest.approx(-0.0856, abs=0.002)


def _infoset_map(name: str, root: AnyState, actions: tuple[str, ...]) -> dict[str, Hashable]:
    """OpenSpiel's information state string -> ours, by walking both trees together."""
    game = pyspiel.load_game(name)
    found: dict[str, Hashable] = {}
    stack = [(game.new_initial_state(), root)]
    cards = {"kuhn_poker": kuhn.CARDS, "leduc_poker": leduc.CARDS}[name]
    while stack:
        theirs, ours = stack.pop()
        if theirs.is_terminal():
            continue
        if theirs.is_chance_node():
            stack += [(theirs.child(a), ours.play(cards[a])) for a, _ in theirs.chance_outcomes()]
            continue
        player = theirs.current_player()
        found[theirs.information_state_string(player)] = ours.information_set(Player(player))  # type: ignore[attr-defined]
        stack += [(theirs.child(a), ours.play(actions[a])) for a in theirs.legal_actions()]
    return found


KUHN = ("kuhn_poker", kuhn, ("pass", "bet"))
LEDUC = ("leduc_poker", leduc, ("fold", "call", "raise"))


@pytest.mark.parametrize(
    ("name", "module", "actions", "seed"), [(*KUHN, 1), (*KUHN, 2), (*LEDUC, 1)]
)
def test_nash_conv_equals_openspiel_on_a_random_policy(
    name: str, module: object, actions: tuple[str, ...], seed: int
) -> None:
    game = pyspiel.load_game(name)
    table = spiel_policy.TabularPolicy(game)
    rng = np.random.default_rng(seed)
    legal = table.legal_actions_mask
    probs = rng.random(legal.shape) * legal
    # some zeros: a move never played is part of a policy too
    probs[rng.random(legal.shape) < 0.2] = 0.0
    probs = np.where(probs.sum(axis=1, keepdims=True) > 0, probs, legal)
    table.action_probability_array = probs / probs.sum(axis=1, keepdims=True)
    mapping = _infoset_map(name, module.parse(""), actions)  # type: ignore[attr-defined]
    ours: dict[Hashable, dict[Hashable, float]] = {}
    for text, row in table.state_lookup.items():
        ours[mapping[text]] = {
            actions[a]: float(table.action_probability_array[row][a])
            for a in range(len(actions))
            if legal[row][a]
        }
    tree = C.build_tree(module.parse(""))  # type: ignore[attr-defined]
    assert len(ours) == len(tree.keys)
    # OpenSpiel's C++ NashConv on both games; its Python exploitability and best responses
    # (slow on Leduc) on Kuhn
    expected = pyspiel.nash_conv(game, spiel_policy.python_policy_to_pyspiel_policy(table))
    assert C.nash_conv(tree, ours) == pytest.approx(expected, abs=1e-9)
    if name == "leduc_poker":
        return
    assert C.exploitability(tree, ours) == pytest.approx(
        spiel_exploitability.exploitability(game, table), abs=1e-9
    )
    root = game.new_initial_state()
    on_policy = expected_game_score.policy_value(root, [table, table])
    assert C.expected_value(tree, ours) == pytest.approx(on_policy[0], abs=1e-9)
    for player in (0, 1):
        best = best_response.BestResponsePolicy(game, player, table).value(root)
        assert C.best_response_value(tree, ours, Player(player)) == pytest.approx(best, abs=1e-9)


def test_best_response_to_uniform_kuhn(kuhn_tree: C.GameTree) -> None:
    # OpenSpiel's figures for the uniform policy: 0.5 and 5/12
    uniform = kuhn_tree.uniform()
    assert C.best_response_value(kuhn_tree, uniform, Player.FIRST) == pytest.approx(0.5)
    assert C.best_response_value(kuhn_tree, uniform, Player.SECOND) == pytest.approx(5 / 12)


def test_cfr_on_a_game_of_perfect_information() -> None:
    # tic-tac-toe from a position one move from the end of a forced line: CFR finds the win
    root = TicTacToeState.parse("XX.OO.... X")
    policy = C.cfr(root, 100)
    assert C.expected_value(root, policy) == pytest.approx(1.0, abs=0.01)
    assert C.best_response_value(root, policy, Player.FIRST) == pytest.approx(1.0, abs=1e-12)
    assert C.nash_conv(root, policy) < 0.01


def test_budgets_and_bad_policies(kuhn_tree: C.GameTree) -> None:
    with pytest.raises(BudgetError, match="more than 100 nodes"):
        C.build_tree(leduc.parse(""), node_limit=100)
    with pytest.raises(BudgetError, match="out of time"):
        C.cfr(kuhn_tree, 10, deadline=0.0)
    with pytest.raises(BudgetError, match="iterations=-1"):
        C.cfr(kuhn_tree, -1)
    with pytest.raises(ValueError, match="not moves there"):
        C.nash_conv(kuhn_tree, {"K:": {"raise": 1.0}})
    with pytest.raises(ValueError, match="expected probabilities"):
        C.nash_conv(kuhn_tree, {"K:": {"bet": -1.0, "pass": 0.5}})
    with pytest.raises(ValueError, match="expected 24 probabilities"):
        C.nash_conv(kuhn_tree, np.ones(3))


def test_progress_is_told_each_iteration(kuhn_tree: C.GameTree) -> None:
    seen: list[tuple[int, int]] = []
    C.cfr(kuhn_tree, 3, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_policy_is_a_distribution_at_every_information_set(kuhn_tree: C.GameTree) -> None:
    policy = C.cfr(kuhn_tree, 5, plus=False)
    rng = random.Random(0)
    assert set(policy) == set(kuhn_tree.keys)
    for key in rng.sample(sorted(map(str, policy)), 5):
        assert sum(policy[key].values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("name", "module", "iterations"), [("kuhn_poker", kuhn, 40), ("leduc_poker", leduc, 6)]
)
def test_cfr_and_cfr_plus_equal_openspiels_solvers(
    name: str, module: object, iterations: int
) -> None:
    game = pyspiel.load_game(name)
    tree = C.build_tree(module.parse(""))  # type: ignore[attr-defined]
    for plus, theirs in ((False, pyspiel.CFRSolver(game)), (True, pyspiel.CFRPlusSolver(game))):
        ours = C.CfrSolver(tree, plus=plus)
        for _ in range(iterations):
            ours.iterate()
            theirs.evaluate_and_update_policy()
        expected = pyspiel.nash_conv(game, theirs.average_policy())
        assert C.nash_conv(tree, ours.average_array()) == pytest.approx(expected, abs=1e-9)


def test_a_policy_pair(kuhn_tree: C.GameTree) -> None:
    solver = C.CfrSolver(kuhn_tree)
    solver.iterate(500)
    equilibrium, uniform = solver.average(), C.uniform_policy(kuhn_tree)
    assert C.expected_value(kuhn_tree, (equilibrium, equilibrium)) == pytest.approx(
        C.expected_value(kuhn_tree, equilibrium), abs=1e-12
    )
    # against a uniform second player the equilibrium wins; the best reply wins more
    against = C.expected_value(kuhn_tree, (equilibrium, uniform))
    best = C.best_response_value(kuhn_tree, (uniform, uniform), Player.FIRST)
    assert -1 / 18 < against < best == pytest.approx(0.5)
    # a pair mixes: each side's part comes from its own policy
    assert C.expected_value(kuhn_tree, (uniform, uniform)) == pytest.approx(0.125)
