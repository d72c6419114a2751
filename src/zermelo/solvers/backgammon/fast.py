"""The compiled core of the backgammon engine: the net's forward pass, 1-ply and 2-ply search (for
:mod:`zermelo.solvers.backgammon.search`), the TD(λ) update and self-play.

Everything here works on the rules' boards (:mod:`zermelo.games.backgammon.kernel`): an
``int8[28]`` array seen from the side to move, with the trays at 0 and 27, the points 1..24 in the
mover's numbering and the bars at 25 (the mover's) and 26 (the opponent's). The moves of a roll
come from the rules' own generator, :func:`zermelo.games.backgammon.kernel.gen_moves`, called from
the compiled loops here, so the engine plays exactly the moves the rules allow; its buffers
(``boards, steps, work, table``, from :func:`zermelo.games.backgammon.kernel.new_buffers`) are
allocated once per call and reused for every roll.

The net (TD-Gammon's shape, see :mod:`zermelo.solvers.backgammon.net`) is given as its four
arrays ``w1 (198, H)``, ``b1 (H)``, ``w2 (H, 5)``, ``b2 (5)``; its five outputs are the mover's
chances of winning, winning a gammon, winning a backgammon, losing a gammon, losing a backgammon.
Training is TD(λ) in its forward view: after each self-play game every position moves toward its
λ-return, computed backwards from the game's result with the values the net gave during play.

Without numba the same functions run as plain Python (``ZERMELO_NO_NUMBA=1``), only slower.
"""

from __future__ import annotations

import math

import numpy as np

from zermelo.core.jit import make_jit
from zermelo.games.backgammon import kernel as rules

__all__ = [
    "COMPILED",
    "INPUTS",
    "OUTPUTS",
    "after_value",
    "encode",
    "equity_of",
    "forward",
    "one_ply",
    "play_match",
    "self_play_targets",
    "td_error",
    "train_games",
    "two_ply_values",
]

COMPILED = rules.COMPILED
"""Whether the engine is compiled (it is whenever the rules' kernel is: it calls it)."""
jit = make_jit(COMPILED)

INPUTS = 198
"""TD-Gammon's input units: 4 per point per side, the bars, the checkers off, the side to move."""
OUTPUTS = 5
"""P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon) of the mover."""
MAX_FEATURES = 128
"""The most non-zero input units a position has (4 per occupied point, 4 more)."""


@jit()
def encode(board: np.ndarray, index: np.ndarray, value: np.ndarray) -> int:
    """The non-zero input units of ``board`` (the mover to move): ``index[k]``, ``value[k]`` for
    ``k`` below the returned count. Units ``4(p-1)..4(p-1)+3`` are the mover's checkers on point
    ``p`` (one or more, two or more, three or more, half of those beyond three), ``96 + 4(q-1)..``
    the opponent's on its own point ``q`` (the mover's ``25 - q``); 192/193 the bars (halved),
    194/195 the checkers off (over 15), 196/197 whose turn it is (the mover's, always: the board
    is the mover's)."""
    n = 0
    for p in range(1, 25):
        c = int(board[p])
        base = 0
        if c < 0:
            c = -c
            base = 96 + 4 * (24 - p)
        elif c > 0:
            base = 4 * (p - 1)
        if c > 0:
            index[n] = base
            value[n] = 1.0
            n += 1
            if c >= 2:
                index[n] = base + 1
                value[n] = 1.0
                n += 1
            if c >= 3:
                index[n] = base + 2
                value[n] = 1.0
                n += 1
            if c > 3:
                index[n] = base + 3
                value[n] = (c - 3) / 2.0
                n += 1
    if board[rules.BAR] > 0:
        index[n] = 192
        value[n] = board[rules.BAR] / 2.0
        n += 1
    if board[rules.OPP_BAR] > 0:
        index[n] = 193
        value[n] = board[rules.OPP_BAR] / 2.0
        n += 1
    if board[rules.OFF] > 0:
        index[n] = 194
        value[n] = board[rules.OFF] / 15.0
        n += 1
    if board[rules.OPP_OFF] > 0:
        index[n] = 195
        value[n] = board[rules.OPP_OFF] / 15.0
        n += 1
    index[n] = 196
    value[n] = 1.0
    n += 1
    return n


@jit()
def _sigmoid(x: float) -> float:
    if x < -40.0:
        return 0.0
    if x > 40.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


