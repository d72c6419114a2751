"""The API says why a game ended and names the sides as the game does; /api/import reads a
pasted FEN, PGN, saved game or move list, and refuses anything else in one line."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zermelo.core.state import GAME_OVER, Terminates, end_reason
from zermelo.games.registry import all_games, get_game
from zermelo.solvers.chess.pgn import read_pgn
from zermelo.ui.web.api import import_game
from zermelo.ui.web.messages import END_REASONS, messages_for

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


def state_of(client: TestClient, **request: object) -> dict[str, object]:
    response = client.post("/api/state", json=request)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


@pytest.mark.parametrize(
    ("request_", "reason", "winner", "to_move"),
    [
        ({"game": "chess", "moves": FOOLS_MATE}, "checkmate", "Black", "White"),
        ({"game": "chess", "position": STALEMATE}, "stalemate", None, "Black"),
        (
            {"game": "chess", "position": "8/8/4k3/8/8/3K4/8/8 w - - 0 1"},
            "insufficient material",
            None,
            "White",
        ),
        (
            {"game": "chess", "position": "8/8/4k3/8/8/3K4/8/R7 w - - 100 80"},
            "fifty-move rule",
            None,
            "White",
        ),
        (
            {"game": "chess", "moves": ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]},
            "threefold repetition",
            None,
            "White",
        ),
        ({"game": "connect4", "moves": list("1212121")}, "four in a row", "X", "O"),
        (
            {"game": "connect4", "position": "", "moves": [], "options": {"width": 4, "height": 4}},
            None,
            None,
            "X",
        ),
        ({"game": "tictactoe", "moves": ["0", "3", "1", "4", "2"]}, "three in a row", "X", "O"),
        (
            {"game": "tictactoe", "moves": ["0", "1", "2", "4", "3", "5", "7", "6", "8"]},
            "board full",
            None,
            "O",
        ),
        (
            {
                "game": "mnk",
                "options": {"width": 5, "height": 5, "k": 4},
                "moves": ["a1", "a2", "b1", "b2", "c1", "c2", "d1"],
            },
            "four in a row",
            "X",
            "O",
        ),
        ({"game": "checkers", "position": "B:W10:B"}, "no pieces", "White", "Black"),
        ({"game": "checkers", "position": "B:W5,6,10:B1"}, "no moves", "White", "Black"),
    ],
)
def test_the_end_in_words_and_the_sides_by_name(
    client: TestClient,
    request_: dict[str, object],
    reason: str | None,
    winner: str | None,
    to_move: str,
) -> None:
    answer = state_of(client, **request_)
    assert answer["reason"] == reason
    assert answer["terminal"] is (reason is not None)
    assert answer["winner"] == winner
    assert answer["to_move"] == to_move


def test_the_games_list_names_the_sides_and_who_must_start(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    assert games["chess"]["sides"] == ["White", "Black"]
    assert games["chess"]["first_mover"] == "White"
    assert games["chess"]["initial"]["to_move"] == "White"
    assert games["tictactoe"]["first_mover"] is None


def test_either_side_may_start_tic_tac_toe(client: TestClient) -> None:
    answer = state_of(client, game="tictactoe", first="O", moves=["4"])
    assert answer["start_to_move"] == "O" and answer["to_move"] == "X"
    assert answer["board"]["cells"][1][1] == "O"
    refused = client.post("/api/state", json={"game": "chess", "first": "Black"})
    assert refused.status_code == 400
    assert "White always moves first" in refused.json()["error"]["message"]


def test_every_reason_a_game_gives_is_translated_on_the_page() -> None:
    """Random games of each built-in game end with a reason the page has words for."""
    rng = random.Random(7)
    seen: set[str] = set()
    for spec in all_games():
        for _ in range(6):
            state = spec.new(width=4, height=4, k=3) if spec.name == "mnk" else spec.new()
            while not state.is_terminal():
                state = state.play(rng.choice(list(state.legal_moves())))
            assert isinstance(state, Terminates), spec.name
            reason = end_reason(state)
            assert reason is not None and reason != GAME_OVER, spec.name
            seen.add(reason)
    assert seen <= set(END_REASONS)
    dutch = messages_for("nl")
    for reason in END_REASONS:
        # translated in the Dutch catalog; Dutch players say gammon, backgammon and showdown too
        assert dutch[reason] != reason or reason in {"gammon", "backgammon", "showdown"}, reason


def test_import_reads_fen_pgn_saved_games_and_move_lists() -> None:
    fools = import_game({"game": "chess", "text": "1. f3 e5 2. g4 Qh4# 0-1"})
    assert fools["request"]["moves"] == FOOLS_MATE
    assert fools["state"]["reason"] == "checkmate"
    stalemate = import_game({"game": "chess", "text": STALEMATE})
    assert stalemate["request"]["position"] == STALEMATE
    assert stalemate["state"]["reason"] == "stalemate"
    # The PGN the page exports reads back as the same game.
    exported = import_game({"game": "chess", "text": "e4 e5 Nf3"})["state"]["record"]
    again = import_game({"game": "chess", "text": exported})
    assert again["request"]["moves"] == ["e4", "e5", "Nf3"]
    with_fen = read_pgn(f'[FEN "{STALEMATE}"]\n[SetUp "1"]\n\n*')
    assert with_fen == (STALEMATE, [])
    saved = import_game({"game": "tictactoe", "text": ".........\n0 4 8"})
    assert saved["request"]["moves"] == ["0", "4", "8"] and saved["state"]["to_move"] == "O"
    listed = import_game({"game": "connect4", "text": "4, 4, 5"})
    assert listed["state"]["moves"] == ["4", "4", "5"]
    record = listed["state"]["record"]
    assert import_game({"game": "connect4", "text": record})["state"]["moves"] == ["4", "4", "5"]


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        ("chess", "1. e4 e9", "'e9' is not a move"),
        ("chess", "1. e4 e5 2. Ke3", "illegal san: 'Ke3'"),
        ("chess", "hello", "is neither a position of Chess"),
        ("connect4", "4 4 4 4 4 4 4", "is neither a position of Connect Four"),
        ("tictactoe", "   ", "nothing to import"),
    ],
)
def test_bad_imports_get_one_line(client: TestClient, game: str, text: str, expected: str) -> None:
    response = client.post("/api/import", json={"game": game, "text": text})
    assert response.status_code in (400, 422)
    message = response.json()["error"]["message"]
    assert expected in message and "\n" not in message


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["chess", "tictactoe", "connect4", "checkers"]),
    text=st.one_of(
        st.text(max_size=200),
        st.lists(
            st.sampled_from(["1.", "e4", "e5", "Nf3", "[FEN", '"', "]", "4", "0", "x", "\n"]),
            max_size=30,
        ).map(" ".join),
    ),
)
def test_import_fuzz_answers_or_refuses_in_one_line(
    client: TestClient, game: str, text: str
) -> None:
    response = client.post("/api/import", json={"game": game, "text": text})
    assert response.status_code in (200, 400, 422), response.text
    body = response.json()
    if response.status_code == 200:
        assert get_game(game).name == body["state"]["game"]
        replay = client.post("/api/state", json=body["request"])
        assert replay.status_code == 200 and replay.json()["position"] == body["state"]["position"]
    else:
        assert "\n" not in body["error"]["message"]


def test_the_nim_plugin_says_the_last_stone_was_taken(with_nim: object) -> None:
    from zermelo.ui.web.api import game_json, load_game

    game = load_game({"game": "nim", "options": {"heaps": 2}, "moves": ["1-1", "2-3"]})
    answer = game_json(game)
    assert answer["terminal"] is True
    assert answer["reason"] == "last stone taken"
    assert answer["winner"] == "O"  # the second player took the last stone
    assert messages_for("tr")["last stone taken"] == "son taş alındı"


def test_an_openspiel_game_gives_the_generic_reason(client: TestClient) -> None:
    """OpenSpiel says who won, not why: the page says "game over"."""
    moves = [
        "x(0,2)",
        "o(0,1)",
        "x(1,1)",
        "o(0,0)",
        "x(2,1)",
        "o(2,2)",
        "x(1,2)",
        "o(2,0)",
        "x(1,0)",
    ]
    answer = state_of(client, game="openspiel:tic_tac_toe", moves=moves)
    assert answer["terminal"] is True and answer["winner"] == "x"  # as its board draws it
    assert answer["reason"] == GAME_OVER


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.lists(
            st.sampled_from(
                [
                    "1.",
                    "2...",
                    "e4",
                    "e5",
                    "Nf3",
                    "Qh4#",
                    "e9",
                    "{c}",
                    "(",
                    ")",
                    "[FEN",
                    '"x"]',
                    "*",
                ]
            ),
            max_size=40,
        ).map(" ".join),
    )
)
@example("a1)a3")  # python-chess raised IndexError on a ")" closing no variation
def test_read_pgn_fuzz_reads_or_raises_a_parse_error(text: str) -> None:
    from zermelo.core.errors import ParseError

    try:
        start, moves = read_pgn(text)
    except ParseError as error:
        assert "\n" not in str(error)  # one line
    else:
        board = chess.Board(start) if start else chess.Board()
        for move in moves:
            board.push_san(move)  # every move read back is legal in turn
