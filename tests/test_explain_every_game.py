"""``zermelo explain`` works on every game whose record has an evaluation to show, checkers
among them (in men), and the terms add up to the total."""

from __future__ import annotations

import math

import pytest
from tests.conftest import run_cli

from zermelo.games.checkers import CheckersState
from zermelo.games.registry import all_games, get_game


def test_checkers_explains_its_evaluation_in_men() -> None:
    spec = get_game("checkers")
    assert spec.explainer is not None
    state = CheckersState.parse("B:W22-32:B1-12")  # Black, to move, is a man up
    breakdown = spec.explainer.resolve().explain(state, None)
    terms = {term.name: term for term in breakdown.terms}
    assert terms["men"].value == 1 and terms["men"].weight == 1.0
    assert terms["kings"].weight == 1.4
    assert breakdown.total == pytest.approx(state.evaluate() / 100) == pytest.approx(1.03)
    assert math.fsum(t.contribution for t in breakdown.terms) == pytest.approx(breakdown.total)


def test_explain_checkers_on_the_command_line() -> None:
    done = run_cli("explain", "checkers", "W:W22-32:B1-12")
    assert done.returncode == 0, done.stderr
    assert "f(s) from the side to move (White)" in done.stdout
    assert "-1.00" in done.stdout and "-1.03" in done.stdout
    refused = run_cli("explain", "checkers", "--weights", __file__)
    assert refused.returncode == 2
    assert (
        refused.stderr == "zermelo: error: checkers has no weights file: its evaluation is fixed\n"
    )


@pytest.mark.parametrize("name", [spec.name for spec in all_games() if spec.explainer])
def test_explain_runs_on_every_game_with_an_evaluation(name: str) -> None:
    done = run_cli("explain", name)
    assert done.returncode == 0, done.stderr
    assert "total f(s)" in done.stdout


def test_the_games_with_an_evaluation_have_an_explainer() -> None:
    with_explainer = {spec.name for spec in all_games() if spec.explainer}
    assert with_explainer >= {"gomoku", "mnk", "checkers", "chess", "othello"}
