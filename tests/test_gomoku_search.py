"""The gomoku engine: it completes fives, blocks fours, answers open threes and finds VCFs."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from zermelo.core.errors import BudgetError, IllegalMoveError, ZermeloError
from zermelo.core.scores import EVAL_LIMIT, WIN
from zermelo.core.state import Player
from zermelo.games.mnk import MnkState, gomoku, new_game
from zermelo.solvers.gomoku import LEVELS, Engine, GomokuPlayer, choose, find_vcf

# Far-away filler stones for O that make no threats (corners and edge midpoints).
O_FILLER = ["a1", "a15", "o1", "o15", "h15", "h1", "a8", "o8"]
X_FILLER = ["c15", "m15", "a12", "o12", "a4", "o4"]


def position(x_stones: str, o_stones: str, to_move: str = "x", exact: bool = False) -> MnkState:
    """A legal position with the given stones (padded with harmless filler as needed)."""
    xs = x_stones.split()
    os_ = o_stones.split()
    extra = 1 if to_move == "o" else 0
    if len(xs) < len(os_) + extra:
        xs += [p for p in X_FILLER if p not in xs][: len(os_) + extra - len(xs)]
    wanted_o = len(xs) - extra
    filler = [p for p in O_FILLER if p not in os_ and p not in xs]
    os_ = os_ + filler[: wanted_o - len(os_)]
    assert len(os_) == wanted_o
    state = gomoku(exact)
    for i in range(max(len(xs), len(os_))):
        if i < len(xs):
            state = state.play(state.parse_move(xs[i]))
        if i < len(os_):
            state = state.play(state.parse_move(os_[i]))
    assert state.winner is None
    return state


NODES = 10_000
"""The node budget of a move in these tests: about half a second here, and the same search
whatever the machine's load (a clock would make the result depend on it)."""


def pick(state: MnkState, level: str = "hard", seed: int | None = None) -> int:
    """The move of a ``level`` engine searching :data:`NODES` nodes, seeded like ``choose``."""
    rng = None if seed is None else random.Random(seed)
    return Engine(level).search(state, None, rng, node_limit=NODES).move


def names(state: MnkState, moves: list[int] | tuple[int, ...]) -> list[str]:
    return [state.format_move(m) for m in moves]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_completes_a_five_rather_than_blocking(level: str) -> None:
    # Both sides have a four; x to move must win, not block.
    state = position("h8 i8 j8 k8", "c3 c4 c5 c6")
    for seed in range(3):
        move = pick(state, level, seed)
        assert state.play(move).winner == Player.FIRST, state.format_move(move)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_blocks_a_four(level: str) -> None:
    # o has a closed four d4-g4 (x on c4); x has only a two.
    state = position("c4 k10 k11", "d4 e4 f4 g4", to_move="x")
    for seed in range(3):
        move = pick(state, level, seed)
        assert state.format_move(move) == "h4"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_answers_an_open_three(level: str) -> None:
    # o: open three e5 f5 g5 with room on both sides; x has scattered stones and no threat.
    state = position("k12 c12 m3", "e5 f5 g5")
    for seed in range(3):
        move = pick(state, level, seed)
        assert state.format_move(move) in {"d5", "h5"}


def vcf_puzzle() -> MnkState:
    # x to move wins by fours: i8 (four on row 8, o must take j8), then i5 makes two fours at once
    # (e5 f5 g5 . i5 on row 5 and i5-i8 on column i).
    return position("e5 f5 g5 i6 i7 f8 g8 h8", "d5 i9 e8")


