"""The learned level on the terminal: ``zermelo play GAME --level az`` plays the game's shipped net
(the library's az player, move for move), and a game without one is refused in one line. The game
with a net is the test plugin ``aztoe`` (tests/azplugin.py)."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

import azplugin
from conftest import run_cli
from zermelo.agents.spec import learned_games, make_agent
from zermelo.core.state import AnyState, Player
from zermelo.games.registry import get_game
from zermelo.ui.terminal.session import GameOptions, Session

SQUARES = [str(square) for square in range(9)]


@pytest.fixture(scope="module")
def aztoe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with azplugin.on_path(azplugin.install(tmp_path_factory.mktemp("aztoe"))) as root:
        yield root


def _reference(seed: int) -> list[str]:
    """The session's game replayed without the terminal: the AI (X, first) is the az level with
    the seed the session draws first; the person types 0..8 in turn, and a taken square is
    refused, so each of their moves is the next free square of that list."""
    agent = make_agent(azplugin.NAME, "az", seed=random.Random(seed).randrange(2**32))
    state: AnyState = get_game(azplugin.NAME).new(first=Player.FIRST)
    typed = iter(SQUARES)
    moves: list[str] = []
    while not state.is_terminal():
        if state.to_move == Player.FIRST:
            move = agent.choose(state)
        else:
            legal = {state.format_move(m): m for m in state.legal_moves()}
            move = legal[next(text for text in typed if text in legal)]
        moves.append(state.format_move(move))
        state = state.play(move)
    return moves


def test_a_session_at_level_az_plays_the_shipped_nets_moves(aztoe: Path) -> None:
    seed = 6
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, highlight=False)
    options = GameOptions(game=azplugin.NAME, first="ai", human="O", level="az", seed=seed)
    options.repeat = False
    session = Session(options, stdin=io.StringIO("\n".join(SQUARES) + "\n"), console=console)
    assert session.agent.name == "az"
    played: list[str] = []
    final = session.play_one(on_move=lambda move: played.append(str(move)))
    expected = _reference(seed)
    assert played == expected
    ai_moves = re.findall(r"AI plays (\d)\.", out.getvalue())
    assert ai_moves == expected[0::2]
    assert final.is_terminal()


def test_play_refuses_az_for_a_game_without_a_net_in_one_line(aztoe: Path) -> None:
    done = run_cli("play", "chess", "--level", "az", "--once")
    assert done.returncode == 2
    games = ", ".join(learned_games())
    assert azplugin.NAME in games
    assert done.stderr.splitlines()[-1] == (
        f"zermelo: error: chess has no learned net, so no level az: the games with one are {games}"
    )
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_play_help_offers_az() -> None:
    done = run_cli("play", "--help")
    text = " ".join(done.stdout.split())
    assert "[easy|medium|hard|az]" in text
    assert "az is the learned net, for the games that ship one" in text


def test_zermelo_play_at_level_az_plays_a_whole_game(aztoe: Path) -> None:
    seed = 6
    typed = "\n".join(SQUARES) + "\n"
    done = run_cli("play", azplugin.NAME, "--level", "az", "--first", "ai", "--human", "O",
                   "--seed", str(seed), "--once", stdin=typed)  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = _reference(seed)
    state: AnyState = get_game(azplugin.NAME).new(first=Player.FIRST)
    for text in expected:
        state = state.play(state.parse_move(text))
    result = "It's a tie!" if state.winner is None else (
        "AI wins!" if state.winner == Player.FIRST else "Congratulations! You win!"
    )  # fmt: skip
    assert result in done.stdout
    assert done.stdout.count("Your turn") >= len(expected) // 2


def test_the_games_table_marks_a_game_that_ships_a_net(aztoe: Path) -> None:
    done = run_cli("games")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["game"][-2:] == ["az", "kind"]
    assert rows[azplugin.NAME][-2:] == ["✓", "-"]
    assert rows["chess"][-2:] == ["·", "-"]
