"""The draughts engine: its search against a plain negamax reference, a known shot, the compiled
kernel against its plain copy, the explainer against the evaluation, pinned node counts, the
analysis capability, the levels and the tuner."""

from __future__ import annotations

import random
from collections.abc import Hashable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.base import Reports
from zermelo.agents.draughts import easy, hard, medium
from zermelo.core.capabilities import TuneRequest
from zermelo.core.errors import InvalidPositionError, ParseError
from zermelo.core.limits import Limits
from zermelo.core.result import SearchResult
from zermelo.core.scores import WIN
from zermelo.games.draughts import kernel
from zermelo.games.draughts.dama import DamaState
from zermelo.games.draughts.international import InternationalState
from zermelo.games.draughts.rules import DAMA, INTERNATIONAL, KMove, Rules
from zermelo.solvers.draughts import search
from zermelo.solvers.draughts.engine import ANALYSIS, EXPLAINER, MAX_DEPTH, DraughtsEngine
from zermelo.solvers.draughts.evaluation import default_weights
from zermelo.solvers.draughts.tuning import DAMA_TUNER, fit, self_play
from zermelo.solvers.kernels import GAME_KERNELS, KERNELS

ORDERING_ONLY = search.SW_TT_MOVE | search.SW_KILLERS | search.SW_HISTORY
"""The switches that change the order of the moves only: with them the search's value at a
depth is the plain negamax value of the same tree."""

Position = tuple[int, int, int, int]


def _play(rules: Rules, position: Position, move: KMove) -> Position:
    white, black, kings, side = position
    return (*kernel.play(rules, white, black, kings, side, move), 1 - side)