@jit()
def _hidden_layer(
    board: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    hidden: np.ndarray,
    index: np.ndarray,
    value: np.ndarray,
) -> int:
    """The hidden activations of ``board`` into ``hidden``, its input units into ``index`` and
    ``value`` (see :func:`encode`); returns how many units are on."""
    n = encode(board, index, value)
    units = b1.shape[0]
    for h in range(units):
        hidden[h] = b1[h]
    for k in range(n):
        row = index[k]
        v = value[k]
        for h in range(units):
            hidden[h] += w1[row, h] * v
    for h in range(units):
        hidden[h] = _sigmoid(hidden[h])
    return n


@jit()
def _output(hidden: np.ndarray, w2: np.ndarray, b2: np.ndarray, o: int) -> float:
    """Output ``o`` of the net from its hidden activations."""
    z = b2[o]
    for h in range(hidden.shape[0]):
        z += hidden[h] * w2[h, o]
    return _sigmoid(z)


@jit()
def forward(
    board: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    hidden: np.ndarray,
    out: np.ndarray,
) -> None:
    """The net's five outputs for ``board`` (the mover's chances) into ``out``, its hidden
    activations into ``hidden``."""
    index = np.empty(MAX_FEATURES, dtype=np.int64)
    value = np.empty(MAX_FEATURES, dtype=np.float64)
    _hidden_layer(board, w1, b1, hidden, index, value)
    for o in range(OUTPUTS):
        out[o] = _output(hidden, w2, b2, o)


@jit()
def equity_of(out: np.ndarray) -> float:
    """The cubeless equity of five outputs, in points for their side."""
    return float(2.0 * out[0] - 1.0 + out[1] - out[3] + out[2] - out[4])


@jit()
def after_value(
    after: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    hidden: np.ndarray,
    swapped: np.ndarray,
    out: np.ndarray,
) -> float:
    """The mover's cubeless equity of its own afterstate ``after`` (the opponent to roll), with
    the opponent's five outputs in ``out``: the net's of the swapped board (written into
    ``swapped``), or for a finished game its exact result as the opponent's losses (so the
    value is exactly the 1, 2 or 3 points won)."""
    won = rules.result(after)
    if won > 0:
        out[0] = 0.0
        out[1] = 0.0
        out[2] = 0.0
        out[3] = 1.0 if won >= 2 else 0.0
        out[4] = 1.0 if won >= 3 else 0.0
    else:
        rules.swap(after, swapped)
        forward(swapped, w1, b1, w2, b2, hidden, out)
    return -equity_of(out)


@jit()
def one_ply(
    board: np.ndarray,
    die1: int,
    die2: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    moves: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    values: np.ndarray,
    best_out: np.ndarray,
) -> tuple[int, int]:
    """The afterstates of the roll into ``moves[0]`` (the rules' generator and its buffers,
    :func:`zermelo.games.backgammon.kernel.new_buffers`), each one's 1-ply value for the mover
    into ``values``, and the outputs of the best one (see :func:`after_value`) into ``best_out``.
    Returns ``(n, best)``: how many, and the index of the best (ties: the first in the
    generator's order)."""
    boards = moves[0]
    n = rules.gen_moves(board, die1, die2, boards, moves[1], moves[2], moves[3])
    hidden = np.empty(b1.shape[0], dtype=np.float64)
    swapped = np.empty(rules.BOARD_SIZE, dtype=np.int8)
    out = np.empty(OUTPUTS, dtype=np.float64)
    best = 0
    best_value = -1e9
    for k in range(n):
        value = after_value(boards[k], w1, b1, w2, b2, hidden, swapped, out)
        values[k] = value
        if value > best_value:
            best_value = value
            best = k
            for o in range(OUTPUTS):
                best_out[o] = out[o]
    return n, best


@jit()
def _reply_average(
    after: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    rolls: np.ndarray,
    replies: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    reply_values: np.ndarray,
    reply_out: np.ndarray,
) -> float:
    """The mover's 2-ply value of its afterstate ``after``: minus the opponent's best 1-ply
    reply, averaged over the opponent's 21 rolls."""
    won = rules.result(after)
    if won > 0:
        return float(won)
    other = rules.swapped(after)
    total = 0.0
    for r in range(rolls.shape[0]):
        _m, best = one_ply(
            other, rolls[r, 0], rolls[r, 1], w1, b1, w2, b2, replies, reply_values, reply_out
        )
        total -= rolls[r, 2] * reply_values[best]
    return total / 36.0


