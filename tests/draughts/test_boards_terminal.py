"""The terminal's draughts board (kind ``draughts``) for its three shapes: checkers' 8x8 numbered
board (unchanged), international draughts' 10x10 numbered board with coordinates, and Turkish
dama's 8x8 board of named squares. Exact output, kings, the last move, and typed moves that follow
the maximum capture. The international and dama positions are stand-ins on the draughts kernel
(tests/draughts/board_fakes.py): the view knows no game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
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
from zermelo.ui.terminal.boards import DraughtsView

# A white king on 21 with four captures of three: two end on 1 and two on 7, by different
# squares in between (21x32x23x1 and 21x38x29x1).
TWO_WAYS = FakeInternational(
    masks(INTERNATIONAL, "21"),
    masks(INTERNATIONAL, "15", "27", "28", "33", "12"),
    masks(INTERNATIONAL, "21"),
)
# Dama: the man on a4 must take two (a4xc4xe4); g1xg3 takes only one and is not offered.
DAMA_MAX = FakeDama(masks(DAMA, "g1", "a4"), masks(DAMA, "f6", "d4", "b4", "g2"), 0)


def test_checkers_board_is_unchanged() -> None:
    # The output of the view before the kind drew any other board (git stash of this change).
    spec = get_game("checkers")
    start = spec.new()
    after = start.play((11, 15))
    assert DraughtsView(spec).render(after, (11, 15), rich=False, before=start) == (
        "  .  b  .  b  .  b  .  b    1-4\n"
        "  b  .  b  .  b  .  b  .    5-8\n"
        "  .  b  .  b  . 11  .  b   9-12\n"
        " 13  . 14  .  b  . 16  .  13-16\n"
        "  . 17  . 18  . 19  . 20  17-20\n"
        "  w  .  w  .  w  .  w  .  21-24\n"
        "  .  w  .  w  .  w  .  w  25-28\n"
        "  w  .  w  .  w  .  w  .  29-32\n"
        "Last move: 11-15"
    )
    rich = DraughtsView(spec).render(after, (11, 15), rich=True, before=start)
    rows = rich.split("\n")
    assert rows[2] == (
        "[on grey85]   [/on grey85][bold black on grey42] ● [/][on grey85]   [/on grey85]"
        "[bold black on grey42] ● [/][on grey85]   [/on grey85][grey70 on dark_goldenrod]11 [/]"
        "[on grey85]   [/on grey85][bold black on grey42] ● [/][dim]   9-12[/dim]"
    )


def test_the_international_start_has_numbers_a_key_and_coordinates() -> None:
    state = international_start()
    assert DraughtsView(spec_of("fake-international", state)).render(state, None, rich=False) == (
        "     a  b  c  d  e  f  g  h  i  j\n"
        "10   .  b  .  b  .  b  .  b  .  b    1-5\n"
        " 9   b  .  b  .  b  .  b  .  b  .   6-10\n"
        " 8   .  b  .  b  .  b  .  b  .  b  11-15\n"
        " 7   b  .  b  .  b  .  b  .  b  .  16-20\n"
        " 6   . 21  . 22  . 23  . 24  . 25  21-25\n"
        " 5  26  . 27  . 28  . 29  . 30  .  26-30\n"
        " 4   .  w  .  w  .  w  .  w  .  w  31-35\n"
        " 3   w  .  w  .  w  .  w  .  w  .  36-40\n"
        " 2   .  w  .  w  .  w  .  w  .  w  41-45\n"
        " 1   w  .  w  .  w  .  w  .  w  .  46-50\n"
        "     a  b  c  d  e  f  g  h  i  j"
    )


def test_an_international_king_and_its_last_capture() -> None:
    view = DraughtsView(spec_of("fake-international", TWO_WAYS))
    move = (21, 32, 23, 1)
    after = TWO_WAYS.play(move)
    assert view.render(after, move, rich=False, before=TWO_WAYS) == (
        "     a  b  c  d  e  f  g  h  i  j\n"
        "10   .  W  .  2  .  3  .  4  .  5    1-5\n"
        " 9   6  .  7  .  8  .  9  . 10  .   6-10\n"
        " 8   . 11  . 12  . 13  . 14  .  b  11-15\n"
        " 7  16  . 17  . 18  . 19  . 20  .  16-20\n"
        " 6   . 21  . 22  . 23  . 24  . 25  21-25\n"
        " 5  26  . 27  . 28  . 29  . 30  .  26-30\n"
        " 4   . 31  . 32  .  b  . 34  . 35  31-35\n"
        " 3  36  . 37  . 38  . 39  . 40  .  36-40\n"
        " 2   . 41  . 42  . 43  . 44  . 45  41-45\n"
        " 1  46  . 47  . 48  . 49  . 50  .  46-50\n"
        "     a  b  c  d  e  f  g  h  i  j\n"
        "Last move: 21x32x23x1"
    )
    rich = view.render(after, move, rich=True, before=TWO_WAYS).split("\n")
    # The king is a K, and every square of the capture's path is highlighted: 21, 32, 23, 1.
    assert rich[1].startswith(
        "10 [on grey85]   [/on grey85][bold bright_white on dark_goldenrod] K [/]"
    )
    assert rich[5].count("on dark_goldenrod") == 2  # 21 and 23
    assert "[grey70 on dark_goldenrod]32 [/]" in rich[7]
    assert sum(row.count("dark_goldenrod") for row in rich) == 4


def test_the_dama_board_names_its_squares_and_marks_the_last_move() -> None:
    view = DraughtsView(spec_of("fake-dama", DAMA_MAX))
    (move,) = DAMA_MAX.legal_moves()
    after = DAMA_MAX.play(move)
    assert view.render(after, move, rich=False, before=DAMA_MAX) == (
        "     a  b  c  d  e  f  g  h\n"
        " 8   .  .  .  .  .  .  .  . 8\n"
        " 7   .  .  .  .  .  .  .  . 7\n"
        " 6   .  .  .  .  .  b  .  . 6\n"
        " 5   .  .  .  .  .  .  .  . 5\n"
        " 4   .  .  .  .  w  .  .  . 4\n"
        " 3   .  .  .  .  .  .  .  . 3\n"
        " 2   .  .  .  .  .  .  b  . 2\n"
        " 1   .  .  .  .  .  .  w  . 1\n"
        "     a  b  c  d  e  f  g  h\n"
        "Last move: a4xc4xe4"
    )
    rich = view.render(after, move, rich=True, before=DAMA_MAX).split("\n")
    assert rich[5] == (
        " 4 [grey70 on dark_goldenrod]   [/][grey70 on tan]   [/][grey70 on dark_goldenrod]   [/]"
        "[grey70 on tan]   [/][bold bright_white on dark_goldenrod] ● [/][grey70 on tan]   [/]"
        "[grey70 on tan]   [/][grey70 on tan]   [/] 4"
    )
    start = dama_start()
    assert view.render(start, None, rich=False).split("\n")[1:4] == [
        " 8   .  .  .  .  .  .  .  . 8",
        " 7   b  b  b  b  b  b  b  b 7",
        " 6   b  b  b  b  b  b  b  b 6",
    ]


def test_typed_international_captures_are_read_from_their_paths() -> None:
    view = DraughtsView(spec_of("fake-international", TWO_WAYS))
    assert view.read(TWO_WAYS, "21x23x1").move == (21, 32, 23, 1)
    assert view.read(TWO_WAYS, "21x38x1").move == (21, 38, 29, 1)
    assert view.read(TWO_WAYS, "21X32X23X7").move == (21, 32, 23, 7)
    assert view.read(TWO_WAYS, "21x1").message == (
        "'21x1' fits more than one capture: 21x32x23x1, 21x38x29x1"
    )
    assert view.read(TWO_WAYS, "21-26").message == (
        "A capture is mandatory: 21x32x23x1, 21x32x23x7, 21x38x29x1, 21x38x29x7"
    )
    assert view.read(TWO_WAYS, "a1-a2").message == (
        "'a1-a2' is not a move: type squares 1-50 like 21x32x23x1"
    )


def test_typed_dama_moves_are_names_and_follow_the_maximum_capture() -> None:
    view = DraughtsView(spec_of("fake-dama", DAMA_MAX))
    assert view.read(DAMA_MAX, "a4xe4").move == (24, 26, 28)
    assert view.read(DAMA_MAX, "A4XC4XE4").move == (24, 26, 28)
    assert view.read(DAMA_MAX, "g1xg3").message == "A capture is mandatory: a4xc4xe4"
    assert view.read(DAMA_MAX, "z9-a1").message == (
        "'z9-a1' is not a move: type squares a1-h8 like a4xc4xe4"
    )
    start = dama_start()
    assert view.read(start, "d3-d4").move == (19, 27)
    assert view.read(start, "?").message is not None


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=24))
def test_any_typed_line_is_a_legal_move_or_one_message(text: str) -> None:
    for state in (TWO_WAYS, DAMA_MAX, dama_start()):
        answer = DraughtsView(spec_of("fake", state)).read(state, text)
        if answer.move is None:
            assert answer.message and "\n" not in answer.message
        else:
            assert answer.move in state.legal_moves()