def replay_vcf(state: MnkState, line: list[int]) -> MnkState:
    """Play the attacker's line with the defender's only replies; returns the final state."""
    attacker = state.to_move
    node = state
    for i, move in enumerate(line):
        node = node.play(move)
        if i == len(line) - 1:
            break
        assert node.winner is None
        wins = [p for p in node.legal_moves() if _completes(node, p, attacker)]
        # The defender must not have a five of its own to play instead.
        assert not any(_completes(node, p, node.to_move) for p in node.legal_moves())
        if len(wins) >= 2:
            # An open or double four: the attacker wins whatever the defender does.
            node = node.play(next(p for p in node.candidate_moves() if p not in wins))
            continue
        assert len(wins) == 1
        node = node.play(wins[0])
    return node


def test_find_vcf_finds_a_forced_win_that_checks_out() -> None:
    state = vcf_puzzle()
    assert state.winning_move() is None
    line = find_vcf(state)
    assert line is not None
    assert replay_vcf(state, line).winner == Player.FIRST


@st.composite
def random_games(draw: st.DrawFn) -> MnkState:
    seed = draw(st.integers(0, 10**6))
    plies = draw(st.integers(4, 40))
    rng = random.Random(seed)
    state = gomoku()
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.candidate_moves()))
    return state


@settings(max_examples=60, deadline=None)
@given(random_games())
def test_engine_never_misses_a_five_or_a_block_and_its_vcfs_are_sound(state: MnkState) -> None:
    assume(not state.is_terminal())
    result = Engine("hard").search(state, None, node_limit=300)
    child = state.play(result.move)
    me = state.to_move
    if state.winning_move() is not None:
        assert child.winner == me
    else:
        threats = [p for p in state.legal_moves() if _completes(state, p, me.opponent)]
        if len(threats) == 1:
            assert result.move == threats[0]
    line = find_vcf(state, 8)
    if line is not None:
        assert replay_vcf(state, line).winner == me


def _completes(state: MnkState, point: int, side: Player) -> bool:
    stones = state.x if side == Player.FIRST else state.o
    return bool(state.geometry.wins_at(stones | 1 << point, point))


def test_engine_plays_the_vcf_and_wins_it_against_itself() -> None:
    state = vcf_puzzle()
    result = Engine("hard").search(state, None, node_limit=4 * NODES)
    assert result.reason == "vcf"
    assert result.value > EVAL_LIMIT
    assert result.describe() == f"win in {len(result.pv)}"
    engine = Engine("hard")
    node = state
    for _ in range(12):
        if node.is_terminal():
            break
        node = node.play(engine.search(node, None, node_limit=NODES).move)
    assert node.winner == Player.FIRST


def test_no_vcf_on_a_quiet_board() -> None:
    assert find_vcf(gomoku()) is None
    assert find_vcf(position("h8", "h9")) is None


def test_empty_board_opens_in_the_centre() -> None:
    assert names(gomoku(), [pick(gomoku())]) == ["h8"]


def test_search_reports_and_is_deterministic_without_rng() -> None:
    state = position("h8 i9", "h9")
    a = Engine("hard").search(state, None, node_limit=3000)
    b = Engine("hard").search(state, None, node_limit=3000)
    assert a.move == b.move
    assert a.value == b.value
    assert a.depth >= 2
    assert a.stats.nodes > 0
    assert a.pv[0] == a.move
    assert abs(a.value) < WIN
    assert not state.play(a.move).is_terminal()


def test_hard_sees_that_losing_is_forced_after_an_open_four() -> None:
    # o has an open four: x cannot stop it; the engine still returns a legal move.
    state = position("c3 c5 k12 m12", "e5 f5 g5 h5")
    result = Engine("hard").search(state, 0.3)
    assert state.play(result.move).winner is None


def test_player_wraps_engine_with_its_rng_and_clock() -> None:
    player = GomokuPlayer("medium", time_limit=0.2, rng=random.Random(4))
    state = position("h8", "h9")
    move = player.choose(state)
    assert move in state.legal_moves()
    assert player.level == "medium"


def test_choose_under_a_clock_still_blocks_a_four() -> None:
    # A single four is blocked before any search, so however little the clock allows.
    state = position("c4 k10 k11", "d4 e4 f4 g4", to_move="x")
    for level in LEVELS:
        assert state.format_move(choose(state, 0.01, random.Random(1), level=level)) == "h4"


