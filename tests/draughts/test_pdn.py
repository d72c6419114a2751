"""PDN and openings for dama (Turkish draughts, GameType 30), and what both draughts games share."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from zermelo.cli import main
from zermelo.core.errors import ParseError
from zermelo.core.state import AnyState
from zermelo.games.draughts.openings import DAMA_OPENINGS, INTERNATIONAL_OPENINGS
from zermelo.games.draughts.pdn import DAMA_PDN, INTERNATIONAL_PDN
from zermelo.games.registry import get_game


def _dama_game(seed: int, plies: int) -> tuple[AnyState, str]:
    """A seeded random dama game and its PDN, written move by move as a person would."""
    spec = get_game("dama")
    state = spec.new()
    rng = random.Random(seed)
    words = []
    for ply in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(state.legal_moves())
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(state.format_move(move))
        state = state.play(move)
    return state, '[Event "t"]\n[GameType "30,W,8,8,A0,0"]\n\n' + " ".join(words) + " *\n"


def test_dama_pdn_is_read_move_by_move() -> None:
    final, text = _dama_game(1, 40)
    start, moves = DAMA_PDN.load(text)
    spec = get_game("dama")
    state = spec.new()
    for move in moves:
        state = state.play(state.parse_move(move))
    assert start == "" and len(moves) == 40
    assert state.notation() == final.notation()


def test_dama_pdn_wrong_move_is_one_line() -> None:
    with pytest.raises(ParseError) as caught:
        DAMA_PDN.load("1. c3-c4 b6-b5 2. d3-d5 *")
    line = str(caught.value)
    assert line.startswith("PDN game 1, move 2. d3-d5: move 'd3-d5' is not legal"), line
    assert "\n" not in line


def test_each_game_refuses_the_others_pdn() -> None:
    with pytest.raises(ParseError, match="GameType 20 is not Turkish draughts"):
        DAMA_PDN.load('[GameType "20"]\n1. 32-28 *')
    with pytest.raises(ParseError, match="GameType 30 is not International draughts"):
        INTERNATIONAL_PDN.load('[GameType "30"]\n1. c3-c4 *')


def test_dama_saved_game_reads_back() -> None:
    final, _ = _dama_game(2, 30)
    text = DAMA_PDN.save(final, ("A", "B"))
    assert '[GameType "30"]' in text and '[White "A"]' in text
    assert "[FEN" not in text and text.rstrip().endswith("*")
    start, moves = DAMA_PDN.load(text)
    assert start == "" and len(moves) == 30  # the state keeps its game: every move is written
    spec = get_game("dama")
    state = spec.parse(start) if start else spec.new()
    for move in moves:
        state = state.play(state.parse_move(move))
    assert state.notation() == final.notation()


def test_dama_openings() -> None:
    spec = get_game("dama")
    positions = DAMA_OPENINGS.openings(None)
    assert len(positions) == 64 == len(set(positions))
    start = spec.new()
    after = {
        start.play(a).play(b).notation()
        for a in start.legal_moves()
        for b in start.play(a).legal_moves()
    }
    assert set(positions) == after
    assert len(INTERNATIONAL_OPENINGS.openings(None)) == 81


def test_replay_finds_the_game_of_a_dama_pdn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    final, text = _dama_game(3, 20)
    path = tmp_path / "dama.pdn"
    path.write_text(text, encoding="utf-8")
    main(["replay", str(path)])
    out = capsys.readouterr().out
    assert "Turkish draughts" in out
    assert f"Final position: {final.notation()}" in out
    assert " 20. Black: " in out
    assert "The game is not over." in out
