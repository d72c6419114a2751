"""zermelo's backgammon against OpenSpiel's ``backgammon``: the same plays (as the positions they
reach) for every roll met in random games, the same dice, the same gammons.

OpenSpiel plays a double as two actions of two checker moves each (the second only when both
checkers of the first could move), and keeps the most dice and the larger die within each
action; so a double's moves are OpenSpiel's two actions composed, keeping the compositions that
use the most dice (the rule "play as many as you can" over the whole turn). The positions are
computed here from OpenSpiel's actions (decoded as OpenSpiel encodes them, checked against its
``spiel_move_to_checker_moves``) by a few lines of their own, not by the kernel.
"""

from __future__ import annotations

import random
import struct
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.state import Player, is_chance, sample_outcome
from zermelo.games.backgammon import kernel
from zermelo.games.backgammon.state import BackgammonState, Phase
from zermelo.interop.openspiel import load

GAME = pyspiel.load_game("backgammon(scoring_type=full_scoring)")
BAR = 100
PACK = struct.Struct("28b")
"""OpenSpiel's position of the bar."""


def _dice(node: Any) -> tuple[int, int]:
    """The dice of a decision node, larger first (OpenSpiel marks a used die by adding 6)."""
    a, b = (int(v) for v in node.observation_tensor(0)[198:200])
    a, b = (a - 6 if a > 6 else a), (b - 6 if b > 6 else b)
    return max(a, b), min(a, b)


EXAMPLES = 25
PER_EXAMPLE = 400
"""25 examples of at least 400 decision positions each: at least 10,000 positions."""


def _view(state: Any, player: int) -> list[int]:
    """OpenSpiel's position as the kernel's 28 values from ``player``'s side, read from its
    observation (per side and OpenSpiel point: one-hot 1, 2, 3 and the count beyond 3; then
    bars and borne-off counts). X (player 0) moves from OpenSpiel's 0 to 23, so X's point ``p``
    is OpenSpiel's ``24 - p``; O's point ``p`` is ``p - 1``."""
    tensor = np.asarray(state.observation_tensor(player), np.float64)
    units = tensor[:192].reshape(2, 24, 4)
    counts = units[..., 0] + 2 * units[..., 1] + 3 * units[..., 2]
    counts += np.where(units[..., 3] > 0, units[..., 3] + 3, 0)
    mine, theirs = counts[0], counts[1]  # the observer's and the opponent's, per OpenSpiel point
    points = mine - theirs
    board = points[::-1] if player == 0 else points
    inner = [int(v) for v in board]
    return [int(tensor[193]), *inner, int(tensor[192]), int(tensor[195]), int(tensor[196])]


_DECODED: dict[tuple[int, int, int], list[tuple[tuple[int, int], ...]]] = {}


