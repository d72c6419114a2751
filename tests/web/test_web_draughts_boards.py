"""The ``draughts`` board kind's JSON for boards other than checkers': a 10x10 numbered board and
an 8x8 board of named squares. The positions are stand-ins on the draughts kernel
(tests/draughts/board_fakes.py), so the kind is shown to know no game; the real games' answers
through /api/state are tested below them."""

from __future__ import annotations

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
