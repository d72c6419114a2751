"""The ``draughts`` board kind's JSON for boards other than checkers': a 10x10 numbered board and
an 8x8 board of named squares. The positions are stand-ins on the draughts kernel
(tests/draughts/board_fakes.py), so the kind is shown to know no game; the real games' answers
through /api/state are tested below them."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tests.draughts.board_fakes import (
    DAMA,
    INTERNATIONAL,
    FakeDama,
    FakeInternational,
    dama_start,
    international_start,
    masks,
    spec_of,
)

from zermelo.core.limits import Limits
from zermelo.core.record import Ref
from zermelo.core.result import MoveValue, SearchResult
from zermelo.games.registry import get_game
from zermelo.ui.web.adapters import KINDS, Adapter

TWO_WAYS = FakeInternational(
    masks(INTERNATIONAL, "21"),
    masks(INTERNATIONAL, "15", "27", "28", "33", "12"),
    masks(INTERNATIONAL, "21"),
)
# White men on 49 and 38: only 38x27x18 (two pieces) is legal, not 49x40 (one).
INTL_MAX = FakeInternational(
    masks(INTERNATIONAL, "49", "38"), masks(INTERNATIONAL, "32", "44", "22", "30"), 0
)
DAMA_MAX = FakeDama(masks(DAMA, "g1", "a4"), masks(DAMA, "f6", "d4", "b4", "g2"), 0)


def adapter(name: str, state: FakeInternational | FakeDama) -> Adapter:
    return Adapter(spec_of(name, state), KINDS["draughts"])


def test_a_10x10_board_names_its_squares_1_to_50_with_coordinates() -> None:
    state = international_start()
    board = adapter("fake-international", state).board(state)
    assert (board["kind"], board["width"], board["height"]) == ("draughts", 10, 10)
    assert board["points"][0] == ["", "1", "", "2", "", "3", "", "4", "", "5"]
    assert board["points"][9] == ["46", "", "47", "", "48", "", "49", "", "50", ""]
    assert board["cells"][0] == ".b.b.b.b.b"
    assert board["cells"][9] == "w.w.w.w.w."
    assert board["cells"][4] == board["cells"][5] == ".........."
    assert board.get("files") == list("abcdefghij")
    assert board.get("ranks") == [str(n) for n in range(10, 0, -1)]
    assert board.get("plain") is False
    assert [p["move"] for p in board.get("paths", [])] == [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ]  # fmt: skip


def test_short_captures_come_with_their_full_paths() -> None:
    # The notation writes a capture by its ends where they say enough (38x18): the page gets the
    # squares it lands on in between all the same.
    board = adapter("fake-international", INTL_MAX).board(INTL_MAX)
    assert board.get("paths") == [{"move": "38x18", "path": ["38", "27", "18"], "capture": True}]
    two = adapter("fake-international", TWO_WAYS).board(TWO_WAYS)
    assert [p["path"] for p in two.get("paths", [])] == [
        ["21", "32", "23", "1"],
        ["21", "32", "23", "7"],
        ["21", "38", "29", "1"],
        ["21", "38", "29", "7"],
    ]
    assert two["cells"][4][1] == "W"  # square 21: a king in capitals


def test_a_board_of_named_squares_is_plain_and_its_paths_are_names() -> None:
    state = dama_start()
    board = adapter("fake-dama", state).board(state)
    assert (board["width"], board["height"]) == (8, 8)
    assert board["points"][0] == [f"{f}8" for f in "abcdefgh"]
    assert board["points"][7] == [f"{f}1" for f in "abcdefgh"]
    assert board["cells"][1] == board["cells"][2] == "bbbbbbbb"
    assert board["cells"][5] == board["cells"][6] == "wwwwwwww"
    assert board.get("plain") is True
    assert board.get("files") == list("abcdefgh")
    assert board.get("ranks") == [str(n) for n in range(8, 0, -1)]
    paths = board.get("paths", [])
    assert {"move": "d3-d4", "path": ["d3", "d4"], "capture": False} in paths
    assert len(paths) == 8
    capture = adapter("fake-dama", DAMA_MAX).board(DAMA_MAX)
    assert capture.get("paths") == [
        {"move": "a4xc4xe4", "path": ["a4", "c4", "e4"], "capture": True}
    ]


def test_the_last_move_is_its_squares_and_the_cell_it_ends_on() -> None:
    dama = adapter("fake-dama", dama_start())
    (move,) = DAMA_MAX.legal_moves()
    assert dama.last_squares(DAMA_MAX, move) == ["a4", "c4", "e4"]
    assert dama.last_cell is not None
    assert dama.last_cell(DAMA_MAX, move) == [4, 4]  # e4: row 4 from the top, column e
    intl = adapter("fake-international", international_start())
    assert intl.last_squares(TWO_WAYS, (21, 38, 29, 1)) == ["21", "38", "29", "1"]
    assert intl.last_cell is not None
    assert intl.last_cell(TWO_WAYS, (21, 38, 29, 1)) == [0, 1]


def test_checkers_board_keeps_its_shape_and_gains_only_the_paths() -> None:
    spec = get_game("checkers")
    start = spec.new()
    board = KINDS["draughts"].draw(spec, start)
    assert board["points"][0] == ["", "1", "", "2", "", "3", "", "4"]
    assert board["cells"][0] == ".b.b.b.b"
    assert board.get("files") == [] and board.get("ranks") == []
    assert board.get("plain") is False
    assert [p["path"] for p in board.get("paths", [])][:2] == [["9", "13"], ["9", "14"]]
    assert all(
        p["move"] == ("x" if p["capture"] else "-").join(p["path"]) for p in board.get("paths", [])
    )


# -- the real games through /api/state and /api/play ---------------------------------------------


def test_international_state_has_its_10x10_board_and_legal_paths(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "international"}).json()
    board = answer["board"]
    assert (board["kind"], board["width"], board["height"]) == ("draughts", 10, 10)
    assert board["points"][0] == ["", "1", "", "2", "", "3", "", "4", "", "5"]
    assert board["points"][9][0] == "46"
    assert board["cells"][0] == ".b.b.b.b.b" and board["cells"][9] == "w.w.w.w.w."
    assert board["files"] == list("abcdefghij")
    assert board["ranks"] == [str(n) for n in range(10, 0, -1)]
    assert board["plain"] is False
    assert answer["to_move"] == "White"
    assert [p["move"] for p in board["paths"]] == answer["legal"]
    assert board["paths"][3] == {"move": "32-28", "path": ["32", "28"], "capture": False}


def test_international_short_captures_come_with_their_paths(client: TestClient) -> None:
    answer = client.post(
        "/api/state", json={"game": "international", "position": "W:W38,49:B22,30,32,44"}
    ).json()
    assert answer["legal"] == ["38x18"]
    assert answer["board"]["paths"] == [
        {"move": "38x18", "path": ["38", "27", "18"], "capture": True}
    ]
    # The path the page sends is a legal move, played and named as the game writes it.
    played = client.post(
        "/api/play",
        json={
            "game": "international",
            "position": "W:W38,49:B22,30,32,44",
            "move": "38x27x18",
            "ai": False,
        },
    ).json()
    assert played["moves"] == ["38x18"]
    assert played["last"] == [3, 4]  # square 18: row 3, column e
    assert played["board"]["last"] == ["38", "27", "18"]
    assert played["board"]["cells"][3][4] == "w"


def test_dama_state_has_its_plain_board_of_named_squares(client: TestClient) -> None:
    answer = client.post("/api/state", json={"game": "dama", "moves": ["d3-d4"]}).json()
    board = answer["board"]
    assert (board["kind"], board["width"], board["height"]) == ("draughts", 8, 8)
    assert board["points"][0] == [f"{f}8" for f in "abcdefgh"]
    assert board["points"][7] == [f"{f}1" for f in "abcdefgh"]
    assert board["plain"] is True
    assert board["files"] == list("abcdefgh") and board["ranks"] == list("87654321")
    assert board["cells"][4] == "...w...."  # d4
    assert answer["last"] == [4, 3]
    assert board["last"] == ["d3", "d4"]
    assert answer["to_move"] == "Black"
    assert [p["move"] for p in board["paths"]] == answer["legal"]
    assert all(len(p["path"]) == 2 and not p["capture"] for p in board["paths"])


def test_dama_king_captures_come_with_every_landing_square(client: TestClient) -> None:
    position = "W:WKe6:Bd6,a4,f2,h7,d3"
    answer = client.post("/api/state", json={"game": "dama", "position": position}).json()
    assert answer["board"]["paths"] == [
        {"move": "e6xa2xh8", "path": ["e6", "a6", "a2", "h2", "h8"], "capture": True},
        {"move": "e6xf1", "path": ["e6", "a6", "a3", "f3", "f1"], "capture": True},
        {"move": "e6xa3xh8", "path": ["e6", "a6", "a3", "h3", "h8"], "capture": True},
    ]
    for path in answer["board"]["paths"]:
        sent = "x".join(path["path"])
        played = client.post(
            "/api/play", json={"game": "dama", "position": position, "move": sent, "ai": False}
        ).json()
        assert played["moves"] == [path["move"]]
        assert played["board"]["last"] == path["path"]


# -- the values of a game whose engine is its record's engine_analysis ----------------------------


class _Analysis:
    """An engine_analysis that values each legal move by its index, its depth the node budget."""

    def analyze(self, state: object, limits: Limits) -> SearchResult[object]:
        assert limits.time == 0.5
        assert isinstance(state, FakeInternational)
        moves = tuple(
            MoveValue(move, 0.5 - index, False, (move,))
            for index, move in enumerate(state.legal_moves())
        )
        return SearchResult(
            moves[0].move, moves[0].value, (moves[0].move,), limits.nodes or 0, False, moves=moves
        )


ANALYSIS = _Analysis()


def test_the_page_values_come_from_the_records_engine_analysis() -> None:
    # The draughts states have no evaluate(): the generic search cannot value their moves.
    state = INTL_MAX
    spec = dataclasses.replace(
        spec_of("fake-international", state),
        engine_analysis=Ref("tests.web.test_web_draughts_boards:ANALYSIS"),
    )
    found = Adapter(spec, KINDS["draughts"]).analyze(state, 0.5, 1000)
    assert [(entry.move, entry.value) for entry in found.moves] == [((38, 27, 18), 0.5)]
    assert found.depth == 1000  # the node budget reached it


def test_a_search_process_starts_with_games_that_have_no_evaluation() -> None:
    # Its warm-up searched every start position with the generic alpha-beta, which needs an
    # evaluation: "a search process did not start: BudgetError: ... InternationalState has none".
    from zermelo.ui.web.tasks import ready

    assert ready() is True


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["international", "dama", "checkers"]),
    st.lists(st.integers(0, 10**6), max_size=40),
)
def test_every_path_the_page_may_send_is_its_legal_move(game: str, choices: list[int]) -> None:
    # Positions reached by play: each legal move's path, joined as the page joins it, is read back
    # as that move, and its squares are the board's.
    spec = get_game(game)
    adapter = Adapter(spec, KINDS["draughts"])
    state = spec.new()
    for choice in choices:
        moves = sorted(state.legal_moves())
        if not moves or state.is_terminal():
            break
        board = adapter.board(state)
        names = {name for row in board["points"] for name in row if name}
        paths = board.get("paths", [])
        assert [p["move"] for p in paths] == [state.format_move(m) for m in moves]
        for move, path in zip(moves, paths, strict=True):
            assert set(path["path"]) <= names and len(path["path"]) >= 2
            sent = ("x" if path["capture"] else "-").join(path["path"])
            assert state.parse_move(sent) == move, (sent, move)
        state = state.play(moves[choice % len(moves)])
