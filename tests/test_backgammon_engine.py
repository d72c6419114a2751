"""The backgammon engine: the net, TD(λ) self-play on the rules' generator, 1-/2-ply search, the
cube rule."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import ParseError
from zermelo.games.backgammon import kernel as rules
from zermelo.solvers.backgammon import fast, search
from zermelo.solvers.backgammon.net import (
    Net,
    encode_dense,
    load_net,
    random_net,
    reference_forward,
    save_net,
    trained_net,
)
from zermelo.solvers.backgammon.train import match_ppg

pytestmark = pytest.mark.skipif(not fast.COMPILED, reason="the engine's tests run compiled")


def random_positions(count: int, seed: int) -> list[np.ndarray]:
    """Positions met in random play from the start (each the mover's board)."""
    rng = random.Random(seed)
    positions: list[np.ndarray] = []
    board = rules.start_board()
    while len(positions) < count:
        positions.append(board.copy())
        boards, _steps = rules.legal(board, rng.randint(1, 6), rng.randint(1, 6))
        after = boards[rng.randrange(len(boards))]
        board = rules.start_board() if rules.result(after) else rules.swapped(after)
    return positions


POSITIONS = random_positions(300, 11)


def _reference_step(board: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """Every board one checker moved by ``die`` leaves (the rules read plainly, board as a
    tuple in the kernel's layout)."""
    sources = [25] if board[25] > 0 else [p for p in range(1, 25) if board[p] > 0]
    home = board[25] == 0 and all(board[p] <= 0 for p in range(7, 25))
    highest = max((p for p in range(1, 25) if board[p] > 0), default=0)
    out = []
    for source in sources:
        target = source - die
        if target <= 0:
            if not home or (target < 0 and source != highest):
                continue
            target = 0
        elif board[target] <= -2:
            continue
        b = list(board)
        b[source] -= 1
        if target == 0:
            b[0] += 1
        elif b[target] == -1:
            b[target], b[26] = 1, b[26] + 1
        else:
            b[target] += 1
        out.append(tuple(b))
    return out


def _reference_plays(board: np.ndarray, d1: int, d2: int) -> set[bytes]:
    """The positions a roll can leave, by brute force over the orders of the dice: the most dice
    played, and the larger die when only one of two can be."""
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    reached: dict[int, set[tuple[int, ...]]] = {}
    larger: set[tuple[int, ...]] = set()
    for order in orders:
        frontier = {tuple(int(v) for v in board)}
        for used, die in enumerate(order, 1):
            frontier = {after for b in frontier for after in _reference_step(b, die)}
            if not frontier:
                break
            reached.setdefault(used, set()).update(frontier)
            if used == 1 and die == max(d1, d2):
                larger |= frontier
    most = max(reached, default=0)
    if most == 0:
        kept = {tuple(int(v) for v in board)}
    elif most == 1 and d1 != d2 and larger:
        kept = larger
    else:
        kept = reached[most]
    return {np.array(b, dtype=np.int8).tobytes() for b in kept}


def test_the_one_generator_lists_a_brute_force_references_plays() -> None:
    """The engine plays the rules' generator (tested against OpenSpiel in
    test_backgammon_openspiel.py); here it equals a brute force over the dice's orders, written
    from the rules, for every roll of 120 positions of random play."""
    buffers = rules.new_buffers()
    for board in POSITIONS[::2][:120]:
        for a in range(1, 7):
            for b in range(a, 7):
                n = rules.gen_moves(board, a, b, *buffers)
                mine = {buffers[0][k].tobytes() for k in range(n)}
                assert len(mine) == n
                assert mine == _reference_plays(board, a, b)


def test_self_play_and_matches_are_what_they_were_before_the_one_generator() -> None:
    """The engine's own generator was replaced by the rules' one: the same move sets, so the same
    games. Numbers recorded with the engine's former generator (commit b40e970)."""
    net = random_net(3)
    assert fast.train_games(*net.arrays(), 50, 5, 0.1, 0.7, 3000) == 2440
    assert float(net.w1.sum()) == pytest.approx(-8.195077268669484, abs=1e-9)
    points = np.zeros(40)
    fast.play_match(*trained_net().arrays(), *random_net(1).arrays(), 40, 9, 3000, points)
    recorded = "3333132323232323323322323332332231333233"
    assert "".join(str(int(p)) for p in points) == recorded


def test_the_sparse_encoding_is_the_dense_reference() -> None:
    index = np.empty(fast.MAX_FEATURES, dtype=np.int64)
    value = np.empty(fast.MAX_FEATURES)
    for board in POSITIONS[:100]:
        n = fast.encode(board, index, value)
        x = np.zeros(198)
        x[index[:n]] = value[:n]
        assert np.array_equal(x, encode_dense(board))
    x = encode_dense(rules.start_board())
    assert x.shape == (198,)
    assert x[4 * 5 : 4 * 5 + 4].tolist() == [1.0, 1.0, 1.0, 1.0]  # five on the six point
    assert x[196] == 1.0 and x[197] == 0.0


def test_the_compiled_forward_pass_equals_numpy() -> None:
    hidden = np.empty(80)
    out = np.empty(5)
    for seed, net in enumerate((random_net(3), random_net(4, scale=1.0), trained_net())):
        for board in POSITIONS[seed::7]:
            fast.forward(board, *net.arrays(), hidden, out)
            assert np.allclose(out, reference_forward(net, board), atol=1e-12)


def test_a_finished_afterstate_is_worth_exactly_its_points() -> None:
    net = random_net(2)
    hidden, swapped, out = np.empty(80), np.empty(28, dtype=np.int8), np.empty(5)
    board = np.zeros(28, dtype=np.int8)
    board[0], board[27] = 15, 1  # a single game
    assert fast.after_value(board, *net.arrays(), hidden, swapped, out) == 1.0
    board[27], board[10] = 0, -15  # a gammon
    assert fast.after_value(board, *net.arrays(), hidden, swapped, out) == 2.0
    board[10], board[3] = -14, -1  # a backgammon: one in the winner's home
    assert fast.after_value(board, *net.arrays(), hidden, swapped, out) == 3.0
    assert out.tolist() == [0.0, 0.0, 0.0, 1.0, 1.0]
    start = rules.start_board()
    value = fast.after_value(start, *net.arrays(), hidden, swapped, out)
    assert value == pytest.approx(-fast.equity_of(reference_forward(net, rules.swapped(start))))


def test_a_td_update_lowers_the_td_error() -> None:
    net = random_net(5)
    history = np.empty((3001, 28), dtype=np.int8)
    targets = np.empty((3001, 5))
    plies = fast.self_play_targets(*net.arrays(), 42, 0.7, 3000, history, targets)
    assert plies > 10
    before = fast.td_error(*net.arrays(), history, targets, plies)
    learner = net.copy()
    assert fast.train_games(*learner.arrays(), 1, 42, 0.1, 0.7, 3000) == plies
    after = fast.td_error(*learner.arrays(), history, targets, plies)
    assert after < before
    assert not np.array_equal(learner.w1, net.w1)


def test_the_last_target_is_the_result_and_targets_alternate_views() -> None:
    net = random_net(6)
    history = np.empty((3001, 28), dtype=np.int8)
    targets = np.empty((3001, 5))
    plies = fast.self_play_targets(*net.arrays(), 7, 0.0, 3000, history, targets)
    last = targets[plies - 1]
    assert last[0] == 1.0 and last[3] == 0.0 and last[4] == 0.0
    # λ = 0: each target is the next position's value seen from the other side
    hidden = np.empty(80)
    out = np.empty(5)
    fast.forward(history[1], *net.arrays(), hidden, out)
    expected = [1 - out[0], out[3], out[4], out[1], out[2]]
    assert np.allclose(targets[0], expected)


def test_the_trained_weights_beat_the_untrained() -> None:
    mean, half = match_ppg(trained_net(), random_net(1), 40, 2024)
    assert mean - half > 0.5


def _exhaustive_two_ply(net: Net, board: np.ndarray, dice: tuple[int, int]) -> list[float]:
    """Each afterstate's 2-ply value, in plain numpy: every reply to every roll."""
    values = []
    for after in rules.legal(board, dice[0], dice[1])[0]:
        won = rules.result(after)
        if won:
            values.append(float(won))
            continue
        other = rules.swapped(after)
        total = 0.0
        for a in range(1, 7):
            for b in range(a, 7):
                best = -np.inf
                for reply in rules.legal(other, a, b)[0]:
                    if rules.result(reply):
                        value = float(rules.result(reply))
                    else:
                        o = reference_forward(net, rules.swapped(reply))
                        value = -(2 * o[0] - 1 + o[1] - o[3] + o[2] - o[4])
                    best = max(best, value)
                total -= (1 if a == b else 2) * best
        values.append(total / 36)
    return values


@pytest.mark.parametrize("index", [0, 40, 250])
def test_two_ply_equals_an_exhaustive_reference(index: int) -> None:
    net = trained_net()
    board = POSITIONS[index]
    dice = (6, 2) if index % 2 else (3, 1)
    reference = _exhaustive_two_ply(net, board, dice)
    every = search.rank_moves(net, board, dice, 2, keep=10_000, margin=1e9)
    assert every.deep is not None
    assert np.allclose(every.deep, reference, atol=1e-9)
    assert every.best == int(np.argmax(reference))
    pruned = search.rank_moves(net, board, dice, 2)
    assert pruned.best == int(np.argmax(reference))


def test_one_ply_picks_the_best_valued_afterstate() -> None:
    net = trained_net()
    ranked = search.rank_moves(net, rules.start_board(), (3, 1), 1)
    assert ranked.deep is None
    # 8/5 6/5, the book play, from the mover's side
    expected = rules.start_board()
    expected[8] -= 1
    expected[6] -= 1
    expected[5] += 2
    assert np.array_equal(ranked.boards[ranked.best], expected)
    assert ranked.values[ranked.best] == ranked.values.max()


def test_the_cube_rule() -> None:
    assert not search.should_double(0.2)
    assert search.should_double(0.5)
    assert search.should_double(0.9)
    assert not search.should_double(1.3)  # too good: play on for the gammon
    assert search.should_take(0.55)
    assert not search.should_take(0.8)


def test_weights_round_trip(tmp_path: Path) -> None:
    net = random_net(9, hidden=7)
    path = tmp_path / "w.npz"
    save_net(Net(net.w1, net.b1, net.w2, net.b2, 123), path)
    back = load_net(path)
    assert back.games == 123 and back.hidden == 7
    assert np.allclose(back.w1, net.w1, atol=1e-7)


def test_the_shipped_weights_are_small_and_trained() -> None:
    from zermelo.solvers.backgammon.net import TRAINED

    assert TRAINED.stat().st_size < 1 << 20
    assert trained_net().games > 0


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_a_bad_weights_file_is_one_line(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes
) -> None:
    path = tmp_path_factory.mktemp("w") / "bad.npz"
    path.write_bytes(raw)
    with pytest.raises(ParseError) as caught:
        load_net(path)
    assert "\n" not in str(caught.value)


def test_weights_of_the_wrong_shape_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "shape.npz"
    np.savez(path, w1=np.zeros((10, 3)), b1=np.zeros(3), w2=np.zeros((3, 5)), b2=np.zeros(5))
    with pytest.raises(ParseError, match="not a backgammon weights file"):
        load_net(path)
    with pytest.raises(ParseError, match="cannot read"):
        load_net(tmp_path / "missing.npz")


def test_training_resumes_where_it_stopped(tmp_path: Path) -> None:
    from zermelo.solvers.backgammon.train import TrainConfig, train

    def config(directory: Path, games: int) -> TrainConfig:
        return TrainConfig(directory, games, seed=3, hidden=6, chunk=4, eval_every=4, eval_games=4)

    whole = train(config(tmp_path / "whole", 8))
    train(config(tmp_path / "parts", 4))
    stops: list[bool] = []
    resumed = train(config(tmp_path / "parts", 8), should_stop=lambda: bool(stops))
    assert resumed.games == whole.games == 8
    assert np.array_equal(resumed.w1, whole.w1) and np.array_equal(resumed.b2, whole.b2)
    lines = (tmp_path / "parts" / "metrics.jsonl").read_text().splitlines()
    assert len(lines) == 2 and '"games": 8' in lines[1]


def test_the_backgammon_kernels_are_warmed_up_with_the_others() -> None:
    """``zermelo warm-up`` and the web server build the rules' generator and the engine ahead (a
    first game used to wait ~13 s for them); ``is_built`` reads numba's cache of each entry point,
    so each must be a compiled function of its module."""
    import importlib

    from zermelo.solvers.kernels import KERNELS, PLAY_KERNELS, build, is_built, kernels_for

    names = ("backgammon-moves", "backgammon")
    assert kernels_for("backgammon") == names
    assert set(names) <= set(PLAY_KERNELS)
    for name in names:
        module = importlib.import_module(KERNELS[name].module)
        for entry in KERNELS[name].entry_points:
            assert hasattr(getattr(module, entry, None), "py_func"), (name, entry)
    build(names)
    assert all(is_built(name) for name in names)
