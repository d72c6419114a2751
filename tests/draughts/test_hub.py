"""``zermelo hub`` as a draughts GUI drives it (issue 24): a process on pipes, every read bounded
by a timeout; the line syntax and the two move notations, checked against pydraughts (test-only
oracle) and against the known examples of Scan's ``protocol.txt``."""

from __future__ import annotations

import contextlib
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts  # pydraughts: the oracle (GPL, tests only)
from conftest import english_env, run_cli
from zermelo.core.scores import WIN
from zermelo.games.draughts.kernel import legal
from zermelo.games.draughts.rules import Rules
from zermelo.games.registry import get_game
from zermelo.solvers.draughts.engine import MATE_BOUND, EngineResult
from zermelo.ui.hub import (
    DraughtsState,
    Found,
    HubBoard,
    HubLine,
    HubSession,
    HubSyntaxError,
    Level,
    Position,
    Searcher,
    format_line,
    hub_score,
    hub_to_pdn,
    parse_level,
    parse_line,
    pdn_to_hub,
)

COMMAND = [sys.executable, "-m", "zermelo", "hub"]
START = "W" + "b" * 20 + "e" * 10 + "w" * 20
"""The start position in Hub's notation (protocol.txt's own example)."""
KING_CAPTURE = "W:W27,28,K40:B19,22,23,33"
"""White to move: 27x38 takes 22, 23 and 33 (PDN 27x38; Hub 27x38x22x23x33)."""


class Gui:
    """``zermelo hub`` on pipes, as a GUI runs it."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=english_env(),
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.handshake: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def until(self, command: str, timeout: float = 120) -> list[str]:
        """The lines up to and with the first whose command is ``command``."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {command!r} within {timeout} s; lines: {seen}") from None
            if line is None:
                raise AssertionError(f"the engine ended; its lines: {seen}")
            seen.append(line)
            if line.split(" ", 1)[0] == command:
                return seen

    def quiet(self, seconds: float) -> list[str]:
        """The lines that come within ``seconds``."""
        seen: list[str] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            seen.append(line)
        return seen

    def close(self) -> int:
        with contextlib.suppress(BrokenPipeError):
            self.send("quit")
        return self.process.wait(60)


@pytest.fixture(scope="module")
def gui() -> Iterator[Gui]:
    engine = Gui()
    engine.send("hub")
    engine.handshake = engine.until("wait", 180)
    engine.send("set-param name=level value=hard")
    engine.send("init")
    engine.handshake += engine.until("ready", 180)
    yield engine
    engine.close()


def _args(line: str) -> dict[str, str]:
    parsed = parse_line(line)
    assert parsed is not None
    return dict(parsed.args)


def _oracle_moves(hub_position: str, moves: list[str]) -> set[str]:
    """The Hub notation of every legal move after ``moves`` from ``hub_position`` (pydraughts)."""
    board = draughts.Board(variant="standard", fen=hub_position)
    for text in moves:
        board.push(next(m for m in board.legal_moves() if m.hub_move == text))
    return {m.hub_move for m in board.legal_moves()}


# -- the protocol through a process ---------------------------------------------------------------


def test_the_handshake_names_the_engine_its_parameters_then_waits(gui: Gui) -> None:
    lines = gui.handshake
    wait = lines.index("wait")
    ids = [line for line in lines[:wait] if line.startswith("id ")]
    assert len(ids) == 1
    assert _args(ids[0])["name"] == "zermelo"
    assert {"version", "author", "country"} <= set(_args(ids[0]))
    params = {
        _args(line)["name"]: _args(line) for line in lines[:wait] if line.startswith("param ")
    }
    assert params["variant"] == {
        "name": "variant",
        "value": "normal",
        "type": "enum",
        "values": "normal dama",
    }
    assert params["level"]["values"] == "easy medium hard"
    assert lines[wait:] == ["wait", "ready"]  # a set-param is silent; init answers ready


def test_a_position_with_moves_and_a_move_time_gets_info_then_a_legal_done(gui: Gui) -> None:
    moves = ["32-28", "19-23", "28x19x23"]
    gui.send(f'pos pos={START} moves="{" ".join(moves)}"')
    gui.send("level move-time=0.3")
    begun = time.monotonic()
    gui.send("go think")
    lines = gui.until("done", 60)
    assert time.monotonic() - begun < 30  # a 0.3 s move, with room for a loaded machine
    done = _args(lines[-1])
    # the capture is forced: one of the two recaptures
    assert _oracle_moves(START, moves) == {"13x24x19", "14x23x19"}
    assert done["move"] in {"13x24x19", "14x23x19"}
    infos = [_args(line) for line in lines if line.startswith("info ")]
    assert infos, lines
    assert {"depth", "score", "nodes", "time", "nps", "pv"} <= set(infos[-1])
    assert infos[-1]["pv"].split()[0] == done["move"]


