"""zermelo.learn.truth: exact labels of held-out positions, and players measured against them."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.capabilities import PolicyValue
from zermelo.core.errors import (
    BudgetError,
    CapabilityError,
    IllegalMoveError,
    ParseError,
    ZermeloError,
)
from zermelo.core.record import GameSpec
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.games.tictactoe import TicTacToeState
from zermelo.learn.truth import (
    Label,
    LabelFile,
    MoveLabel,
    Truth,
    by_ply,
    by_set,
    cached_labels,
    held_out,
    label_lines,
    labels_text,
    losses,
    measure,
    move_shares,
    never_loses,
    perfect_chooser,
    policy_moves,
    random_chooser,
    random_positions,
    read_labels,
    shipped_labels,
    to_move_positions,
    value_error,
)
from zermelo.search.alphabeta import analyze_position

DATA = Path(__file__).parent / "data" / "connect4"
PONS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2")


def _connect4() -> GameSpec[AnyState]:
    return get_game("connect4")


def _tictactoe() -> GameSpec[AnyState]:
    return get_game("tictactoe")


def _pons_scores(name: str) -> dict[str, int]:
    pairs = (line.split() for line in (DATA / name).read_text().splitlines() if line.strip())
    return {moves: int(score) for moves, score in pairs}


def _shipped() -> list[Label]:
    found = shipped_labels(_connect4())
    assert found is not None
    return found.labels


def _full() -> LabelFile:
    return read_labels((DATA / "Test_L2_R1.labels").read_text())


_TTT = Truth(get_game("tictactoe"))


@pytest.fixture(scope="module")
def ttt_truth() -> Truth:
    return Truth(_tictactoe())


@pytest.fixture(scope="module")
def ttt_starts() -> list[AnyState]:
    return to_move_positions(
        [TicTacToeState.initial(Player.FIRST), TicTacToeState.initial(Player.SECOND)],
        Player.FIRST,
    )


@pytest.fixture(scope="module")
def ttt_labels(ttt_truth: Truth, ttt_starts: list[AnyState]) -> list[Label]:
    return [ttt_truth.label(state) for state in ttt_starts]


# -- Connect Four: the labels against Pons' published scores -------------------------------


def test_the_shipped_labels_have_pons_scores_and_the_planned_sets() -> None:
    labels = _shipped()
    groups = by_set(labels)
    assert list(groups)[:3] == list(PONS)
    assert all(len(groups[name]) == 200 for name in PONS)
    randoms = [name for name in groups if name.startswith("random ply")]
    assert sum(len(groups[name]) for name in randoms) == 200
    for name in PONS:
        scores = _pons_scores(name)
        for label in groups[name]:
            assert label.score == scores[label.position], label.position
    spec = _connect4()
    for name in randoms:
        low, high = (int(n) for n in name.removeprefix("random ply ").split("-"))
        for label in groups[name]:
            state = label.state(spec)
            assert low <= state.ply <= high and not state.is_terminal() and not label.lost
    assert len({label.position for label in labels}) == len(labels)
    size = (Path(__file__).parents[1] / "src/zermelo/learn/data/connect4.labels").stat().st_size
    assert size < 200_000


def test_the_full_test_l2_r1_labels_agree_with_the_published_file() -> None:
    found = _full()
    assert found.game == "connect4" and len(found.labels) == 1000
    scores = _pons_scores("Test_L2_R1")  # the first 400 lines of the set
    positions = [label.position for label in found.labels]
    assert positions[: len(scores)] == list(scores)
    for label in found.labels[: len(scores)]:
        assert label.score == scores[label.position]


def test_each_move_scores_minus_its_childs_score_and_the_best_give_the_positions() -> None:
    spec = _connect4()
    truth = Truth(spec)
    sample = [label for label in _shipped() if label.group == "Test_L3_R1"][:25]
    for label in sample:
        state = label.state(spec)
        assert [entry.move for entry in label.moves] == [
            state.format_move(m) for m in state.legal_moves()
        ]
        for entry in label.moves:
            child = state.play(state.parse_move(entry.move))
            if child.winner is not None:
                assert entry.outcome == 1 and entry.score > 0
            elif child.is_terminal():
                assert entry.outcome == 0 and entry.score == 0
            else:
                assert entry.score == -truth.label(child).score
        best = label.best_moves()
        assert best and all(label.best_score(m) and label.optimal(m) for m in best)
        assert label.score == max(entry.score for entry in label.moves)


def test_a_fresh_labelling_of_a_sample_equals_the_shipped_file() -> None:
    spec = _connect4()
    truth = Truth(spec)
    rng = random.Random(7)
    labels = _shipped()
    quick = [label for label in labels if spec.parse(label.position).ply >= 16]
    for label in rng.sample(quick, 40):
        assert truth.label(truth.read(label.position), label.group) == label


def test_label_lines_rejects_a_wrong_published_score() -> None:
    truth = Truth(_connect4())
    line = (DATA / "Test_L3_R1").read_text().splitlines()[0]
    moves, score = line.split()
    assert label_lines(truth, [line, "", "# a comment"], "x")[0].score == int(score)
    with pytest.raises(CapabilityError, match=f"line 1: '{moves}' scores {score} exactly, not"):
        label_lines(truth, [f"{moves} {int(score) + 1}"], "x")
    with pytest.raises(ParseError, match="line 2"):
        label_lines(truth, ["", moves], "x")


def test_random_positions_are_seeded_and_kept_by_the_rule() -> None:
    truth = Truth(_connect4())
    first = random_positions(truth, random.Random(3), [30, 31, 32], keep=lambda lb: not lb.lost)
    again = random_positions(truth, random.Random(3), [30, 31, 32], keep=lambda lb: not lb.lost)
    assert first == again
    assert [truth.read(label.position).ply for label in first] == [30, 31, 32]
    assert [label.group for label in first] == ["ply 30", "ply 31", "ply 32"]
    with pytest.raises(BudgetError, match="at ply 30"):
        random_positions(truth, random.Random(3), [30], keep=lambda label: False, tries=3)


# -- Connect Four: players measured --------------------------------------------------------


def test_the_hard_level_is_perfect_and_a_random_move_is_far_from_it() -> None:
    from zermelo.agents.connect4 import Connect4Agent

    spec = _connect4()
    labels = _full().labels
    hard = move_shares(labels, Connect4Agent("hard").choose, spec)
    assert (hard.optimal, hard.best_score) == (1.0, 1.0)
    assert hard.positions + hard.lost == 1000 and hard.lost == sum(lb.lost for lb in labels)
    chance = move_shares(labels, random_chooser(1), spec)
    assert 0.3 < chance.optimal < 0.65 and chance.best_score < chance.optimal
    assert chance.optimal_moves == round(chance.optimal * chance.positions)


class _Oracle:
    """A policy-value net that knows the labels: all the prior on the first best move (or spread
    evenly with ``uniform``), and the exact outcome as its value (or ``constant``)."""

    description = "the labels themselves"

    def __init__(
        self,
        labels: Sequence[Label],
        *,
        uniform: bool = False,
        constant: float | None = None,
        truth: Truth | None = None,
    ) -> None:
        self.labels = {label.position: label for label in labels}
        self.truth = truth
        self.uniform = uniform
        self.constant = constant
        self.calls: list[int] = []

    def evaluate(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        self.calls.append(len(states))
        answers = []
        for state in states:
            label = self.labels.get(state.notation())
            if label is None:
                assert self.truth is not None, state
                label = self.truth.label(state)
            moves = [state.format_move(m) for m in state.legal_moves()]
            if self.uniform:
                priors = [1 / len(moves)] * len(moves)
            else:
                priors = [float(m == label.best_moves()[0]) for m in moves]
            value = float(label.outcome) if self.constant is None else self.constant
            answers.append((priors, value))
        return answers


def test_a_net_is_measured_in_batches_its_ties_going_to_the_games_order() -> None:
    spec = _connect4()
    labels = _shipped()
    oracle = _Oracle(labels)
    assert isinstance(oracle, PolicyValue)
    shares = move_shares(labels, oracle, spec)
    assert (shares.optimal, shares.best_score) == (1.0, 1.0)
    assert max(oracle.calls) == 256 and sum(oracle.calls) == shares.positions
    assert value_error(labels, oracle, spec) == 0.0
    flat = _Oracle(labels, uniform=True, constant=0.0)
    first = move_shares(labels, lambda state: state.legal_moves()[0], spec)
    assert move_shares(labels, flat, spec) == first
    states = [label.state(spec) for label in labels[:5]]
    assert policy_moves(flat, states) == [state.legal_moves()[0] for state in states]
    decided = sum(label.outcome != 0 for label in labels) / len(labels)
    assert value_error(labels, flat, spec) == pytest.approx(decided)
    per_set = {name: value_error(group, oracle, spec) for name, group in by_set(labels).items()}
    assert set(per_set.values()) == {0.0} and len(per_set) == 7


class _BadNet:
    description = "answers the wrong number of priors"

    def evaluate(self, states: Sequence[AnyState]) -> list[tuple[list[float], float]]:
        return [([1.0], 0.0) for _ in states]


def test_a_player_or_net_that_answers_nonsense_is_told_so() -> None:
    spec = _connect4()
    labels = [label for label in _shipped() if len(label.moves) > 1 and not label.lost][:3]
    with pytest.raises(ValueError, match="the net gave 1 priors for the"):
        move_shares(labels, _BadNet(), spec)
    with pytest.raises(IllegalMoveError, match="move '9' is not legal in"):
        move_shares(labels, lambda state: 8, spec)
    with pytest.raises(IllegalMoveError, match="move 'x' is not legal"):
        labels[0].optimal("x")


# -- tic-tac-toe ---------------------------------------------------------------------------


def test_the_tic_tac_toe_positions_are_the_4520_with_x_to_move(
    ttt_starts: list[AnyState], ttt_labels: list[Label]
) -> None:
    spec = _tictactoe()
    assert len(ttt_starts) == 4520 and len({s.notation() for s in ttt_starts}) == 4520
    assert all(s.to_move is Player.FIRST and not s.is_terminal() for s in ttt_starts)
    assert all(
        label.state(spec) == state for label, state in zip(ttt_labels, ttt_starts, strict=True)
    )
    assert ttt_labels[0].position == "........." and ttt_labels[0].outcome == 0


def test_tic_tac_toe_labels_equal_alphabetas_exact_values(
    ttt_starts: list[AnyState], ttt_labels: list[Label]
) -> None:
    rng = random.Random(11)
    for index in rng.sample(range(len(ttt_starts)), 150):
        analysis = analyze_position(ttt_starts[index])
        label = ttt_labels[index]
        assert label.score == analysis.value
        assert {str(mv.move): mv.value for mv in analysis.moves} == {
            entry.move: entry.score for entry in label.moves
        }


def test_tic_tac_toe_labels_agree_with_the_tutorials_minimax(ttt_labels: list[Label]) -> None:
    from zermelo.tutorial import TicTacToe

    spec = _tictactoe()
    for label in ttt_labels[::15]:
        game = TicTacToe()
        game.board = label.state(spec).board()  # type: ignore[attr-defined]
        value = game.minimax(0, True)
        assert (value > 0) - (value < 0) == label.outcome


def test_the_perfect_player_never_loses_and_a_random_one_does_with_a_real_line(
    ttt_truth: Truth, ttt_starts: list[AnyState], ttt_labels: list[Label]
) -> None:
    spec = _tictactoe()
    perfect = perfect_chooser(ttt_truth)
    assert move_shares(ttt_labels, perfect, spec).optimal == 1.0
    assert move_shares(ttt_labels, perfect, spec).best_score == 1.0
    assert never_loses(perfect, ttt_truth, ttt_starts) == []
    chance = move_shares(ttt_labels, random_chooser(5), spec)
    assert chance.optimal < 0.7 and chance.lost == sum(lb.lost for lb in ttt_labels) > 0
    choose = random_chooser(5)
    failures = never_loses(choose, ttt_truth, ttt_starts)
    assert len(failures) > 1000
    for failure in failures[:200]:
        state = spec.parse(failure.position)
        assert failure.ended < failure.outcome == ttt_truth.label(state).outcome
        for index, text in enumerate(failure.line):
            if index % 2 == 1:  # the perfect player's reply keeps its outcome
                assert ttt_truth.label(state).optimal(text)
            state = state.play(state.parse_move(text))
        assert state.is_terminal()
        ended = 0 if state.winner is None else (1 if state.winner is Player.FIRST else -1)
        assert ended == failure.ended
    # Losses are the failures that end in a loss from a position not lost; a won position only
    # drawn is a failure but not a loss.
    lost = losses(failures)
    assert lost and all(f.ended == -1 and f.outcome >= 0 for f in lost)
    drawn = [f for f in failures if f.outcome == 1 and f.ended == 0]
    assert drawn and not set(map(id, drawn)) & set(map(id, lost))


def test_never_loses_explores_every_perfect_reply() -> None:
    """A player that is perfect but for one blunder in a position that the perfect player's first
    best replies never lead to: following one line alone would miss it."""
    spec = _tictactoe()
    truth = Truth(spec)
    perfect = perfect_chooser(truth)

    def best(state: TicTacToeState) -> int:
        return cast(int, perfect(state))

    start = TicTacToeState.initial()
    # The one line: the player's perfect move, the first best reply, and so on.
    line, state = set(), start
    while not state.is_terminal():
        line.add(state)
        state = state.play(best(state))
    # The first position off that line, reached by keeping replies, where a move loses.
    after = None
    frontier = [start]
    while after is None:
        state = frontier.pop(0)
        reply = state.play(best(state))
        for move in reply.legal_moves() if not reply.is_terminal() else []:
            if not truth.label(reply).optimal(str(move)):
                continue
            child = reply.play(move)
            if child.is_terminal():
                continue
            label = truth.label(child)
            if child not in line and any(e.outcome < label.outcome for e in label.moves):
                after = child
                break
            frontier.append(child)
    label = truth.label(after)
    blunder = next(entry.move for entry in label.moves if entry.outcome < label.outcome)

    def flawed(state: AnyState) -> Hashable:
        return after.parse_move(blunder) if state == after else perfect(state)

    failures = never_loses(flawed, spec, [start])
    assert [(f.position, f.outcome, f.ended) for f in failures] == [(".........", 0, -1)]
    replay, passed = start, False
    for text in failures[0].line:
        passed = passed or replay == after
        replay = replay.play(replay.parse_move(text))
    assert passed and replay.is_terminal() and replay.winner is Player.SECOND
    assert never_loses(perfect, truth, [start]) == []


def test_truth_refuses_games_it_cannot_label_exactly() -> None:
    with pytest.raises(CapabilityError, match="no exact analysis and is not a quick game"):
        Truth(get_game("chess"))
    with pytest.raises(CapabilityError, match="chance or hidden information"):
        Truth(get_game("pig"))
    with pytest.raises(BudgetError, match="stored 50 positions"):
        Truth(_tictactoe(), node_limit=50).label(TicTacToeState.initial())
    with pytest.raises(ValueError, match="is over"):
        Truth(_tictactoe()).label(TicTacToeState.parse("XXXOO...."))


# -- label files ---------------------------------------------------------------------------


def test_label_files_round_trip() -> None:
    text = (Path(__file__).parents[1] / "src/zermelo/learn/data/connect4.labels").read_text()
    found = read_labels(text)
    assert labels_text(found.game, found.labels, found.options) == text
    ttt = [Truth(_tictactoe()).label(TicTacToeState.parse("X...O.... X"), "a b")]
    again = read_labels(labels_text("tictactoe", ttt))
    assert again.labels == ttt and again.game == "tictactoe"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a label file"),
        ("# zermelo truth labels 1\n", "names no game"),
        ("# zermelo truth labels 1\n# game g\nA\tB\n", "line 3: expected 5 tab-separated"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t2\t1\t1:1:1\n", "outcome '2'"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t1\tx\t1:1:1\n", "score 'x'"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t1\tnan\t1:1:1\n", "score 'nan'"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t1\t1\t1:1\n", "move '1:1'"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t1\t1\t\n", "has no move"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t1\t1\t1:1:1 1:1:1\n", "listed twice"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t0\t1\t1:1:1\n", "best move's outcome"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t1\t2\t1:1:1\n", "best move's score"),
        ("# zermelo truth labels 1\n# game g\n# options [1]\n", "line 3: the options"),
        ("# zermelo truth labels 1\n# game g\ng\tp\t-1\t999999\t1:-1:999999\n", "contradicts"),
    ],
)
def test_a_bad_label_file_gets_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        read_labels(text)


_field = st.text(st.characters(blacklist_characters="\t\n\r"), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_reading_any_text_parses_or_says_what_is_wrong(text: str) -> None:
    for candidate in (text, "# zermelo truth labels 1\n# game g\n" + text):
        try:
            read_labels(candidate)
        except ParseError as error:
            assert str(error) and "\n" not in str(error)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            _field,
            _field,
            st.lists(
                st.tuples(
                    st.text("abc123", min_size=1, max_size=3),
                    st.sampled_from([-1, 0, 1]),
                    st.integers(-50, 50),
                ),
                min_size=1,
                max_size=5,
                unique_by=lambda m: m[0],
            ),
        ),
        max_size=5,
    )
)
def test_any_labels_round_trip_through_a_file(
    rows: list[tuple[str, str, list[tuple[str, int, int]]]],
) -> None:
    labels = []
    for group, position, moves in rows:
        if group.startswith("#"):
            continue
        entries = tuple(
            MoveLabel(move.replace(":", ""), outcome, float(score))
            for move, outcome, score in moves
        )
        if len({e.move for e in entries}) != len(entries) or not all(e.move for e in entries):
            continue
        labels.append(
            Label(
                position,
                max(e.outcome for e in entries),
                max(e.score for e in entries),
                entries,
                group,
            )
        )
    again = read_labels(labels_text("g", labels))
    assert again.labels == labels


def test_cached_labels_label_once_and_again_when_the_source_changes(tmp_path: Path) -> None:
    truth = Truth(_connect4())
    lines = (DATA / "Test_L3_R1").read_text().splitlines()[:5]
    source = tmp_path / "set"
    source.write_text("\n".join(lines) + "\n")
    cache = tmp_path / "cache" / "set.labels"
    first = cached_labels(truth, source, "L3", cache)
    assert [label.score for label in first] == [int(line.split()[1]) for line in lines]
    assert read_labels(cache.read_text()).labels == first
    cache.write_text(cache.read_text().replace("\nL3\t", "\nkept\t"))
    assert {label.group for label in cached_labels(truth, source, "L3", cache)} == {"kept"}
    source.write_text("\n".join(lines[:2]) + "\n")
    again = cached_labels(truth, source, "L3", cache)
    assert again == first[:2] and read_labels(cache.read_text()).labels == first[:2]


def test_by_ply_groups_in_bucket_order() -> None:
    spec = _connect4()
    labels = _shipped()
    groups = by_ply(labels, spec)
    assert sum(len(group) for group in groups.values()) == len(labels)
    for name, group in groups.items():
        low, high = (int(n) for n in name.removeprefix("ply ").split("-"))
        assert all(low <= label.state(spec).ply <= high for label in group)
    names = list(groups)
    assert names == sorted(names, key=lambda n: int(n.split()[1].split("-")[0]))
    with pytest.raises(ValueError, match="is in no bucket"):
        by_ply(labels, spec, buckets=((0, 3),))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=20), max_size=4))
def test_label_lines_of_any_text_label_or_say_what_is_wrong(lines: list[str]) -> None:
    truth = _TTT
    try:
        labels = label_lines(truth, lines, "fuzz")
    except ZermeloError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert all(label.group == "fuzz" for label in labels)


def test_truth_imports_and_measures_without_torch() -> None:
    import os
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from zermelo.games.registry import get_game\n"
        "from zermelo.learn.truth import move_shares, random_chooser, shipped_labels\n"
        "spec = get_game('connect4'); labels = shipped_labels(spec).labels\n"
        "print(move_shares(labels, lambda s: s.legal_moves()[0], spec).positions)\n"
    )
    src = str(Path(__file__).parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sum(not label.lost for label in _shipped()))


def test_a_checkpoint_is_measured_on_the_held_out_positions() -> None:
    spec = _tictactoe()
    labels = held_out(spec)
    assert len(labels) == 4520 and held_out(spec) is labels
    oracle = _Oracle(labels, truth=_TTT)
    measured = measure(spec, {}, oracle, sims=20, positions=30, seed=3)
    assert measured["alone"] == measured["alone_best"] == 1.0
    assert measured["value_error"] == 0.0
    assert measured["positions"] == sum(not label.lost for label in labels)
    assert measured["searched_positions"] == 30 and measured["searched"] == 1.0
    flat = _Oracle(labels, uniform=True, constant=0.0)
    again = measure(spec, {}, flat, sims=0, positions=0, seed=3)
    assert again["alone"] == move_shares(labels, flat, spec).optimal < 0.9
    assert "searched" not in again
    c4 = _connect4()
    shipped = _shipped()
    per_set = measure(c4, {}, _Oracle(shipped, constant=0.0), sims=0, positions=0, seed=1)
    for name, group in by_set(shipped).items():
        decided = sum(label.outcome != 0 for label in group) / len(group)
        assert per_set[f"value_error {name}"] == pytest.approx(decided)
        assert per_set[f"alone {name}"] == 1.0
    assert measure(get_game("chess"), {}, oracle, sims=1, positions=1, seed=1) == {}


class _Loop:
    """A toy game whose moves go round: 0 -> 1 -> 0 ..., and from 1 a move ends it (a draw)."""

    def __init__(self, at: int, ply: int = 0) -> None:
        self.at = at
        self.ply = ply

    @property
    def to_move(self) -> Player:
        return Player(self.ply % 2)

    winner = None

    def legal_moves(self) -> list[int]:
        return [] if self.at == 2 else ([1] if self.at == 0 else [0, 2])

    def play(self, move: int) -> _Loop:
        return _Loop(move, self.ply + 1)

    def is_terminal(self) -> bool:
        return self.at == 2

    def key(self) -> Hashable:
        return self.at

    def notation(self) -> str:
        return str(self.at)

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Loop) and other.at == self.at

    def __hash__(self) -> int:
        return self.at


def test_a_game_that_repeats_positions_is_refused_not_searched_forever() -> None:
    spec = GameSpec[AnyState](
        name="loop", title="Loop", new=lambda: _Loop(0), parse=lambda t: _Loop(int(t)), quick=True
    )
    with pytest.raises(CapabilityError, match="loop reaches '1' again below itself"):
        Truth(spec).label(_Loop(0))


class _Again:
    """A toy game where the first move keeps the turn: at 0 the first player moves to 1 (and
    moves again) or to 3 (a draw); at 1 it moves to 2, where it has won."""

    def __init__(self, at: int) -> None:
        self.at = at

    @property
    def to_move(self) -> Player:
        return Player.SECOND if self.at in (2, 3) else Player.FIRST

    @property
    def ply(self) -> int:
        return {0: 0, 1: 1, 2: 2, 3: 1}[self.at]

    @property
    def winner(self) -> Player | None:
        return Player.FIRST if self.at == 2 else None

    def legal_moves(self) -> list[int]:
        return {0: [1, 3], 1: [2]}.get(self.at, [])

    def play(self, move: int) -> _Again:
        return _Again(move)

    def is_terminal(self) -> bool:
        return self.at in (2, 3)

    def key(self) -> Hashable:
        return self.at

    def notation(self) -> str:
        return str(self.at)

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)


def test_a_move_that_keeps_the_turn_keeps_the_value_on_the_same_side() -> None:
    from zermelo.core.scores import WIN

    spec = GameSpec[AnyState](
        name="again",
        title="Again",
        new=lambda: _Again(0),
        parse=lambda t: _Again(int(t)),
        quick=True,
    )
    label = Truth(spec).label(_Again(0))
    assert label.outcome == 1 and label.score == WIN - 2
    assert [(e.move, e.outcome) for e in label.moves] == [("1", 1), ("3", 0)]
    assert label.best_moves() == ("1",)