def test_errors() -> None:
    with pytest.raises(ZermeloError, match="'brutal'"):
        Engine("brutal")
    with pytest.raises(BudgetError, match="-1"):
        Engine("hard").search(gomoku(), -1)
    won = gomoku()
    for text in ["h8", "a2", "i8", "a4", "j8", "a6", "k8", "a10", "l8"]:
        won = won.play(won.parse_move(text))
    assert won.winner == Player.FIRST
    with pytest.raises(IllegalMoveError, match="game is over"):
        Engine("hard").search(won, 0.1)


def test_exact_rule_engine_does_not_count_on_an_overline() -> None:
    # x: c8 d8 e8 . g8 h8 -- f8 would make six, which does not win with exactly five;
    # x also has a real four elsewhere (k2-n2, j2 taken by o).
    state = position("c8 d8 e8 g8 h8 k2 l2 m2 n2", "j2 c2 d2 e3", exact=True)
    move = pick(state)
    assert state.format_move(move) == "o2"
    assert state.play(move).winner == Player.FIRST


def test_small_board_engine_is_safe() -> None:
    # The engine works on any m,n,k board, e.g. tic-tac-toe: it never loses from the start.
    engine = Engine("hard")
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(3, 3, 3)
        while not state.is_terminal():
            if state.to_move == Player.FIRST:
                state = state.play(engine.search(state, None, node_limit=NODES).move)
            else:
                state = state.play(rng.choice(state.legal_moves()))
        assert state.winner != Player.SECOND


def test_hard_finds_a_double_open_three_by_threat_search() -> None:
    # x: f8 g8 on row 8 and h6 h7 on column h; h8 makes two open threes at once. No fours
    # are on the board, so there is no VCF; the VCT search must find it.
    state = position("f8 g8 h6 h7", "b2 m3 c13 m13")
    assert find_vcf(state) is None
    result = Engine("hard").search(state, None, node_limit=4 * NODES)
    assert state.format_move(result.move) == "h8"
    assert result.reason == "vct"
    assert result.value > EVAL_LIMIT
    # And it converts it against the hard engine's best defence.
    engine = Engine("hard")
    node = state
    for _ in range(14):
        if node.is_terminal():
            break
        node = node.play(engine.search(node, None, node_limit=NODES).move)
    assert node.winner == Player.FIRST


def test_generic_alphabeta_searches_only_near_the_stones() -> None:
    from zermelo.search.alphabeta import alphabeta

    state = position("h8 i8 j8 k8", "c3 c4 c5 c6")
    result = alphabeta(state, depth=2)
    assert state.play(result.move).winner == Player.FIRST  # type: ignore[arg-type]
    blocked = position("c4 k10 k11", "d4 e4 f4 g4")
    assert blocked.format_move(alphabeta(blocked, depth=2).move) == "h4"  # type: ignore[arg-type]
    assert len(blocked.search_moves()) < len(blocked.legal_moves())
    assert new_game(5, 5, 4).search_moves() == new_game(5, 5, 4).legal_moves()


def test_weak_levels_are_reproducible_with_a_seed() -> None:
    state = position("h8 i9 g7", "h9 h7")
    for level in ("easy", "medium"):
        first = [pick(state, level, seed) for seed in range(4)]
        again = [pick(state, level, seed) for seed in range(4)]
        assert first == again


def test_easy_sometimes_misses_an_open_three_hard_never_does() -> None:
    state = position("k12 c12 m3", "e5 f5 g5")
    answers = {"d5", "h5"}
    easy = {state.format_move(pick(state, "easy", s)) for s in range(20)}
    assert easy - answers, "easy should overlook the open three now and then"
    assert easy & answers, "easy should also see it sometimes"
    hard = {state.format_move(pick(state, "hard", s)) for s in range(3)}
    assert hard <= answers