@jit()
def two_ply_values(
    board: np.ndarray,
    die1: int,
    die2: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    keep: int,
    margin: float,
    rolls: np.ndarray,
    moves: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    replies: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    values: np.ndarray,
    deep: np.ndarray,
) -> int:
    """The afterstates of the roll into ``moves[0]``, their 1-ply values into ``values`` and their
    2-ply values into ``deep`` (``-inf`` for the candidates the filter left out: beyond the best
    ``keep`` or more than ``margin`` below the best); returns how many."""
    out = np.empty(OUTPUTS, dtype=np.float64)
    n, _best = one_ply(board, die1, die2, w1, b1, w2, b2, moves, values, out)
    boards = moves[0]
    reply_values = np.empty(rules.MAX_MOVES, dtype=np.float64)
    order = np.argsort(-values[:n])
    top = values[order[0]]
    for k in range(n):
        deep[k] = -np.inf
    for j in range(min(keep, n)):
        k = order[j]
        if j > 0 and values[k] < top - margin:
            break
        deep[k] = _reply_average(boards[k], w1, b1, w2, b2, rolls, replies, reply_values, out)
    return n


@jit()
def _seed(seed: int) -> None:
    np.random.seed(seed)


@jit()
def _opening() -> tuple[int, int, bool]:
    """The opening roll: each side throws one die until they differ; the higher moves with both."""
    while True:
        a = np.random.randint(1, 7)
        b = np.random.randint(1, 7)
        if a != b:
            return a, b, a > b


@jit()
def _self_play(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    lam: float,
    max_plies: int,
    moves: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    history: np.ndarray,
    values: np.ndarray,
    targets: np.ndarray,
) -> int:
    """One greedy 1-ply self-play game (the dice from numba's generator): the position before
    each roll into ``history`` (the mover's view) and its λ-return into ``targets``; returns the
    number of plies (0 if the game was cut at ``max_plies``)."""
    board = rules.start_board()
    boards = moves[0]
    die1, die2, _first = _opening()
    chosen = np.empty(OUTPUTS, dtype=np.float64)
    scratch = np.empty(rules.MAX_MOVES, dtype=np.float64)
    plies = 0
    won = 0
    while plies < max_plies:
        for j in range(rules.BOARD_SIZE):
            history[plies, j] = board[j]
        if plies > 0:
            die1 = np.random.randint(1, 7)
            die2 = np.random.randint(1, 7)
        _n, k = one_ply(board, die1, die2, w1, b1, w2, b2, moves, scratch, chosen)
        plies += 1
        won = rules.result(boards[k])
        if won > 0:
            break
        for o in range(OUTPUTS):
            values[plies, o] = chosen[o]
        rules.swap(boards[k], board)
    if won == 0:
        return 0
    # λ-returns backwards: target[t] for history[t] (the mover at t), in the mover's view
    target = np.empty(OUTPUTS, dtype=np.float64)
    target[0] = 1.0
    target[1] = 1.0 if won >= 2 else 0.0
    target[2] = 1.0 if won >= 3 else 0.0
    target[3] = 0.0
    target[4] = 0.0
    for o in range(OUTPUTS):
        targets[plies - 1, o] = target[o]
    for t in range(plies - 2, -1, -1):
        mixed = np.empty(OUTPUTS, dtype=np.float64)
        for o in range(OUTPUTS):
            mixed[o] = (1.0 - lam) * values[t + 1, o] + lam * targets[t + 1, o]
        targets[t, 0] = 1.0 - mixed[0]
        targets[t, 1] = mixed[3]
        targets[t, 2] = mixed[4]
        targets[t, 3] = mixed[1]
        targets[t, 4] = mixed[2]
    return plies


@jit()
def _train_one(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    alpha: float,
    lam: float,
    max_plies: int,
    moves: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    history: np.ndarray,
    values: np.ndarray,
    targets: np.ndarray,
) -> int:
    """One self-play game and its TD(λ) update (every position one gradient step toward its
    λ-return); returns its number of plies (0: cut at ``max_plies``, nothing learned)."""
    plies = _self_play(w1, b1, w2, b2, lam, max_plies, moves, history, values, targets)
    hidden = np.empty(b1.shape[0], dtype=np.float64)
    for t in range(plies):
        _update(history[t], targets[t], w1, b1, w2, b2, alpha, hidden)
    return plies


@jit()
def self_play_targets(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    seed: int,
    lam: float,
    max_plies: int,
    history: np.ndarray,
    targets: np.ndarray,
) -> int:
    """The first game :func:`train_games` plays with ``seed``: its positions into ``history``
    and their λ-returns into ``targets``; returns its plies (the weights are not changed)."""
    _seed(seed)
    values = np.zeros((max_plies + 1, OUTPUTS), dtype=np.float64)
    moves = rules.new_buffers()
    return _self_play(w1, b1, w2, b2, lam, max_plies, moves, history, values, targets)


