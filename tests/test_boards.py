"""The terminal's boards: one view per board kind, drawn from the record's grid, for any size."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from conftest import run_cli
from zermelo.core.record import BOARD_KINDS
from zermelo.games.registry import all_games, get_game
from zermelo.ui.terminal.boards import VIEWS, DropView, GridView, PlaceView, view_for
from zermelo.ui.terminal.session import GameOptions, Session


def test_the_terminal_has_one_view_per_board_kind_and_every_record_names_one() -> None:
    assert sorted(VIEWS) == sorted(BOARD_KINDS)
    for spec in all_games():
        assert spec.board in BOARD_KINDS, spec.name
    # A kind is a drawing, never a game: no view is named after one (but chess's and
    # backgammon's boards, which the plan of issue 25 names after the game they draw).
    assert not set(VIEWS) & {spec.name for spec in all_games()} - {"chess", "backgammon"}


def test_connect_four_on_a_4x4_board_asks_for_its_real_columns() -> None:
    done = run_cli(
        "play", "connect4", "--width", "4", "--height", "4", "--first", "human", "--once",
        "--seed", "1", stdin="1\n9\n",
    )  # fmt: skip
    out = done.stdout
    assert "Enter the number of a column (1-4) to drop your disc into it." in out
    assert "(1-7)" not in out
    assert "Your turn (1-4): 1\n" in out
    assert "Please enter a number between 1 and 4!" in out  # for 9
    assert " 1 2 3 4\n|.|.|.|.|\n" in out and "\n+-------+\n" in out


def _session(game: str, text: str, **options: int) -> str:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100, highlight=False)
    chosen = GameOptions(game=game, first="human", seed=3, level="easy", repeat=False)
    chosen.game_options = dict(options)
    Session(chosen, stdin=io.StringIO(text), console=console).run()
    return out.getvalue()


def test_a_drop_board_of_any_width_is_drawn_from_its_grid() -> None:
    out = _session("connect4", "5\n", width=5, height=4)
    assert out.splitlines()[1] == "Enter the number of a column (1-5) to drop your disc into it."
    assert " 1 2 3 4 5\n|.|.|.|.|.|\n|.|.|.|.|.|\n|.|.|.|.|.|\n|.|.|.|.|X|\n+---------+" in out


def test_a_place_board_with_coordinates_names_its_own_centre() -> None:
    out = _session("mnk", "zz\n", width=4, height=3, k=3)
    assert "Enter a move as a column letter and a row number, such as c2." in out
    assert "   a b c d\n 3 . . . . 3\n 2 . . . . 2\n 1 . . . . 1\n   a b c d\n" in out
    assert "Your move (e.g. c2): zz\nPlease enter a column a-d and a row 1-3, such as c2." in out


def test_a_place_board_without_coordinates_is_the_tutorials_ruled_board() -> None:
    view = view_for("tictactoe")
    state = get_game("tictactoe").parse("XO.......")
    assert (
        view.render(state, 1, rich=False) == "X | O |  \n---------\n  |   |  \n---------\n  |   |  "
    )
    assert view.intro(state)[:2] == ["Enter positions (0-8) as shown below:", "0 | 1 | 2"]
    assert view.prompt(state) == "Your turn (0-8): "
    assert view.read(state, "1").message == "Invalid move! Try again."
    assert view.read(state, "x").message == "Please enter a number between 0 and 8!"
    assert view.read(state, " 4 ").move == 4


def test_the_winning_line_comes_from_the_record_and_is_highlighted() -> None:
    spec = get_game("tictactoe")
    state = spec.parse("XXXOO....")
    assert spec.grid(state).line == ((0, 0), (0, 1), (0, 2))
    drawn = view_for(spec).render(state, 2, rich=True)
    assert drawn.count("[bold red on green]X[") == 3 and "[bold blue on green]" not in drawn


def test_chess_names_the_last_move_from_the_position_it_was_played_in() -> None:
    spec = get_game("chess")
    before = spec.new()
    move = before.parse_move("Nf3")
    drawn = view_for(spec).render(before.play(move), move, rich=False, before=before)
    assert drawn.splitlines()[-1] == "Last move: Nf3"


def test_an_unknown_kind_is_drawn_as_a_grid() -> None:
    import dataclasses

    spec = dataclasses.replace(get_game("tictactoe"), board="hexagons")
    assert isinstance(view_for(spec), GridView)
    assert isinstance(view_for("tictactoe"), PlaceView)
    assert isinstance(view_for("connect4"), DropView)


_STATES = [
    ("tictactoe", "XO.......", {}),
    ("connect4", "", {"width": 4, "height": 4}),
    ("mnk", "", {"width": 5, "height": 4, "k": 3}),
    ("checkers", "B:W14,22,23,30:B9,1", {}),
    ("chess", "", {}),
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_STATES), st.text(max_size=40))
def test_every_view_reads_any_line_as_a_legal_move_or_one_line(
    case: tuple[str, str, dict[str, int]], text: str
) -> None:
    name, position, options = case
    spec = get_game(name)
    state = spec.parse(position) if position else spec.new(**options)
    answer = view_for(spec).read(state, text)
    if answer.message is None:
        assert answer.move in state.legal_moves()
    else:
        assert answer.move is None and answer.message and "\n" not in answer.message
