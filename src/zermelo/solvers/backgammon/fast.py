"""The compiled core of the backgammon engine: afterstates, the net's forward pass, self-play.

Everything here works on the **mover's board**: an ``int8[26]`` array seen from the side to move.
``b[i]`` for ``i`` in ``0..23`` is the point ``i + 1`` counted from the mover's home (the mover
runs from point 24 to point 1 and bears off below it), positive for the mover's checkers and
negative for the opponent's; ``b[24]`` is the mover's bar and ``b[25]`` the opponent's (both as
counts). Checkers borne off are what is missing from 15. :func:`flip` turns it into the board of
the other side.

The move generator (:func:`afterstates`) lists the distinct positions a roll can leave, with the
rules' constraints: a checker on the bar enters first, the most dice that can be played are
played, and when only one die of a non-double can be, the larger one if it can. It exists so that
the self-play loop runs entirely compiled; the rules of record are :mod:`zermelo.games.backgammon`,
and a test checks that both list the same positions.

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

from zermelo.core.jit import NUMBA_AVAILABLE, make_jit, numba_disabled

__all__ = [
    "CAPACITY",
    "COMPILED",
    "INPUTS",
    "OUTPUTS",
    "afterstates",
    "encode",
    "equity_of",
    "flip",
    "forward",
    "from_kernel",
    "outcome",
    "play_match",
    "self_play_targets",
    "start_board",
    "td_error",
    "to_kernel",
    "train_games",
]

COMPILED = NUMBA_AVAILABLE and not numba_disabled()
jit = make_jit(COMPILED)

INPUTS = 198
"""TD-Gammon's input units: 4 per point per side, the bars, the checkers off, the side to move."""
OUTPUTS = 5
"""P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon) of the mover."""
CAPACITY = 4096
"""The most positions one roll's generator keeps (no legal roll reaches it: the largest known
count of distinct plays is well under a thousand)."""
MAX_FEATURES = 128
"""The most non-zero input units a position has (4 per occupied point, 4 more)."""


@jit()
def start_board() -> np.ndarray:
    """The opening position, from the side to move."""
    board = np.zeros(26, dtype=np.int8)
    board[23] = 2
    board[12] = 5
    board[7] = 3
    board[5] = 5
    board[0] = -2
    board[11] = -5
    board[16] = -3
    board[18] = -5
    return board


@jit()
def flip(board: np.ndarray) -> np.ndarray:
    """The same position seen from the other side."""
    out = np.empty(26, dtype=np.int8)
    for i in range(24):
        out[i] = -board[23 - i]
    out[24] = board[25]
    out[25] = board[24]
    return out


@jit()
def _hash(board: np.ndarray) -> int:
    h = 1469598103934665603
    for i in range(26):
        h = (h ^ (int(board[i]) + 16)) * 1099511628211
    return h


@jit()
def _apply_die(
    frontier: np.ndarray,
    count: int,
    die: int,
    out: np.ndarray,
    hashes: np.ndarray,
) -> int:
    """Every distinct board one checker moved by ``die`` leaves from ``frontier[:count]``, into
    ``out``; returns how many."""
    made = 0
    for k in range(count):
        b = frontier[k]
        sources = np.empty(25, dtype=np.int64)
        n = 0
        if b[24] > 0:
            sources[0] = 24
            n = 1
        else:
            for i in range(24):
                if b[i] > 0:
                    sources[n] = i
                    n += 1
        home = True
        if b[24] > 0:
            home = False
        else:
            for i in range(6, 24):
                if b[i] > 0:
                    home = False
                    break
        for s in range(n):
            src = sources[s]
            dest = src - die
            if dest >= 0:
                if b[dest] < -1:
                    continue
            else:
                if not home:
                    continue
                if dest < -1:
                    higher = False
                    for j in range(src + 1, 6):
                        if b[j] > 0:
                            higher = True
                            break
                    if higher:
                        continue
            if made >= out.shape[0]:
                return made
            nb = out[made]
            for j in range(26):
                nb[j] = b[j]
            nb[src] -= 1
            if dest >= 0:
                if nb[dest] == -1:
                    nb[dest] = 1
                    nb[25] += 1
                else:
                    nb[dest] += 1
            h = _hash(nb)
            seen = False
            for j in range(made):
                if hashes[j] == h:
                    same = True
                    for q in range(26):
                        if out[j, q] != nb[q]:
                            same = False
                            break
                    if same:
                        seen = True
                        break
            if not seen:
                hashes[made] = h
                made += 1
    return made


@jit()
def _sequence(
    board: np.ndarray, dice: np.ndarray, ndice: int, result: np.ndarray
) -> tuple[int, int]:
    """The boards after playing ``dice[:ndice]`` in that order as far as they go: returns
    ``(how many boards in result, how many dice were played)``."""
    a = np.empty((CAPACITY, 26), dtype=np.int8)
    b = np.empty((CAPACITY, 26), dtype=np.int8)
    hashes = np.empty(CAPACITY, dtype=np.int64)
    for j in range(26):
        a[0, j] = board[j]
    count = 1
    used = 0
    for d in range(ndice):
        made = _apply_die(a, count, dice[d], b, hashes)
        if made == 0:
            break
        used += 1
        count = made
        a, b = b, a
    for k in range(count):
        for j in range(26):
            result[k, j] = a[k, j]
    return count, used


