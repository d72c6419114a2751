"""One value scale for every face: zermelo.core.scores.value_text is the rule, the terminal
(zermelo.ui.words.score_words, the CLI's analyze) and the web API (value_json) both follow it, and
Connect Four's CLI and API agree on a known position."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_cli
from zermelo.core.scores import EVAL_LIMIT, POINTS, WIN, Unit, describe, unit_of, value_text
from zermelo.games.registry import get_game
from zermelo.ui.web.api import value_json
from zermelo.ui.words import score_words

DATA = Path(__file__).parent / "data" / "connect4"


@pytest.mark.parametrize(
    ("score", "exact", "unit", "words"),
    [
        (WIN - 1, True, POINTS, "win in 1"),
        (WIN - 5, True, POINTS, "win in 3"),
        (-(WIN - 34), True, POINTS, "loss in 17"),
        (WIN, True, POINTS, "won"),
        (-WIN, True, POINTS, "lost"),
        (0, True, POINTS, "draw"),
        (0, False, POINTS, "0.00"),
        (12.5, False, POINTS, "+12.50"),
        (169, False, Unit("{value} men", 100), "+1.69 men"),
        (-35, False, Unit("{value} pawns", 100), "-0.35 pawns"),
        (-0.001, False, Unit("{value} pawns", 100), "0.00 pawns"),
    ],
)
def test_the_one_rule_in_english(score: float, exact: bool, unit: Unit, words: str) -> None:
    assert describe(score, exact=exact, unit=unit) == words
    assert score_words(score, exact=exact, unit=unit) == words
    assert value_json(score, exact, unit)["words"] == words


def test_each_game_names_its_unit() -> None:
    assert describe(169, exact=False, unit=unit_of(get_game("checkers").new())) == "+1.69 men"
    # The chess engine's answers are in pawns already (solvers.chess.tools.in_pawns).
    assert describe(-0.35, exact=False, unit=unit_of(get_game("chess").new())) == "-0.35 pawns"
    for name in ("tictactoe", "connect4", "gomoku", "othello"):
        assert unit_of(get_game(name).new()) == POINTS


@given(
    st.one_of(
        st.floats(min_value=-EVAL_LIMIT + 1, max_value=EVAL_LIMIT - 1, allow_nan=False),
        st.integers(min_value=0, max_value=400).map(lambda plies: WIN - plies),
        st.integers(min_value=0, max_value=400).map(lambda plies: -(WIN - plies)),
    ),
    st.booleans(),
    st.sampled_from([POINTS, Unit("{value} men", 100), Unit("{value} pawns", 100)]),
)
def test_the_api_sends_the_words_of_the_rule(score: float, exact: bool, unit: Unit) -> None:
    """The page shows t(text.id, text.fields): in English exactly the terminal's words."""
    value = value_json(score, exact, unit)
    words, fields = value_text(score, exact=exact, unit=unit)
    assert value["text"] == {"id": words, "fields": fields}
    assert value["text"]["id"].format(**value["text"]["fields"]) == score_words(
        score, exact=exact, unit=unit
    )


def test_the_cli_gives_checkers_in_men_and_chess_in_pawns() -> None:
    """Checkers printed "+167.00" (hundredths of a man) and chess "+0.96" (pawns, unnamed)."""
    done = run_cli("analyze", "checkers", "B:W21,22,23:B1,2,3,4", "--depth", "2")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^Value: \+1\.\d\d men$", done.stdout, re.MULTILINE), done.stdout
    done = run_cli("analyze", "chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "--depth", "2")
    assert done.returncode == 0, done.stderr
    value = re.search(r"^Value: ([+-]\d+\.\d\d) pawns$", done.stdout, re.MULTILINE)
    assert value is not None, done.stdout
    assert 0.5 < float(value.group(1)) < 3, "a pawn up is about a pawn, not a hundred"


def _cli_values(position: str) -> tuple[dict[str, str], set[str]]:
    done = run_cli("analyze", "connect4", position)
    assert done.returncode == 0, done.stderr
    rows = {
        cells[0]: cells[1]
        for line in done.stdout.splitlines()
        if line.count("│") == 3
        for cells in [[c.strip() for c in line.split("│")[1:-1]]]
    }
    best = re.search(r"Best move: (.*)", done.stdout)
    assert best is not None
    return rows, set(best.group(1).split(", "))


@pytest.mark.parametrize("line", [0, 1])
def test_connect_four_cli_and_api_agree(line: int) -> None:
    """The same words for every column, and the API's best move is one the CLI calls best (the
    CLI printed the solver's score, -2, beside "loss in 18" while the page showed -18)."""
    from starlette.testclient import TestClient

    from zermelo.ui.web import create_app

    position = (DATA / "Test_L3_R1").read_text().splitlines()[line].split()[0]
    rows, best = _cli_values(position)
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        answer = client.post(
            "/api/analyze",
            json={"game": "connect4", "position": position, "budget": {"time_ms": 3000}},
        ).json()
    assert answer["degraded"] is False
    assert {entry["move"]: entry["value"]["words"] for entry in answer["moves"]} == {
        move: words for move, words in rows.items() if words != "full"
    }
    assert answer["best"] in best