def _decoded(player: int, high: int, low: int) -> list[tuple[tuple[int, int], ...]]:
    """Each of OpenSpiel's 1352 actions as its checker moves ``(start, die)``, the start in the
    mover's numbering (25 the bar), passes left out. OpenSpiel numbers an action ``d1 * 26 + d0``
    (+ 676 when the first move takes the lower die), each digit a point of its own numbering,
    24 the bar and 25 a pass (its ``CheckerMovesToSpielMove``)."""
    key = (player, high, low)
    table = _DECODED.get(key)
    if table is None:
        table = []
        for action in range(1352):
            high_first = action < 676
            rest = action % 676
            moves = []
            for digit, die in (
                (rest % 26, high if high_first else low),
                (rest // 26, low if high_first else high),
            ):
                if digit == 25:
                    continue
                start = 25 if digit == 24 else (24 - digit if player == 0 else digit + 1)
                moves.append((start, die))
            table.append(tuple(moves))
        _DECODED[key] = table
    return table


def _openspiel_plays(state: Any) -> set[bytes]:
    """The positions the side to move can reach with its roll (from its side), by OpenSpiel's
    legal actions (and a double's second ones), the checker moves read from each action."""
    player = state.current_player()
    high, low = _dice(state)
    table = _decoded(player, high, low)
    found: dict[bytes, int] = {}
    pack = PACK.pack

    def expand(node: Any, values: list[int], used: int) -> None:
        for action in node.legal_actions():
            after = values[:]
            moves = table[action]
            for start, die in moves:
                to = start - die
                after[start] -= 1
                if to <= 0:
                    after[0] += 1
                elif after[to] == -1:
                    after[to] = 1
                    after[26] += 1
                else:
                    after[to] += 1
            total = used + len(moves)
            # a double whose two first moves were both played goes on with two more
            if used == 0 and high == low and len(moves) == 2 and after[0] < 15:
                expand(node.child(action), after, 2)
            else:
                key = pack(*after)
                if found.get(key, -1) < total:
                    found[key] = total

    expand(state, _view(state, player), 0)
    most = max(found.values())
    return {key for key, used in found.items() if used == most}


def _kernel_plays(values: list[int], d1: int, d2: int) -> set[bytes]:
    boards, _ = kernel.legal(np.array(values, np.int8), d1, d2)
    return {board.tobytes() for board in boards}


def _compare(node: Any, roll: tuple[int, int]) -> None:
    player = node.current_player()
    mine = _kernel_plays(_view(node, player), *roll)
    theirs = _openspiel_plays(node)
    assert mine == theirs, (roll, _view(node, player), len(mine), len(theirs))


def _pick(node: Any, rng: random.Random, greedy: float) -> int:
    """A random action, or (with probability ``greedy``) one that leaves the fewest pips: races
    and bear-offs come sooner."""
    actions = node.legal_actions()
    if rng.random() >= greedy:
        return int(rng.choice(actions))
    player = node.current_player()

    def pips(action: int) -> int:
        child = node.child(action)
        return sum(v * p for p, v in enumerate(_view(child, player)[1:26], 1) if v > 0)

    return int(min(actions, key=pips))


def _play_games(seed: int, greedy: float, positions: int) -> tuple[int, int]:
    """Random games, comparing the plays at every roll (all 21 rolls at every eighth chance
    node) until ``positions`` were compared; each game's end is compared too. Returns the
    positions and the games."""
    rng = random.Random(seed)
    compared = games = 0
    while compared < positions:
        games += 1
        node = GAME.new_initial_state()
        chances = 0
        while not node.is_terminal():
            if node.is_chance_node():
                outcomes = [a for a, _ in node.chance_outcomes()]
                opening = len(outcomes) == 30
                chances += 1
                if not opening and chances % 8 == 0:
                    rolls: dict[tuple[int, int], Any] = {}
                    for outcome in outcomes:
                        child = node.child(outcome)
                        rolls.setdefault(_dice(child), child)
                    assert len(rolls) == 21
                    for dice, child in rolls.items():
                        _compare(child, dice)
                        compared += 1
                node.apply_action(rng.choice(outcomes))
                if opening or chances % 8 != 0:
                    _compare(node, _dice(node))
                    compared += 1
                continue
            player = node.current_player()
            while not node.is_terminal() and node.current_player() == player:
                node.apply_action(_pick(node, rng, greedy))
        _compare_end(node)
    return compared, games


def _compare_end(node: Any) -> None:
    """The finished game's payoff (gammons, backgammons) by zermelo equals OpenSpiel's."""
    values = _view(node, 0)
    state = BackgammonState(bytes(v & 0xFF for v in values), Player.SECOND, Phase.OVER)
    assert state.payoff() == node.returns()[0]
    assert kernel.result(np.array(values, np.int8)) == node.returns()[0]


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), greedy=st.sampled_from([0.0, 0.5, 0.9]))
def test_the_plays_of_every_roll_are_openspiels(seed: int, greedy: float) -> None:
    compared, games = _play_games(seed, greedy, PER_EXAMPLE)
    assert compared >= PER_EXAMPLE and games >= 1


def test_the_action_decoding_is_openspiels() -> None:
    rng = random.Random(2)
    checked = 0
    for _ in range(3):
        node = GAME.new_initial_state()
        while not node.is_terminal():
            if node.is_chance_node():
                node.apply_action(rng.choice([a for a, _ in node.chance_outcomes()]))
                continue
            player = node.current_player()
            table = _decoded(player, *_dice(node))
            for action in node.legal_actions():
                theirs = [
                    (25 if m.pos == BAR else (24 - m.pos if player == 0 else m.pos + 1), m.num)
                    for m in node.spiel_move_to_checker_moves(player, action)
                    if m.pos >= 0
                ]
                assert list(table[action]) == theirs
                checked += 1
            node.apply_action(rng.choice(node.legal_actions()))
    assert checked > 1000