def test_go_think_from_the_start_answers_one_of_the_nine_first_moves(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level move-time=0.3")
    gui.send("go think")
    done = _args(gui.until("done", 60)[-1])
    assert done["move"] in _oracle_moves(START, [])
    if "ponder" in done:  # the expected answer is legal after the move
        assert done["ponder"] in _oracle_moves(START, [done["move"]])


def test_ping_is_answered_during_a_search_and_stop_ends_it_with_a_move(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level infinite")
    gui.send("go analyze")
    gui.send("ping")
    before = gui.until("pong", 30)
    assert not any(line.startswith("done") for line in before)
    time.sleep(0.3)
    begun = time.monotonic()
    gui.send("stop")
    lines = gui.until("done", 60)
    assert time.monotonic() - begun < 30
    assert _args(lines[-1])["move"] in _oracle_moves(START, [])
    gui.send("ping")
    assert gui.until("pong", 30) == ["pong"]


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_levels_play_legal_moves(gui: Gui, level: str) -> None:
    gui.send(f"set-param name=level value={level}")
    try:
        gui.send(f'pos pos={START} moves="32-28 19-23"')
        gui.send("level move-time=0.3")
        gui.send("go think")
        assert _args(gui.until("done", 60)[-1])["move"] == "28x19x23"  # forced
        gui.send(f"pos pos={START}")
        gui.send("go think")
        assert _args(gui.until("done", 60)[-1])["move"] in _oracle_moves(START, [])
    finally:
        gui.send("set-param name=level value=hard")


def test_a_depth_level_stops_at_that_depth(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level depth=3")
    gui.send("go analyze")
    lines = gui.until("done", 60)
    depths = [int(_args(line)["depth"]) for line in lines if line.startswith("info ")]
    assert depths and max(depths) == 3
    assert _args(lines[-1])["move"] in _oracle_moves(START, [])


def test_a_node_level_ends_the_search(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level nodes=3000")
    gui.send("go analyze")  # with no clock: only the node budget ends it
    lines = gui.until("done", 60)
    assert _args(lines[-1])["move"] in _oracle_moves(START, [])


def test_no_time_at_all_still_gets_a_move(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level move-time=0")
    gui.send("go think")
    lines = gui.until("done", 60)
    assert not any(line.startswith("error") for line in lines), lines
    assert _args(lines[-1])["move"] in _oracle_moves(START, [])


def test_a_clock_level_ends_the_search_on_its_own(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level time=3 inc=0")  # 3 s left, 30 moves to go: a tenth of a second
    gui.send("go think")
    assert _args(gui.until("done", 60)[-1])["move"] in _oracle_moves(START, [])


def test_go_ponder_plays_after_ponder_hit(gui: Gui) -> None:
    gui.send(f"pos pos={START}")
    gui.send("level move-time=0.2")
    gui.send("go ponder")
    gui.send("ponder-hit")
    assert _args(gui.until("done", 60)[-1])["move"] in _oracle_moves(START, [])


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("frobnicate now", "unknown command 'frobnicate'"),
        ('pos pos="Wbbb', "no closing double quote"),
        ("=pos", "must start with a command name"),
        ("go", "expected go think, go ponder or go analyze"),
        ("set-param name=hash value=1", "unknown parameter 'hash'"),
        ("set-param name=variant value=frisian", "variant must be one of normal dama"),
        ("level depth=deep", "depth: expected a whole number"),
        ("level move-time=nan", "move-time: expected a number of seconds"),
    ],
)
def test_a_malformed_or_unknown_command_gets_one_error_line(
    gui: Gui, line: str, fragment: str
) -> None:
    gui.send(line)
    gui.send("ping")
    lines = gui.until("pong", 30)
    assert len(lines) == 2, lines
    assert lines[0].startswith("error message=")
    assert fragment in _args(lines[0])["message"]


@pytest.mark.parametrize(
    ("position", "fragment"),
    [
        ("Wbbb", "51 characters"),
        ("X" + START[1:], "side to move must be W or B"),
        ("W" + "q" + START[2:], "character 2 is 'q'"),
        ("W" + "e" * 50, "no pieces"),
        ("W" + "w" + "e" * 48 + "b", "not a legal international position"),  # a man on 1
    ],
)
def test_a_bad_position_gets_one_error_line_and_leaves_no_position(
    gui: Gui, position: str, fragment: str
) -> None:
    gui.send(f"pos pos={position}")
    gui.send("ping")
    lines = gui.until("pong", 30)
    assert len(lines) == 2, lines
    assert fragment in _args(lines[0])["message"]
    gui.send("go think")
    lines = gui.until("done", 30)
    assert lines == ['error message="no position to search: send pos pos=<position> first"', "done"]


def test_an_illegal_move_keeps_the_moves_before_it(gui: Gui) -> None:
    gui.send(f'pos pos={START} moves="32-28 19-23 31-27"')  # 28x19x23 is forced: 31-27 is not
    gui.send("ping")
    lines = gui.until("pong", 30)
    assert len(lines) == 2, lines
    message = _args(lines[0])["message"]
    assert "illegal move '31-27'" in message and "after the 2 moves before it" in message
    gui.send("level move-time=0.1")
    gui.send("go think")
    assert _args(gui.until("done", 60)[-1])["move"] == "28x19x23"


def test_the_end_of_input_exits_zero() -> None:
    # (quit exits 0 too: the dama process below ends that way)
    engine = Gui()
    engine.send("ping")
    assert engine.until("pong", 180) == ["pong"]
    assert engine.process.stdin is not None
    engine.process.stdin.close()
    assert engine.process.wait(180) == 0


def test_a_usage_error_of_the_command_exits_2_with_one_line() -> None:
    done = run_cli("hub", "--game", "checkers")
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == ""  # standard output is the protocol's, even for a usage error


def test_the_command_s_help_is_in_the_language_asked() -> None:
    done = run_cli("--lang", "nl", "hub", "--help")
    assert done.returncode == 0, done.stderr
    assert "Draai de damengine als Hub-engine" in " ".join(done.stdout.split())


# -- the two notations and the position string ----------------------------------------------------


@pytest.fixture(scope="module")
def board() -> HubBoard:
    return HubBoard(get_game("international"))


def test_the_start_position_is_protocol_txt_s_string(board: HubBoard) -> None:
    assert board.position(board.start) == START
    assert board.read_position(START) == board.start


def test_a_king_capture_in_both_notations(board: HubBoard) -> None:
    state = board.spec.parse(KING_CAPTURE)
    assert pdn_to_hub(board, state, "27x38") == "27x38x22x23x33"
    # Hub may list the captured pieces in any order; zermelo writes them in ascending order
    for text in ("27x38x22x23x33", "27x38x33x22x23", "27x38"):
        assert state.parse_move(hub_to_pdn(board, state, text)) == state.parse_move("27x38")
    with pytest.raises(ValueError, match=r"names every captured square \(27x38x22x23x33\)"):
        board.read_move(state, "27x38x22x23")  # one captured piece left out
    with pytest.raises(ValueError, match="captured twice"):
        board.read_move(state, "27x38x22x22x23")
    with pytest.raises(ValueError, match="not a square"):
        board.read_move(state, "27x51")


def _random_states(board: HubBoard, count: int, seed: int) -> Iterator[DraughtsState]:
    """States reached by seeded random play from the start (zermelo's own moves: only the
    final positions are asked of the slow oracle)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = board.start
        for _ in range(rng.randrange(10, 80)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(rng.choice(moves))
        if state.legal_moves():
            found += 1
            yield state


def test_hub_and_pdn_moves_agree_with_pydraughts_on_positions_reached_by_play(
    board: HubBoard,
) -> None:
    captures = 0
    for state in _random_states(board, 40, seed=24):
        oracle = draughts.Board(variant="standard", fen=state.notation())
        captures += sum(1 for move in oracle.legal_moves() if len(move.captures) > 1)
        position = board.position(state)
        assert position == oracle._game.get_fen()
        assert board.position(board.read_position(position)) == position
        ours = {board.move_text(board.triple(state, move)) for move in state.legal_moves()}
        assert ours == {move.hub_move for move in oracle.legal_moves()}
        for move in oracle.legal_moves():
            pdn = hub_to_pdn(board, state, move.hub_move)
            assert state.parse_move(pdn) == state.parse_move(move.pdn_move)
            assert pdn_to_hub(board, state, pdn) == move.hub_move
    assert captures >= 5  # the sample has captures of several pieces, where the notations differ


# -- dama: zermelo's extension --------------------------------------------------------------------

DAMA_START = "W" + "e" * 8 + "b" * 16 + "e" * 16 + "w" * 16 + "e" * 8


def test_dama_positions_read_the_board_from_the_top_and_moves_name_the_squares() -> None:
    dama = HubBoard(get_game("dama"))
    assert dama.position(dama.start) == DAMA_START
    assert dama.read_position(DAMA_START) == dama.start
    state = dama.spec.parse("W:Wa4,h2:Ba5,a7,Kh8")
    assert dama.position(state) == "W" + "e" * 7 + "B" + "b" + "e" * 15 + "b" + "e" * 7 + "w" + (
        "e" * 22 + "w" + "e" * 8
    )
    assert pdn_to_hub(dama, state, "a4xa6xa8") == "a4xa8xa5xa7"
    assert state.parse_move(hub_to_pdn(dama, state, "a4xa8xa7xa5")) == (24, 40, 56)
    with pytest.raises(ValueError, match="not a legal dama position"):
        dama.read_position("W" + "e" * 56 + "w" + "e" * 7)  # a White man on its own back row


def test_zermelo_hub_plays_dama_through_a_process() -> None:
    engine = Gui("--game", "dama")
    try:
        engine.send("hub")
        lines = engine.until("wait", 180)
        variant = next(_args(line) for line in lines if "name=variant" in line)
        assert variant["value"] == "dama"
        engine.send("init")
        engine.until("ready", 180)
        engine.send(f'pos pos={DAMA_START} moves="a3-a4 a6-a5"')
        engine.send("level move-time=0.3")
        engine.send("go think")
        # the one legal move: a4 takes a5 and a7, landing on a8
        assert _args(engine.until("done", 60)[-1])["move"] == "a4xa8xa5xa7"
    finally:
        assert engine.close() == 0


# -- the line parser, fuzzed ----------------------------------------------------------------------

_names = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"), blacklist_characters='="'),
    min_size=1,
    max_size=8,
).filter(lambda text: all(c.isprintable() and not c.isspace() for c in text))
_values = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters='"'), max_size=12
).filter(lambda text: all(c.isprintable() for c in text))


@given(st.text(max_size=80))
@settings(max_examples=400, deadline=None)
def test_any_line_parses_or_gets_a_syntax_error_never_a_traceback(line: str) -> None:
    try:
        parsed = parse_line(line)
    except HubSyntaxError as error:
        assert str(error)
    else:
        assert parsed is None or parsed.command


@given(_names, st.lists(st.tuples(_names, _values), max_size=5))
@settings(max_examples=300, deadline=None)
def test_a_written_line_reads_back_the_same(command: str, pairs: list[tuple[str, str]]) -> None:
    assert parse_line(format_line(command, *pairs)) == HubLine(command, tuple(pairs))


class _Instant(Searcher):
    """A searcher that answers the first legal move at once: the fuzz tests the session, not
    the engine."""

    def __init__(self, rules: object) -> None:
        self.rules = rules

    def new_game(self) -> None:
        return None

    def search(
        self,
        state: object,
        depth: int | None,
        nodes: int | None,
        time_limit: float | None,
        history: Sequence[Position],
        stop: threading.Event,
        progress: Callable[[Found, float], None],
    ) -> Found | None:
        return None


_words = st.sampled_from(
    [
        "hub",
        "init",
        "new-game",
        "pos",
        "level",
        "go",
        "stop",
        "ping",
        "ponder-hit",
        "set-param",
        "think",
        "ponder",
        "analyze",
        "pos=",
        "moves=",
        "depth=",
        "time=",
        "move-time=",
        "name=",
        "value=",
        "variant",
        "level",
        "dama",
        "normal",
        "easy",
        START,
        "32-28",
        "28x19x23",
        '"',
        "=",
        "x",
        "-",
        "1e9",
        "-1",
        "nan",
        "inf",
        "99999999999999999999",
    ]
)


@given(st.lists(st.lists(_words, min_size=1, max_size=5).map(" ".join), max_size=8))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_session_answers_any_sequence_of_lines_with_protocol_lines(lines: list[str]) -> None:
    out: list[str] = []
    session = HubSession(out.append, searcher_factory=_Instant)
    try:
        for line in lines:
            if not session.handle(line):
                break
            if session._search is not None:
                session._search.thread.join(30)
    finally:
        session.close()
    for line in out:
        parsed = parse_line(line)
        assert parsed is not None
        assert parsed.command in {"id", "param", "wait", "ready", "pong", "info", "done", "error"}


def test_scores_are_in_men_and_a_win_is_99_point_something() -> None:
    assert hub_score(150, WIN, MATE_BOUND) == 1.5
    assert hub_score(-7, WIN, MATE_BOUND) == -0.07
    assert hub_score(WIN - 3, WIN, MATE_BOUND) == 99.97  # a win in 3 plies
    assert hub_score(-(WIN - 4), WIN, MATE_BOUND) == -99.96


class _Recording:
    """An engine that answers the first legal move and keeps what it was asked."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.calls: list[dict[str, object]] = []

    def new_game(self) -> None:
        return None

    def search(self, white: int, black: int, kings: int, side: int, **limits: object) -> object:
        self.calls.append({"position": (white, black, kings, side), **limits})
        move = legal(self.rules, white, black, kings, side)[0]
        triple = (move.path[0], move.path[-1], move.captured)
        result = EngineResult(triple, 12, 1, 1, (triple,))
        progress = limits["progress"]
        assert callable(progress)
        progress(result)
        return result


def test_the_engine_gets_the_clock_and_the_positions_before_for_repetitions() -> None:
    recording: list[_Recording] = []

    def searcher(rules: Rules) -> Searcher:
        made = Searcher(rules)
        made.engine = _Recording(rules)  # type: ignore[assignment]
        recording.append(made.engine)  # type: ignore[arg-type]
        return made

    out: list[str] = []
    session = HubSession(out.append, searcher_factory=searcher)
    try:
        session.handle("init")
        session.handle(f'pos pos={START} moves="32-28 18-23"')
        session.handle("level move-time=0.5")
        session.handle("go think")
        assert session._search is not None
        session._search.thread.join(30)
    finally:
        session.close()
    engine = recording[-1]
    call = engine.calls[-1]
    board = HubBoard(get_game("international"))
    first = board.start
    second = first.play(first.parse_move("32-28"))
    assert call["history"] == (
        (first.white, first.black, first.kings, 0),
        (second.white, second.black, second.kings, 1),
    )
    assert call["time_limit"] == 0.5
    assert call["depth"] is None and call["nodes"] is None
    assert out[-2].startswith("info depth=1 score=0.12 nodes=1 ")
    assert out[-1].startswith("done move=")


def test_ready_waits_for_the_engine_so_no_move_s_clock_pays_for_loading_it() -> None:
    made: list[_Recording] = []

    def searcher(rules: Rules) -> Searcher:
        built = Searcher(rules)
        built.engine = _Recording(rules)  # type: ignore[assignment]
        made.append(built.engine)  # type: ignore[arg-type]
        return built

    searched_at_ready: list[int] = []

    def write(line: str) -> None:
        if line == "ready":
            searched_at_ready.append(len(made[0].calls) if made else -1)

    session = HubSession(write, searcher_factory=searcher)
    try:
        session.handle("hub")
        session.handle("init")
    finally:
        session.close()
    assert searched_at_ready == [1]  # the warm-up search (depth 1) ran before ready


def test_a_command_right_after_done_is_not_refused_as_during_the_search() -> None:
    out: list[str] = []
    written = threading.Event()

    def write(line: str) -> None:
        out.append(line)
        if line.startswith("done"):
            written.set()
            time.sleep(0.3)  # the search's thread is still alive while the GUI reads done

    session = HubSession(write, searcher_factory=_Instant)
    try:
        session.handle("init")
        session.handle(f"pos pos={START}")
        session.handle("go think")
        assert written.wait(30)
        session.handle(f"pos pos={START}")  # what a GUI sends as soon as it reads done
        session.handle("ping")
    finally:
        session.close()
    after = out[out.index(next(line for line in out if line.startswith("done"))) + 1 :]
    assert after == ["pong"]


def test_level_budgets() -> None:
    assert parse_level(HubLine("level", (("move-time", "1.5"),))).budget() == 1.5
    assert Level(time=30.0).budget() == pytest.approx(1.0)
    assert Level(time=30.0, moves=10).budget() == pytest.approx(3.0)
    assert Level(time=30.0, inc=2.0).budget() == pytest.approx(3.0)
    assert Level(time=0.1).budget() == pytest.approx(0.01)  # never more than is left
    assert Level(infinite=True, move_time=1.0).budget() is None
    assert Level(move_time=0.0).budget() == 0.01  # the engine refuses no time at all
    level = parse_level(HubLine("level", (("depth", "x"), ("nodes", "100"), ("zzz", "1"))))
    assert (level.depth, level.nodes) == (None, 100)
    assert level.problems == ("depth: expected a whole number, not 'x'",)