@jit()
def afterstates(board: np.ndarray, die1: int, die2: int, out: np.ndarray) -> int:
    """The distinct positions the roll ``die1``-``die2`` can leave (from the mover's side, before
    it is flipped), written into ``out`` (``int8[CAPACITY, 26]``); returns how many (at least one:
    a roll that cannot be played leaves the board as it is)."""
    dice = np.empty(4, dtype=np.int64)
    if die1 == die2:
        for k in range(4):
            dice[k] = die1
        count, _used = _sequence(board, dice, 4, out)
        return int(count)
    high = max(die1, die2)
    low = min(die1, die2)
    dice[0] = high
    dice[1] = low
    first = np.empty((CAPACITY, 26), dtype=np.int8)
    n1, u1 = _sequence(board, dice, 2, first)
    dice[0] = low
    dice[1] = high
    second = np.empty((CAPACITY, 26), dtype=np.int8)
    n2, u2 = _sequence(board, dice, 2, second)
    if u1 == 2 or u2 == 2:
        count = 0
        hashes = np.empty(CAPACITY, dtype=np.int64)
        for which in range(2):
            src = first if which == 0 else second
            n = n1 if which == 0 else n2
            if (u1 if which == 0 else u2) != 2:
                continue
            for k in range(n):
                h = _hash(src[k])
                seen = False
                for j in range(count):
                    if hashes[j] == h:
                        same = True
                        for q in range(26):
                            if out[j, q] != src[k, q]:
                                same = False
                                break
                        if same:
                            seen = True
                            break
                if not seen and count < out.shape[0]:
                    for q in range(26):
                        out[count, q] = src[k, q]
                    hashes[count] = h
                    count += 1
        return count
    if u1 == 1:  # the larger die can be played alone: it must be
        for k in range(n1):
            for q in range(26):
                out[k, q] = first[k, q]
        return int(n1)
    for k in range(n2):  # only the smaller die, or nothing (n2 == 1, the board unchanged)
        for q in range(26):
            out[k, q] = second[k, q]
    return int(n2)


@jit()
def outcome(board: np.ndarray) -> int:
    """0 while the mover of ``board`` has checkers left; else what the mover won: 1 (single
    game), 2 (gammon: the opponent has borne off none), 3 (backgammon: also a checker of the
    opponent's on the bar or in the mover's home board)."""
    for i in range(25):
        if board[i] > 0:
            return 0
    opponent = board[25]
    for i in range(24):
        if board[i] < 0:
            opponent -= board[i]
    if opponent < 15:
        return 1
    if board[25] > 0:
        return 3
    for i in range(6):
        if board[i] < 0:
            return 3
    return 2


@jit()
def encode(board: np.ndarray, index: np.ndarray, value: np.ndarray) -> int:
    """The non-zero input units of ``board`` (the mover to move): ``index[k]``, ``value[k]`` for
    ``k`` below the returned count. Units ``4p..4p+3`` are the mover's checkers on point ``p+1``
    (one or more, two or more, three or more, half of those beyond three), ``96 + 4p..`` the
    opponent's on its own point ``p+1``; 192/193 the bars (halved), 194/195 the checkers off
    (over 15), 196/197 whose turn it is (the mover's, always: the board is the mover's)."""
    n = 0
    mine_off = 15
    theirs_off = 15
    for i in range(24):
        c = int(board[i])
        base = 0
        if c < 0:
            c = -c
            base = 96 + 4 * (23 - i)
            theirs_off -= c
        elif c > 0:
            base = 4 * i
            mine_off -= c
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
    mine_off -= board[24]
    theirs_off -= board[25]
    if board[24] > 0:
        index[n] = 192
        value[n] = board[24] / 2.0
        n += 1
    if board[25] > 0:
        index[n] = 193
        value[n] = board[25] / 2.0
        n += 1
    if mine_off > 0:
        index[n] = 194
        value[n] = mine_off / 15.0
        n += 1
    if theirs_off > 0:
        index[n] = 195
        value[n] = theirs_off / 15.0
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
    for o in range(OUTPUTS):
        z = b2[o]
        for h in range(units):
            z += hidden[h] * w2[h, o]
        out[o] = _sigmoid(z)


@jit()
def equity_of(out: np.ndarray) -> float:
    """The cubeless equity of five outputs, in points for their side."""
    return float(2.0 * out[0] - 1.0 + out[1] - out[3] + out[2] - out[4])