def test_the_dice_are_openspiels() -> None:
    """The same chances: OpenSpiel lists the opening's 30 outcomes (who starts, with which two
    dice) and a later roll's 36 ordered ones; zermelo writes the opening as X's die and O's, a
    later roll with the larger die first (21 outcomes)."""
    start = BackgammonState.initial()
    node = GAME.new_initial_state()
    theirs: dict[tuple[int, tuple[int, int]], float] = {}
    for action, q in node.chance_outcomes():
        child = node.child(action)
        key = (child.current_player(), _dice(child))
        theirs[key] = theirs.get(key, 0.0) + q
    mine: dict[tuple[int, tuple[int, int]], float] = {}
    for roll, p in start.chance_outcomes():
        after = start.play(roll)
        assert after.phase is Phase.MOVE
        key = (int(after.to_move), after.dice)
        mine[key] = mine.get(key, 0.0) + p
    assert len(start.chance_outcomes()) == len(theirs) == 30
    assert mine.keys() == theirs.keys()
    assert all(mine[key] == pytest.approx(theirs[key]) for key in mine)

    node.apply_action(0)
    node.apply_action(node.legal_actions()[0])
    assert node.is_chance_node()
    later: dict[tuple[int, int], float] = {}
    for action, q in node.chance_outcomes():
        dice = _dice(node.child(action))
        later[dice] = later.get(dice, 0.0) + q
    rolling = BackgammonState.parse("X 24:2 13:5 8:3 6:5; O 24:2 13:5 8:3 6:5; no cube; O rolls")
    outcomes = rolling.chance_outcomes()
    assert len(outcomes) == len(later) == 21
    for roll, p in outcomes:
        assert p == pytest.approx(later[(roll.first, roll.second)])
        assert rolling.play(roll).dice == (roll.first, roll.second)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_gammons_and_backgammons_are_scored_as_openspiel_scores_them() -> None:
    seen: set[float] = set()
    rng = random.Random(7)
    for _ in range(100):
        node = GAME.new_initial_state()
        while not node.is_terminal():
            if node.is_chance_node():
                node.apply_action(rng.choice([a for a, _ in node.chance_outcomes()]))
            else:
                node.apply_action(rng.choice(node.legal_actions()))
        _compare_end(node)
        seen.add(abs(node.returns()[0]))
    assert seen == {1.0, 2.0, 3.0}


def _interop_plays(state: Any, player: int) -> set[bytes]:
    """The positions OpenSpiel's ``player`` reaches with its roll, by the interop state's moves
    (a whole turn each: the interop writes a double's two actions as one move, a tuple), those
    that use the most dice."""
    found: dict[bytes, int] = {}
    for move in state.legal_moves():
        actions = move if isinstance(move, tuple) else (move,)
        moved = sum(
            1
            for action in actions
            for checker_move in state.spiel.spiel_move_to_checker_moves(player, int(action))
            if checker_move.pos >= 0
        )
        key = PACK.pack(*_view(state.play(move).spiel, player))
        found[key] = max(found.get(key, 0), moved)
    most = max(found.values())
    return {key for key, used in found.items() if used == most}


def test_the_plays_are_the_same_through_zermelos_interop() -> None:
    """OpenSpiel's backgammon loaded as a zermelo game (``openspiel:backgammon``), played through
    the State protocol with zermelo's seeded sampling: the plays of every roll reach the positions
    zermelo's kernel reaches, and a finished game's payoff is zermelo's."""
    game = load("openspiel:backgammon(scoring_type=full_scoring)")
    rng = random.Random(3)
    compared = 0
    for _ in range(1):  # the interop lists a double's whole turns by search: slower
        state: Any = game.new()
        while not state.is_terminal():
            if is_chance(state):
                state = state.play(sample_outcome(state, rng))
                continue
            side = state.to_move
            player = int(game.id_of(side))
            theirs = _interop_plays(state, player)
            assert _kernel_plays(_view(state.spiel, player), *_dice(state.spiel)) == theirs
            compared += 1
            while not state.is_terminal() and not is_chance(state) and state.to_move is side:
                state = state.play(rng.choice(state.legal_moves()))
        _compare_end(state.spiel)
        assert state.payoff() == state.spiel.returns()[0]
    assert compared >= 30
