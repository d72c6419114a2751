"""The command line is one tool: every usage error exits 2, every GAME command's help names the
games (from the registry, with their aliases), ``zermelo games`` lists what each game supports,
a near-miss game name gets a did-you-mean on every face, OpenSpiel games use their own symbols,
and the chess prompt shows a sensible example move."""

from __future__ import annotations

import pytest
from tests.conftest import run_cli

from zermelo.cli.common import game_commands
from zermelo.games.registry import all_games, get_game
from zermelo.ui.terminal.boards import chess_example, view_for

USAGE_ERRORS = [
    ("play", "chees"),
    ("play", "--level", "x"),
    ("play", "tictactoe", "--first", "nobody"),
    ("play", "tictactoe", "--time", "0"),
    ("play", "connect4", "--width", "99"),
    ("analyze", "chees"),
    ("analyze", "tictactoe", "XXXXXXXXXX"),
    ("analyze", "tictactoe", "--depth", "-1"),
    ("explain", "tictactoe"),
    ("explain", "chess", "nonsense"),
    ("tune", "tictactoe"),
    ("tune", "chess", "--games", "1"),
    ("serve", "--port", "99999"),
    ("solve", "tictactoe", "--bogus"),
    ("solve", "chess"),
    ("arena", "tictactoe", "hard"),
    ("arena", "tictactoe", "hard", "nobody"),
    ("replay", "/nonexistent/file"),
    ("perft", "tictactoe"),
    ("perft", "chess", "startpos", "--depth", "99"),
    ("uci", "--bogus"),
    ("games", "extra"),
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=" ".join)
def test_every_usage_error_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    done = run_cli(*args)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_the_arena_with_one_agent_exits_2() -> None:
    done = run_cli("arena", "tictactoe", "hard")
    assert (done.returncode, done.stderr) == (
        2,
        "zermelo: error: the arena needs at least two agents, got 1\n",
    )


@pytest.mark.parametrize("command", ["play", "analyze", "explain", "tune", "solve", "perft"])
def test_each_game_commands_help_names_its_games_and_aliases(command: str) -> None:
    done = run_cli(command, "--help")
    # The help wraps at hyphens: "english- draughts", "international- draughts".
    text = " ".join(done.stdout.split()).replace("- draughts", "-draughts")
    # The list of games only: a rule option's help names its games too ("rule of pig").
    listed = text.partition("GAME is one of: ")[2].partition("; 'zermelo games'")[0]
    names = listed.split(", ") if listed else []
    for spec in all_games():
        entry = spec.name + (f" ({', '.join(spec.aliases)})" if spec.aliases else "")
        assert (entry in listed) == (command in game_commands(spec)), entry
        assert (spec.name in [name.split(" (")[0] for name in names]) == (entry in listed)


def test_play_help_lists_the_aliases() -> None:
    text = " ".join(run_cli("play", "--help").stdout.split())
    assert "tictactoe (ttt, tic-tac-toe), connect4 (c4, connect-four), gomoku (caro)" in text


def test_the_games_table() -> None:
    done = run_cli("games")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["game"] == [
        "game", "aliases", "play", "analyze", "solve", "explain", "tune", "perft", "uci", "hub",
        "az", "kind",
    ]  # fmt: skip
    assert rows["chess"][1:] == ["-", "✓", "✓", "·", "✓", "✓", "✓", "✓", "·", "·", "-"]
    shipped = "✓" if get_game("tictactoe").learned is not None else "·"
    assert rows["tictactoe"][1:] == [
        "ttt,", "tic-tac-toe", "✓", "✓", "✓", "·", "·", "·", "·", "·", shipped, "-"
    ]  # fmt: skip
    assert rows["checkers"][3:] == ["✓", "✓", "·", "✓", "·", "✓", "·", "·", "·", "-"]
    assert rows["dama"][3:] == ["✓", "✓", "·", "✓", "✓", "✓", "·", "✓", "·", "-"]
    for spec in all_games():  # the shipped nets (the record's learned)
        assert rows[spec.name][-2] == ("✓" if spec.learned is not None else "·"), spec.name
    assert (
        "az: a learned net plays the game (zermelo play GAME --level az; the arena's agent "
        "az:sims=N)." in done.stdout
    )
    for spec in all_games():  # the games of chance and hidden cards are marked
        marks = rows[spec.name][-1].split(",")
        assert ("c" in marks) == spec.chance and ("h" in marks) == spec.hidden, spec.name
        assert ("p" in marks) == spec.scored, spec.name
    assert len([name for name in rows if name in {s.name for s in all_games()}]) == len(all_games())


def test_game_commands_come_from_the_record() -> None:
    assert game_commands(get_game("chess")) >= {"uci", "tune", "perft", "explain"}
    assert "solve" not in game_commands(get_game("chess"))
    assert "explain" in game_commands(get_game("checkers"))
    assert "uci" not in game_commands(get_game("othello"))
    assert "hub" in game_commands(get_game("dammen")) and "hub" not in game_commands(
        get_game("draughts")
    )


@pytest.mark.parametrize("command", [("play",), ("analyze",), ("explain",), ("tune",), ("perft",)])
def test_a_near_miss_gets_a_did_you_mean_on_the_command_line(command: tuple[str, ...]) -> None:
    done = run_cli(*command, "chees", *(["--depth", "1"] if command == ("perft",) else []))
    assert done.returncode == 2
    assert done.stderr == "zermelo: error: unknown game 'chees'; did you mean 'chess'?\n"


def test_the_chess_prompt_shows_a_sound_example_move() -> None:
    spec = get_game("chess")
    start = spec.new()
    assert view_for(spec).prompt(start) == "Your move, White (e.g. e4): "
    assert chess_example(start.play(start.parse_move("e4"))) == "e5"
    assert chess_example(spec.parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1")) == "O-O"
    assert chess_example(spec.parse("7k/8/8/8/8/8/8/KR6 w - - 0 1")) == "Ka2"