@jit()
def _choose(
    board: np.ndarray,
    die1: int,
    die2: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    boards: np.ndarray,
    chosen_out: np.ndarray,
) -> int:
    """The index in ``boards`` of the afterstate the net values best for the mover (1-ply),
    with the outputs of the flipped position (the opponent's view) in ``chosen_out``; a finished
    game's afterstate has its exact result there as the opponent's losses."""
    n = afterstates(board, die1, die2, boards)
    hidden = np.empty(b1.shape[0], dtype=np.float64)
    out = np.empty(OUTPUTS, dtype=np.float64)
    best = 0
    best_value = -1e9
    for k in range(n):
        won = outcome(boards[k])
        if won > 0:
            value = float(won)
            if value > best_value:
                best_value = value
                best = k
                chosen_out[0] = 0.0
                chosen_out[1] = 0.0
                chosen_out[2] = 0.0
                chosen_out[3] = 1.0 if won >= 2 else 0.0
                chosen_out[4] = 1.0 if won >= 3 else 0.0
            continue
        other = flip(boards[k])
        forward(other, w1, b1, w2, b2, hidden, out)
        value = -equity_of(out)
        if value > best_value:
            best_value = value
            best = k
            for o in range(OUTPUTS):
                chosen_out[o] = out[o]
    return best


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
    boards: np.ndarray,
    history: np.ndarray,
    values: np.ndarray,
    targets: np.ndarray,
) -> int:
    """One greedy 1-ply self-play game (the dice from numba's generator): the position before
    each roll into ``history`` (the mover's view) and its λ-return into ``targets``; returns the
    number of plies (0 if the game was cut at ``max_plies``)."""
    board = np.empty(26, dtype=np.int8)
    start = start_board()
    for j in range(26):
        board[j] = start[j]
    die1, die2, _first = _opening()
    chosen = np.empty(OUTPUTS, dtype=np.float64)
    plies = 0
    won = 0
    while plies < max_plies:
        for j in range(26):
            history[plies, j] = board[j]
        if plies > 0:
            die1 = np.random.randint(1, 7)
            die2 = np.random.randint(1, 7)
        k = _choose(board, die1, die2, w1, b1, w2, b2, boards, chosen)
        plies += 1
        won = outcome(boards[k])
        if won > 0:
            break
        for o in range(OUTPUTS):
            values[plies, o] = chosen[o]
        board = flip(boards[k])
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
    boards: np.ndarray,
    history: np.ndarray,
    values: np.ndarray,
    targets: np.ndarray,
) -> int:
    """One self-play game and its TD(λ) update (every position one gradient step toward its
    λ-return); returns its number of plies (0: cut at ``max_plies``, nothing learned)."""
    plies = _self_play(w1, b1, w2, b2, lam, max_plies, boards, history, values, targets)
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
    boards = np.empty((CAPACITY, 26), dtype=np.int8)
    values = np.zeros((max_plies + 1, OUTPUTS), dtype=np.float64)
    return _self_play(w1, b1, w2, b2, lam, max_plies, boards, history, values, targets)


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
    delta = np.empty(OUTPUTS, dtype=np.float64)
    error = 0.0
    for o in range(OUTPUTS):
        z = b2[o]
        for h in range(units):
            z += hidden[h] * w2[h, o]
        y = _sigmoid(z)
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
    boards = np.empty((CAPACITY, 26), dtype=np.int8)
    history = np.empty((max_plies + 1, 26), dtype=np.int8)
    values = np.zeros((max_plies + 1, OUTPUTS), dtype=np.float64)
    targets = np.zeros((max_plies + 1, OUTPUTS), dtype=np.float64)
    total = 0
    for _ in range(games):
        total += _train_one(w1, b1, w2, b2, alpha, lam, max_plies, boards, history, values, targets)
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
    boards = np.empty((CAPACITY, 26), dtype=np.int8)
    chosen = np.empty(OUTPUTS, dtype=np.float64)
    for g in range(games):
        _seed(seed + g // 2)
        board = start_board()
        die1, die2, first = _opening()
        a_moves = (g % 2 == 0) == first
        plies = 0
        points[g] = 0.0
        while plies < max_plies:
            if plies > 0:
                die1 = np.random.randint(1, 7)
                die2 = np.random.randint(1, 7)
            if a_moves:
                k = _choose(board, die1, die2, wa1, ba1, wa2, ba2, boards, chosen)
            else:
                k = _choose(board, die1, die2, wb1, bb1, wb2, bb2, boards, chosen)
            plies += 1
            won = outcome(boards[k])
            if won > 0:
                points[g] = float(won) if a_moves else -float(won)
                break
            board = flip(boards[k])
            a_moves = not a_moves


def from_kernel(board: np.ndarray) -> np.ndarray:
    """The mover's ``int8[26]`` board of a board in the rules' kernel layout
    (:mod:`zermelo.games.backgammon.kernel`: ``int8[28]`` with the trays at 0 and 27)."""
    out = np.empty(26, dtype=np.int8)
    out[:24] = board[1:25]
    out[24] = board[25]
    out[25] = board[26]
    return out


def to_kernel(board: np.ndarray) -> np.ndarray:
    """The rules' kernel layout (``int8[28]``) of a mover's ``int8[26]`` board."""
    out = np.zeros(28, dtype=np.int8)
    out[1:25] = board[:24]
    out[25] = board[24]
    out[26] = board[25]
    points = board[:24].astype(np.int64)
    out[0] = 15 - int(points[points > 0].sum()) - int(board[24])
    out[27] = 15 + int(points[points < 0].sum()) - int(board[25])
    return out