class Reference:
    """Plain negamax with the search's rules of the tree: ``depth`` plies (a position with one
    legal move costs none), then the forced captures played out (a side that must capture plays
    every capture; one that need not stands on the static evaluation), a side without a legal
    move in the tree or without pieces in the captures has lost, a repetition since the last man
    move or capture is a draw."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.engine = DraughtsEngine(rules, hash_mb=1)

    def evaluate(self, position: Position) -> int:
        return self.engine.evaluate(*position)

    def quiesce(self, position: Position, ply: int) -> int:
        white, black, kings, side = position
        if (white if side == 0 else black) == 0:
            return -(WIN - ply)
        moves = kernel.legal(self.rules, white, black, kings, side)
        if ply >= search.MAX_PLY or not moves or moves[0].captured == 0:
            return self.evaluate(position)
        return max(-self.quiesce(_play(self.rules, position, m), ply + 1) for m in moves)

    def value(self, position: Position, depth: int) -> int:
        return self._negamax([position], [0], 0, depth)

    def _negamax(self, path: list[Position], quiet: list[int], ply: int, depth: int) -> int:
        position = path[-1]
        if ply > 0:
            back = 4
            while back <= quiet[-1]:
                if path[-1 - back] == position:
                    return 0
                back += 2
        if depth <= 0 or ply >= search.MAX_PLY:
            return self.quiesce(position, ply)
        white, black, kings, side = position
        moves = kernel.legal(self.rules, white, black, kings, side)
        if not moves:
            return -(WIN - ply)
        best = -search.INFINITY
        child_depth = depth if len(moves) == 1 else depth - 1
        for move in moves:
            king_step = move.captured == 0 and kings >> move.path[0] & 1
            path.append(_play(self.rules, position, move))
            quiet.append(quiet[-1] + 1 if king_step else 0)
            best = max(best, -self._negamax(path, quiet, ply + 1, child_depth))
            path.pop()
            quiet.pop()
        return best


def _start(rules: Rules) -> Position:
    state = InternationalState.initial() if rules is INTERNATIONAL else DamaState.initial()
    return state.white, state.black, state.kings, 0


def _random_position(rules: Rules, seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    position = _start(rules)
    for _ in range(plies):
        moves = kernel.legal(rules, *position)
        if not moves:
            break
        position = _play(rules, position, rng.choice(moves))
    return position


def _mask(squares: list[int]) -> int:
    return sum(1 << sq for sq in squares)


# international: 0-based squares (square n is n - 1)
KINGS_ENDING = (_mask([27, 45, 12]), _mask([3, 21, 40]), _mask([27, 3]), 0)
DAMA_KINGS = (_mask([9, 27, 30]), _mask([50, 44, 38]), _mask([27, 44]), 1)

REFERENCE_CASES = [
    (INTERNATIONAL, _start(INTERNATIONAL), 3),
    (DAMA, _start(DAMA), 3),
    (INTERNATIONAL, _random_position(INTERNATIONAL, 1, 30), 3),
    (DAMA, _random_position(DAMA, 2, 30), 2),
    (INTERNATIONAL, KINGS_ENDING, 4),
    (DAMA, DAMA_KINGS, 3),
]


@pytest.mark.parametrize(("rules", "position", "depth"), REFERENCE_CASES)
def test_search_value_equals_plain_negamax(rules: Rules, position: Position, depth: int) -> None:
    expected = Reference(rules).value(position, depth)
    engine = DraughtsEngine(rules, hash_mb=1, switches=ORDERING_ONLY)
    found = engine.search(*position, depth=depth)
    assert found.depth == depth
    assert found.score == expected
    # every root move's value too, each searched with a full window
    analysis = engine.analyze_moves(*position, depth=depth)
    reference = Reference(rules)
    for entry in analysis.moves:
        move = next(
            m
            for m in kernel.legal(rules, *position)
            if (m.path[0], m.path[-1], m.captured) == entry.move
        )
        child = _play(rules, position, move)
        below = depth if len(analysis.moves) == 1 else depth - 1
        value = -reference._negamax([position, child], [0, 0], 1, below)
        assert entry.score == value, entry.move
    assert analysis.score == expected


def test_full_search_agrees_with_the_reference_on_small_positions() -> None:
    """With the table's cutoffs and the reductions on, the root value of a small position at a
    fixed depth is still the plain negamax value (nothing is pruned that could change it here).
    The endgame database stays off: it gives the small children their true values, which the
    reference does not know (tests/draughts/test_engine_egdb.py)."""
    no_database = search.SW_ALL & ~search.SW_EGDB
    for rules, position, depth in REFERENCE_CASES[4:]:
        expected = Reference(rules).value(position, depth)
        found = DraughtsEngine(rules, hash_mb=1, switches=no_database).search(
            *position, depth=depth
        )
        assert found.score == expected


# White 32, 33, 39, 44, 46 against 1, 2, 3, 22, 23: 33-28 gives a man, 22x33 takes it, and
# 39x28x19 takes two back (a shot that wins a man)
SHOT = InternationalState.parse("W:W32,33,39,44,46:B1,2,3,22,23")


def test_finds_the_shot() -> None:
    engine = DraughtsEngine(INTERNATIONAL, hash_mb=1)
    for depth in (1, 2, 4):
        found = engine.search(SHOT.white, SHOT.black, SHOT.kings, 0, depth=depth)
        assert found.move == (32, 27, 0)  # 33-28
        if depth < 3:
            continue  # the line holds the moves of the full-width plies only
        black_takes, white_takes = found.pv[1], found.pv[2]
        assert (black_takes[0], black_takes[1]) == (21, 32)  # 22x33
        assert white_takes[0] == 38 and white_takes[2].bit_count() == 2  # 39x19: two men
    analysis = engine.analyze_moves(SHOT.white, SHOT.black, SHOT.kings, 0, depth=3)
    best, *others = analysis.moves
    assert best.move == (32, 27, 0)
    assert best.score >= 100  # a man up, once the captures are over
    assert all(best.score - other.score >= 40 for other in others)
    # the game's move, through the analysis capability
    result = ANALYSIS.analyze(SHOT, Limits(depth=3))
    assert result.move == (33, 28)
    assert result.pv[:3] == ((33, 28), (22, 33), (39, 28, 19))
    assert {entry.move for entry in result.moves} == set(SHOT.legal_moves())
    assert result.moves[0].value == best.score  # hundredths: the states' unit shows men


@pytest.mark.parametrize("rules", [INTERNATIONAL, DAMA])
def test_compiled_and_plain_kernels_agree(rules: Rules) -> None:
    if not search.COMPILED:
        pytest.skip("numba is not installed: there is no compiled kernel to compare")
    for position, depth in ((_start(rules), 6), (_random_position(rules, 5, 24), 4)):
        compiled = DraughtsEngine(rules, hash_mb=1, compiled=True).search(*position, depth=depth)
        plain = DraughtsEngine(rules, hash_mb=1, compiled=False).search(*position, depth=depth)
        assert plain.move == compiled.move
        assert plain.score == compiled.score
        assert plain.pv == compiled.pv
        assert plain.nodes == compiled.nodes


def test_node_counts_at_fixed_depth_are_pinned() -> None:
    """The search is deterministic: a change to its order, pruning or evaluation shows here."""
    counts = {}
    for rules in (INTERNATIONAL, DAMA):
        found = DraughtsEngine(rules, hash_mb=1).search(*_start(rules), depth=6)
        counts[rules.name] = (found.move, found.score, found.nodes)
    assert counts == PINNED


PINNED: dict[str, tuple[tuple[int, int, int], int, int]] = {
    "international": ((32, 28, 0), 0, 10912),
    "dama": ((18, 26, 0), 0, 13303),
}
"""Move, score and nodes of a depth-6 search of each start position (a 1 MiB table)."""


STATES = [
    InternationalState.initial(),
    SHOT,
    InternationalState.parse("B:WK28,33,39,44:BK3,12,17,18"),
    DamaState.initial(),
]


@pytest.mark.parametrize("state", STATES, ids=lambda s: s.notation()[:24])
def test_explainer_terms_sum_to_the_evaluation(state: InternationalState | DamaState) -> None:
    breakdown = EXPLAINER.explain(state, None)
    side = int(state.to_move)
    engine = DraughtsEngine(type(state).RULES, hash_mb=1)
    assert breakdown.total == engine.evaluate(state.white, state.black, state.kings, side) / 100
    summed = sum(term.contribution for term in breakdown.terms)
    assert summed == pytest.approx(breakdown.total, abs=0.0101)
    names = [term.name for term in breakdown.terms]
    assert names[:2] == ["men", "kings"]
    men = breakdown.terms[0]
    own = state.white if side == 0 else state.black
    other = state.black if side == 0 else state.white
    assert men.value == (own & ~state.kings).bit_count() - (other & ~state.kings).bit_count()


def test_the_start_is_even_for_both_games() -> None:
    for state in (InternationalState.initial(), DamaState.initial()):
        assert EXPLAINER.explain(state, None).total == 0.0


def test_kernels_cover_both_games() -> None:
    assert GAME_KERNELS["international"] == GAME_KERNELS["dama"] == ("draughts-moves", "draughts")
    assert KERNELS["draughts"].module == "zermelo.solvers.draughts.search"


def test_bad_limits_get_one_line() -> None:
    engine = DraughtsEngine(INTERNATIONAL, hash_mb=1)
    position = _start(INTERNATIONAL)
    with pytest.raises(Exception, match="invalid depth"):
        engine.search(*position, depth=MAX_DEPTH + 1)
    with pytest.raises(Exception, match="invalid node count"):
        engine.search(*position, nodes=0)
    with pytest.raises(Exception, match="invalid time"):
        engine.search(*position, time_limit=-1.0)


def test_tuner_lowers_the_loss_on_a_tiny_seeded_run() -> None:
    start = InternationalState.initial()
    samples = self_play(start, 3, seed=7, nodes=150)
    again = self_play(start, 3, seed=7, nodes=150)
    assert samples == again  # seeded: the same games, the same positions
    assert len(samples) > 50
    found = fit(samples, default_weights("international"), iterations=20)
    assert found.error_after < found.error_before
    assert found.weights[:2] == (100.0, 100.0)  # a man stays the scale


def test_tuner_capability_reports_weights_the_explainer_reads(tmp_path: Path) -> None:
    report = DAMA_TUNER.tune(TuneRequest(games=2, match_games=2, seed=3), lambda *_: None)
    assert report.match is not None and sum(report.match) == 2
    before, after = (float(value) for _, value in report.rows[1:3])
    assert after <= before
    path = tmp_path / "dama_weights.json"
    path.write_text(report.weights_json)
    state = DamaState.initial().play(DamaState.initial().legal_moves()[0])
    breakdown = EXPLAINER.explain(state, str(path))
    assert sum(t.contribution for t in breakdown.terms) == pytest.approx(
        breakdown.total, abs=0.0101
    )
    with pytest.raises(ParseError, match="not international"):
        EXPLAINER.explain(InternationalState.initial(), str(path))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_levels_play_legal_seeded_moves(level: str) -> None:
    factory = {"easy": easy, "medium": medium, "hard": hard}[level]
    for state in (SHOT, DamaState.initial()):
        assert factory(5, 0.05).choose(state) in state.legal_moves()
        if level != "hard":  # depth-bound: the same seed, the same move
            first = factory(5, None).choose(state)
            assert factory(5, None).choose(state) == first
    agent = hard(0, None if level == "hard" else 0.05)
    move = agent.choose(SHOT)
    assert isinstance(agent, Reports) and agent.last is not None
    assert agent.last.move == move and agent.last.pv[0] == move
    assert not agent.last.moves or agent.last.moves[0].move == move


def test_analyze_deepens_with_a_line_per_depth() -> None:
    from zermelo.games.registry import get_game
    from zermelo.play.review import deepen

    heard: list[SearchResult[Hashable]] = []
    result = deepen(
        get_game("international"), SHOT, depth=4, time_limit=None, on_depth=heard.append
    )
    assert [found.depth for found in heard] == [1, 2, 3, 4]
    assert result.move == (33, 28)
    assert all(len(found.moves) == len(SHOT.legal_moves()) for found in heard)


def test_other_games_get_one_line() -> None:
    from zermelo.games.checkers import CheckersState

    with pytest.raises(InvalidPositionError, match="international draughts and dama"):
        ANALYSIS.analyze(CheckersState.initial(), Limits(depth=1))
    with pytest.raises(InvalidPositionError, match="international draughts and dama"):
        easy(0, None).choose(CheckersState.initial())


def test_review_reads_draughts_values_in_the_states_unit() -> None:
    """A review's winning chances read a value through the game's unit: hundredths of a man
    for draughts (a whole man is worth about a pawn), not pawns. Read as pawns, the shot's
    +1.6 men would be 160 pawns: certain, and every small slip a blunder."""
    from zermelo.games.registry import get_game
    from zermelo.play.review import GameToReview, review_game

    spec = get_game("international")
    game = GameToReview("game 1", SHOT, ("33-28", "22x33", "39x19"))
    reviewed = review_game(spec, game, depth=3)
    first = reviewed.moves[0]
    assert first.move == first.best == "33-28"
    assert 0.2 < first.chances < 0.9  # a man up: winning chances, not a certain win


def test_web_engine_values_every_move_and_plays_the_level() -> None:
    from zermelo.agents.draughts import WEB

    for state in (SHOT, DamaState.initial()):
        values = WEB.values(state, 0.5, 200_000)
        assert {entry.move for entry in values.moves} == set(state.legal_moves())
        choice = WEB.choose(state, "hard", 0, 0.05)
        assert choice.move in state.legal_moves()
        assert choice.result is not None and choice.result.move == choice.move
    assert WEB.values(SHOT, 0.5, 200_000).move == (33, 28)


masks = st.integers(min_value=-(1 << 65), max_value=1 << 66)


@settings(max_examples=150, deadline=None)
@given(white=masks, black=masks, kings=masks, side=st.integers(-1, 2), dama=st.booleans())
def test_bad_positions_get_one_line(
    white: int, black: int, kings: int, side: int, dama: bool
) -> None:
    """Any masks and side: the engine answers a legal move of a valid position, or refuses the
    position with one InvalidPositionError line (never a crash of the compiled kernel)."""
    rules = DAMA if dama else INTERNATIONAL
    engine = ENGINES[rules.name]
    try:
        found = engine.search(white, black, kings, side, depth=1)
    except InvalidPositionError as error:
        assert "\n" not in str(error)
        return
    legal = kernel.legal(rules, white, black, kings, side)
    assert (found.move is None) == (not legal)
    if found.move is not None:
        assert found.move in {(m.path[0], m.path[-1], m.captured) for m in legal}


ENGINES = {rules.name: DraughtsEngine(rules, hash_mb=1) for rules in (INTERNATIONAL, DAMA)}


@settings(max_examples=60, deadline=None)
@given(raw=st.binary(max_size=300))
def test_weights_files_of_any_bytes_get_one_line(
    raw: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("weights") / "w.json"
    path.write_bytes(raw)
    try:
        EXPLAINER.explain(InternationalState.initial(), str(path))
    except ParseError as error:
        assert "\n" not in str(error)


def test_plays_the_plain_copy_while_the_compiled_kernel_builds() -> None:
    """While the kernels module serves the search plain (its compiled code being built in the
    background), an engine made with ``compiled=None`` plays with the plain copy, whose move
    generator is the plain one too, and moves to the compiled kernel at its next search."""
    from zermelo.core import jit

    if not search.COMPILED:
        pytest.skip("numba is not installed: everything is plain")
    jit.serve_plain(search.__name__, True)
    try:
        engine = DraughtsEngine(INTERNATIONAL, hash_mb=1)
        assert not engine.compiled
        assert not engine.kernel.MOVEGEN.COMPILED
        plain = engine.search(*SHOT[:3], 0, depth=2)
    finally:
        jit.serve_plain(search.__name__, False)
    compiled = engine.search(*SHOT[:3], 0, depth=2)
    assert engine.kernel is search  # the compiled module itself
    assert (compiled.move, compiled.score) == (plain.move, plain.score)


def test_the_draughts_kernels_entry_points_exist() -> None:
    """``is_built`` reads numba's cache of each entry point: one that is not a function of its
    module would leave the kernel never built, and a background build at every start."""
    import importlib

    for name in ("draughts-moves", "draughts"):
        module = importlib.import_module(KERNELS[name].module)
        for entry in KERNELS[name].entry_points:
            assert callable(getattr(module, entry, None)), (name, entry)


def test_a_few_games_do_not_fling_a_weight_far() -> None:
    """Four games of dama once moved the locked men's endgame weight from -10 to +350 (the few
    positions where a term shows were fitted exactly); the ridge prior keeps it near."""
    shipped = default_weights("dama")
    samples = self_play(DamaState.initial(), 4, seed=0)
    found = fit(samples, shipped)
    assert found.error_after < found.error_before
    assert max(abs(a - b) for a, b in zip(found.weights, shipped, strict=True)) < 100