@jit()
def td_error(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    history: np.ndarray,
    targets: np.ndarray,
    plies: int,
) -> float:
    """The summed squared error of the net's outputs on ``history[:plies]`` against
    ``targets``."""
    hidden = np.empty(b1.shape[0], dtype=np.float64)
    out = np.empty(OUTPUTS, dtype=np.float64)
    total = 0.0
    for t in range(plies):
        forward(history[t], w1, b1, w2, b2, hidden, out)
        for o in range(OUTPUTS):
            total += (targets[t, o] - out[o]) ** 2
    return total


@jit()
def _update(
    board: np.ndarray,
    target: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    alpha: float,
    hidden: np.ndarray,
) -> float:
    """One gradient step of the squared error of the five outputs toward ``target``; returns the
    squared error before the step."""
    index = np.empty(MAX_FEATURES, dtype=np.int64)
    value = np.empty(MAX_FEATURES, dtype=np.float64)
    n = _hidden_layer(board, w1, b1, hidden, index, value)
    units = b1.shape[0]
    delta = np.empty(OUTPUTS, dtype=np.float64)
    error = 0.0
    for o in range(OUTPUTS):
        y = _output(hidden, w2, b2, o)
        e = target[o] - y
        error += e * e
        delta[o] = e * y * (1.0 - y)
    back = np.zeros(units, dtype=np.float64)
    for h in range(units):
        s = 0.0
        for o in range(OUTPUTS):
            s += delta[o] * w2[h, o]
        back[h] = s * hidden[h] * (1.0 - hidden[h])
    for o in range(OUTPUTS):
        step = alpha * delta[o]
        for h in range(units):
            w2[h, o] += step * hidden[h]
        b2[o] += step
    for h in range(units):
        b1[h] += alpha * back[h]
    for k in range(n):
        row = index[k]
        v = alpha * value[k]
        for h in range(units):
            w1[row, h] += v * back[h]
    return error


@jit()
def train_games(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    games: int,
    seed: int,
    alpha: float,
    lam: float,
    max_plies: int,
) -> int:
    """``games`` self-play games with the dice of ``seed``, each followed by its TD(λ) update of
    the weights (in place); returns the plies played."""
    _seed(seed)
    moves = rules.new_buffers()
    history = np.empty((max_plies + 1, rules.BOARD_SIZE), dtype=np.int8)
    values = np.zeros((max_plies + 1, OUTPUTS), dtype=np.float64)
    targets = np.zeros((max_plies + 1, OUTPUTS), dtype=np.float64)
    total = 0
    for _ in range(games):
        total += _train_one(w1, b1, w2, b2, alpha, lam, max_plies, moves, history, values, targets)
    return total


@jit()
def play_match(
    wa1: np.ndarray,
    ba1: np.ndarray,
    wa2: np.ndarray,
    ba2: np.ndarray,
    wb1: np.ndarray,
    bb1: np.ndarray,
    wb2: np.ndarray,
    bb2: np.ndarray,
    games: int,
    seed: int,
    max_plies: int,
    points: np.ndarray,
) -> None:
    """``games`` cubeless games of net A against net B at 1-ply; games ``2k`` and ``2k + 1``
    share their dice (the seed ``seed + k``) with the sides swapped. ``points[g]`` is what A won
    in game ``g`` (negative for a loss, 0 for a game cut at ``max_plies``)."""
    moves = rules.new_buffers()
    boards = moves[0]
    chosen = np.empty(OUTPUTS, dtype=np.float64)
    scratch = np.empty(rules.MAX_MOVES, dtype=np.float64)
    for g in range(games):
        _seed(seed + g // 2)
        board = rules.start_board()
        die1, die2, first = _opening()
        a_moves = (g % 2 == 0) == first
        plies = 0
        points[g] = 0.0
        while plies < max_plies:
            if plies > 0:
                die1 = np.random.randint(1, 7)
                die2 = np.random.randint(1, 7)
            if a_moves:
                _n, k = one_ply(board, die1, die2, wa1, ba1, wa2, ba2, moves, scratch, chosen)
            else:
                _n, k = one_ply(board, die1, die2, wb1, bb1, wb2, bb2, moves, scratch, chosen)
            plies += 1
            won = rules.result(boards[k])
            if won > 0:
                points[g] = float(won) if a_moves else -float(won)
                break
            rules.swap(boards[k], board)
            a_moves = not a_moves
