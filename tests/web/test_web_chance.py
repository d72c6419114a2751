"""The web API with chance and hidden information: the server draws every roll and deal from its
key and the game id, the client sends only decisions, and a hidden game's answers carry only the
person's view (tests/web/chancegames.py's two tiny games, registered for these tests only)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from tests.web import chancegames

from conftest import forget_games
from zermelo.core.state import Player
from zermelo.games import registry
from zermelo.ui.web import chance
from zermelo.ui.web.adapters import backgammon_steps
from zermelo.ui.web.api import load_game
from zermelo.ui.web.explain import chance_values, expectimax, explain_chance

GAMES = {
    "minipig": f"{chancegames.__name__}:DICE_SPEC",
    "minicards": f"{chancegames.__name__}:CARDS_SPEC",
    "minigammon": f"{chancegames.__name__}:GAMMON_SPEC",
}


def register() -> None:
    registry._BUILT_IN.update(GAMES)
    forget_games()


def unregister() -> None:
    for name in GAMES:
        registry._BUILT_IN.pop(name, None)
    forget_games()


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    register()
    yield
    unregister()


@pytest.fixture(autouse=True)
def own_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Each test module's server key in a cache directory of its own."""
    directory = tmp_path_factory.getbasetemp() / "chance-cache"
    old = os.environ.get("ZERMELO_CACHE_DIR")
    os.environ["ZERMELO_CACHE_DIR"] = str(directory)
    chance._forget_key()
    yield directory
    if old is None:
        os.environ.pop("ZERMELO_CACHE_DIR", None)
    else:
        os.environ["ZERMELO_CACHE_DIR"] = old
    chance._forget_key()


def post(client: TestClient, path: str, body: dict[str, object]) -> dict[str, object]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def new_game(client: TestClient, game: str, human: str = "X") -> dict[str, object]:
    return post(client, "/api/state", {"game": game, "human": human})


# -- the key ---------------------------------------------------------------------------------------


def test_the_key_is_made_once_private_and_kept(own_key: Path) -> None:
    chance._forget_key()
    path = chance.key_path()
    path.unlink(missing_ok=True)
    key = chance.server_key()
    assert path == own_key / "web-chance.key"
    assert path.read_bytes() == key and len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    chance._forget_key()  # a restart reads the same key
    assert chance.server_key() == key


def test_the_cache_directory_follows_xdg_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ZERMELO_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert chance.key_path() == tmp_path / "zermelo" / "web-chance.key"


def test_a_key_file_of_the_wrong_size_is_replaced(own_key: Path) -> None:
    path = chance.key_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"short")
    chance._forget_key()
    key = chance.server_key()
    assert len(key) == 32 and path.read_bytes() == key


def test_an_unwritable_cache_directory_is_one_line_not_a_traceback(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("ZERMELO_CACHE_DIR", str(blocker / "cache"))
    chance._forget_key()
    response = client.post("/api/state", json={"game": "minipig"})
    assert response.status_code == 503
    message = response.json()["error"]["message"]
    assert message.startswith("the server cannot keep its key for games of chance at ")
    assert "ZERMELO_CACHE_DIR" in message and "\n" not in message
    # The page still opens: the other games are listed, the games of chance left out.
    games = [game["name"] for game in client.get("/api/games").json()["games"]]
    assert "tictactoe" in games and "minipig" not in games and "pig" not in games


# -- replay from the game id -----------------------------------------------------------------------


def test_the_same_id_and_decisions_replay_the_same_dice(client: TestClient) -> None:
    start = new_game(client, "minipig")
    game_id = start["game_id"]
    assert isinstance(game_id, str) and start["moves"] == [] and start["human"] == "X"
    decisions = ["roll", "roll", "roll"]
    body = {"game": "minipig", "game_id": game_id, "moves": decisions}
    first = post(client, "/api/state", body)
    again = post(client, "/api/state", body)
    assert first == again
    history = first["history"]
    assert isinstance(history, list)
    rolls = [entry["move"] for entry in history if entry["chance"]]
    assert 1 <= len(rolls) <= 3 and all(roll in "123456" for roll in rolls)
    # Fewer decisions (an undo) replay the same first rolls.
    fewer = post(client, "/api/state", {**body, "moves": decisions[:1]})
    assert (
        [e for e in fewer["history"] if e["chance"]]
        == [  # type: ignore[union-attr]
            e for e in history[:2] if e["chance"]
        ]
    )


def test_a_restart_replays_the_same_game(client: TestClient) -> None:
    start = new_game(client, "minipig")
    body = {"game": "minipig", "game_id": start["game_id"], "moves": ["roll", "roll"]}
    before = post(client, "/api/state", body)
    chance._forget_key()  # the server's memory is gone; the key file stays
    assert post(client, "/api/state", body) == before


def test_the_dice_follow_the_hmac_of_the_key_and_the_id(client: TestClient) -> None:
    import random

    from zermelo.core.state import sample_outcome

    start = new_game(client, "minipig")
    game_id = str(start["game_id"])
    answer = post(client, "/api/state", {"game": "minipig", "game_id": game_id, "moves": ["roll"]})
    roll = answer["history"][1]["move"]  # type: ignore[index]
    state = chancegames.DiceState(rolling=True)
    assert str(sample_outcome(state, chance.outcome_rng(game_id, 0))) == roll
    # Not a plain seed the client could guess: the nonce alone draws differently for most ids.
    draws = {
        str(sample_outcome(state, chance.outcome_rng(new_game(client, "minipig")["game_id"], 0)))  # type: ignore[arg-type]
        for _ in range(40)
    }
    assert len(draws) >= 4
    assert isinstance(random.Random, type)


def test_ids_are_the_servers_and_bound_to_their_game(client: TestClient) -> None:
    start = new_game(client, "minipig")
    game_id = str(start["game_id"])
    nonce, side, tag = game_id.split(".")
    forged = f"{nonce}.{side}.{'0' * len(tag)}"
    other_side = f"{nonce}.{1 - int(side)}.{tag}"
    for bad in (forged, other_side, "x", 7, None):
        body = {"game": "minipig", "game_id": bad, "moves": ["roll"]}
        response = client.post("/api/state", json=body)
        assert response.status_code == 400, (bad, response.text)
        message = response.json()["error"]["message"]
        assert "\n" not in message
        assert "game_id" in message
    # The id of one game's options is no id for other options.
    response = client.post(
        "/api/state",
        json={"game": "minipig", "game_id": game_id, "options": {"goal": 20}, "moves": []},
    )
    assert response.status_code == 400
    assert "expected the id the server issued" in response.json()["error"]["message"]


def test_the_client_cannot_inject_a_chance_outcome(client: TestClient) -> None:
    start = new_game(client, "minipig")
    body = {"game": "minipig", "game_id": start["game_id"], "moves": ["roll", "6"]}
    response = client.post("/api/state", json=body)
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert message == "move '6' (decision 2) is illegal: expected one of hold, roll"
    play = client.post("/api/play", json={**body, "moves": ["roll"], "move": "6", "ai": False})
    assert play.status_code == 422
    assert play.json()["error"]["message"] == "move '6' is illegal: expected one of hold, roll"


@pytest.mark.parametrize(
    ("game", "outcome"),
    [("pig", "6"), ("backgammon", "52"), ("backgammon", "66"), ("kuhn", "K"), ("leduc", "Ks")],
)
def test_no_real_game_takes_a_chance_outcome_from_the_client(
    client: TestClient, game: str, outcome: str
) -> None:
    start = new_game(client, game)
    before = post(client, "/api/state", {"game": game, "game_id": start["game_id"], "moves": []})
    for body in (
        {"game": game, "game_id": start["game_id"], "moves": [outcome]},
        {"game": game, "game_id": start["game_id"], "moves": [], "move": outcome, "ai": False},
    ):
        path = "/api/play" if "move" in body else "/api/state"
        response = client.post(path, json=body)
        assert 400 <= response.status_code < 500, (game, outcome, response.text)
        message = response.json()["error"]["message"]
        assert message and "\n" not in message
    # The game is as it was: the dice and deals drawn are the server's.
    again = post(client, "/api/state", {"game": game, "game_id": start["game_id"], "moves": []})
    assert again == before


def test_play_rolls_for_you_and_the_ai_and_says_what_was_rolled(client: TestClient) -> None:
    start = new_game(client, "minipig")
    body = {"game": "minipig", "game_id": start["game_id"], "moves": [], "seed": 3}
    answer = post(client, "/api/play", {**body, "move": "roll", "ai": False})
    played = answer["played"]
    assert played[0] == {"by": "you", "move": "roll"}  # type: ignore[index]
    assert played[1]["by"] == "chance" and played[1]["move"] in "123456"  # type: ignore[index]
    assert answer["moves"] == ["roll"]
    # The AI's turn (after a 1) or yours; either way the state is a decision or the end.
    state = load_game({**body, "moves": answer["moves"]}).state
    assert not state.is_chance()


def test_a_whole_game_against_the_ai_ends_with_points(client: TestClient) -> None:
    start = new_game(client, "minipig")
    body: dict[str, object] = {"game": "minipig", "game_id": start["game_id"], "moves": []}
    answer = start
    for _ in range(200):
        if answer["terminal"]:
            break
        move = "hold" if (answer["board"]["cells"][0][2] not in ("0",)) else "roll"  # type: ignore[index]
        if answer["to_move"] != "X":
            move = None  # type: ignore[assignment]
        answer = post(client, "/api/play", {**body, "moves": answer["moves"], "move": move})
    assert answer["terminal"]
    assert answer["payoff"] in (1.0, -1.0)
    assert answer["winner"] == ("X" if answer["payoff"] == 1.0 else "O")


def test_analysis_gives_expected_values_and_the_chance_to_win(client: TestClient) -> None:
    start = new_game(client, "minipig")
    answer = post(
        client,
        "/api/analyze",
        {"game": "minipig", "game_id": start["game_id"], "moves": [], "budget": {"time_ms": 300}},
    )
    moves = answer["moves"]
    assert {entry["move"] for entry in moves} == {"roll", "hold"}  # type: ignore[union-attr]
    for entry in moves:  # type: ignore[union-attr]
        assert entry["p_win"] == pytest.approx((entry["expected"] + 1) / 2)
    # At 0-0 holding a turn total of 0 only passes the turn: rolling is better.
    assert answer["best"] == "roll"


def test_expectimax_averages_the_outcomes_by_their_probabilities() -> None:
    # X needs 2 to win: a roll of 2..6 then a hold wins (+1); a 1 passes the turn to O at 0-0,
    # whose every move is valued 0 one ply later (the evaluation of an even race).
    state = chancegames.DiceState(goal=2, rolling=True)
    assert expectimax(state, 2) == pytest.approx(5 / 6)
    # One ply: each outcome is the evaluation, clamped at 0.9 (rolls 2: 0.5, 3: 0.75).
    assert expectimax(state, 1) == pytest.approx((0 + 0.5 + 0.75 + 3 * 0.9) / 6)
    start = chancegames.DiceState(goal=2)
    result = chance_values(start, 0.5, 10_000)
    assert result.move == "roll" and result.depth >= 3
    assert result.moves[0].value == pytest.approx(expectimax(start.play("roll"), result.depth - 1))


def test_the_tree_shows_chance_nodes_with_each_outcomes_probability(client: TestClient) -> None:
    start = new_game(client, "minipig", "X")
    body = {"game": "minipig", "game_id": start["game_id"], "moves": [], "path": ["roll"]}
    node = post(client, "/api/tree", body)
    assert node["chance"] is True
    children = node["children"]
    assert [c["move"] for c in children] == ["1", "2", "3", "4", "5", "6"]  # type: ignore[union-attr]
    assert all(c["probability"] == pytest.approx(1 / 6) for c in children)  # type: ignore[union-attr]
    expected = sum(
        c["probability"] * (c["value"]["first"])
        for c in children  # type: ignore[union-attr]
    )
    assert node["value"]["first"] == pytest.approx(expected)  # type: ignore[index]
    root = explain_chance(chancegames.DiceState(goal=4), [], ("X", "O"))
    assert root["chance"] is False and root["probability"] is None


def test_a_backgammon_board_lists_each_legal_move_with_its_steps(client: TestClient) -> None:
    start = new_game(client, "minigammon")
    board = start["board"]
    assert board["kind"] == "backgammon"  # type: ignore[index]
    state = load_game({"game": "minigammon", "game_id": start["game_id"], "moves": []}).state
    moves = {state.format_move(move) for move in state.legal_moves()}
    steps = board["steps"]  # type: ignore[index]
    assert {entry["move"] for entry in steps} == moves
    for entry in steps:
        assert entry["steps"] == backgammon_steps(entry["move"])
    dice = dict(board["facts"])["dice"]  # type: ignore[index]
    assert dice == "".join(map(str, state.dice))  # type: ignore[attr-defined]
    assert [len(row) for row in board["cells"]] == [14, 14]  # type: ignore[index]


def test_backgammon_moves_split_into_checker_steps() -> None:
    assert backgammon_steps("24/18 13/11") == [["24", "18"], ["13", "11"]]
    assert backgammon_steps("13/7(2)") == [["13", "7"], ["13", "7"]]
    assert backgammon_steps("bar/22* 6/off") == [["bar", "22"], ["6", "off"]]
    assert backgammon_steps("24/18/12") == [["24", "18"], ["18", "12"]]


def test_importing_a_game_of_chance_starts_from_its_last_position(client: TestClient) -> None:
    answer = post(client, "/api/import", {"game": "minipig", "text": "0 0 0 X\nroll 5 hold"})
    request = answer["request"]
    assert request["position"] == "5 0 0 O" and request["moves"] == []  # type: ignore[index]
    state = answer["state"]
    assert state["game_id"] == request["game_id"]  # type: ignore[index]
    again = post(client, "/api/state", request)  # type: ignore[arg-type]
    assert again["position"] == "5 0 0 O"


# -- hidden information ----------------------------------------------------------------------------


def _words(answer: object) -> set[str]:
    """Every word of every text in an answer, but the game id (whose letters are random)."""
    if isinstance(answer, dict):
        return {w for key, value in answer.items() if key != "game_id" for w in _words(value)}
    if isinstance(answer, list):
        return {word for value in answer for word in _words(value)}
    return set(str(answer).replace("/", " ").split()) if isinstance(answer, str) else set()


def _true_cards(game_id: str, human: Player) -> tuple[str, str]:
    state = load_game({"game": "minicards", "game_id": game_id, "moves": []}).state
    assert isinstance(state, chancegames.CardState)
    return state.hands[human], state.hands[1 - human]


def test_a_hidden_game_never_shows_the_ais_card_before_the_showdown(client: TestClient) -> None:
    for seed in range(30):
        start = new_game(client, "minicards", "X")
        game_id = str(start["game_id"])
        mine, theirs = _true_cards(game_id, Player.FIRST)
        body = {"game": "minicards", "game_id": game_id, "moves": [], "seed": seed}
        answers = [start, post(client, "/api/state", body)]
        answer = post(client, "/api/play", {**body, "move": "check"})
        answers.append(answer)
        while not answer["terminal"]:
            legal = answer["legal"]
            move = "fold" if "fold" in legal else "check"  # type: ignore[operator]
            answer = post(client, "/api/play", {**body, "moves": answer["moves"], "move": move})
            answers.append(answer)
        showdown = answer["moves"][-1] != "fold"  # type: ignore[index]
        for shown in answers[:-1]:
            assert theirs not in _words(shown), (seed, json.dumps(shown))
            assert mine in _words(shown["board"])
        if not showdown:
            assert theirs not in _words(answer)
        else:
            assert answer["board"]["cells"][0] == [theirs]  # type: ignore[index]


def test_a_hidden_game_cannot_be_analysed_imported_or_shown_from_the_other_side(
    client: TestClient,
) -> None:
    start = new_game(client, "minicards", "X")
    game_id = start["game_id"]
    body = {"game": "minicards", "game_id": game_id, "moves": []}
    analysis = client.post("/api/analyze", json=body)
    assert analysis.status_code == 422
    assert "hides cards" in analysis.json()["error"]["message"]
    imported = client.post("/api/import", json={"game": "minicards", "text": "KQ check"})
    assert imported.status_code == 422
    other = client.post("/api/state", json={**body, "human": "O"})
    assert other.status_code == 400
    assert other.json()["error"]["message"] == "human 'O': this game was issued to X"
    # The export holds only what the person saw.
    record = str(post(client, "/api/state", body)["record"])
    mine, theirs = _true_cards(str(game_id), Player.FIRST)
    assert record.startswith(mine) and theirs not in _words(record)


def test_a_hidden_games_ai_shows_no_thinking(client: TestClient) -> None:
    start = new_game(client, "minicards", "O")
    answer = post(
        client, "/api/play", {"game": "minicards", "game_id": start["game_id"], "moves": []}
    )
    assert answer["thinking"] is None
    assert answer["played"][0]["by"] == "ai"  # type: ignore[index]
    assert all(e["move"] == "?" for e in answer["history"] if e["chance"])  # type: ignore[union-attr]


@pytest.mark.parametrize("game", ["minipig", "minicards", "kuhn"])
def test_a_game_of_chance_is_not_reviewed(client: TestClient, game: str) -> None:
    response = client.post("/api/review", json={"game": game, "moves": []})
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert "is a game of chance: its review is not offered" in message and "\n" not in message


def test_games_list_says_chance_hidden_and_scored(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert (games["minipig"]["chance"], games["minipig"]["hidden"]) == (True, False)
    assert (games["minicards"]["hidden"], games["minicards"]["scored"]) == (True, True)
    assert games["tictactoe"]["chance"] is False
    assert games["minipig"]["kind"] == "dice" and games["minicards"]["kind"] == "cards"


# -- fuzz ------------------------------------------------------------------------------------------

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=60),
    st.lists(st.text(max_size=8), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    endpoint=st.sampled_from(["state", "play", "analyze", "tree", "import"]),
    game=st.sampled_from(["minipig", "minicards", "pig", "kuhn", "leduc", "backgammon"]),
    game_id=st.one_of(_values, st.just("valid")),
    human=_values,
    moves=st.one_of(
        _values,
        st.lists(
            st.sampled_from(
                [
                    "roll",
                    "hold",
                    "r",
                    "1",
                    "6",
                    "K",
                    "Js",
                    "bet",
                    "pass",
                    "check",
                    "call",
                    "raise",
                    "fold",
                ]
            ),
            max_size=12,
        ),
    ),
    move=_values,
)
def test_no_chance_request_makes_the_server_fail(
    client: TestClient,
    endpoint: str,
    game: str,
    game_id: object,
    human: object,
    moves: object,
    move: object,
) -> None:
    if game_id == "valid":
        game_id = new_game(client, game)["game_id"]
    body = {"game": game, "game_id": game_id, "human": human, "moves": moves, "move": move}
    body["ai"] = False
    body["text"] = move
    response = client.post(f"/api/{endpoint}", json=body)
    assert response.status_code < 500, response.text
    answer = response.json()
    if response.status_code >= 400:
        message = answer["error"]["message"]
        assert message and "\n" not in message and "Traceback" not in message
    elif game in ("minicards", "kuhn", "leduc") and "history" in answer:
        assert all(e["move"] == "?" for e in answer["history"] if e["chance"])


@pytest.mark.parametrize("game", ["minicards", "kuhn", "leduc"])
def test_no_answer_of_a_hidden_game_holds_the_ais_cards(client: TestClient, game: str) -> None:
    """Many deals played out through /api/play with random decisions: before the end no answer
    has a word that is one of the AI's cards as the AI sees them (its view's own row), and at
    the end only a showdown shows them."""
    import random

    from zermelo.games.registry import get_game

    view = get_game(game).view
    assert view is not None
    showdowns = 0
    for seed in range(25):
        start = new_game(client, game, "X")
        game_id = str(start["game_id"])
        state = load_game({"game": game, "game_id": game_id, "moves": []}).state
        theirs = {card for card in view(state, Player.SECOND).cells[2] if card}
        mine = {card for card in view(state, Player.FIRST).cells[2] if card}
        assert theirs and not theirs & mine
        rng = random.Random(seed)
        body = {"game": game, "game_id": game_id, "seed": seed, "level": "easy"}
        answer = start
        for _ in range(40):
            if answer["terminal"]:
                break
            assert not theirs & _words(answer), (game, seed, json.dumps(answer))
            legal = answer["legal"]
            assert isinstance(legal, list)
            move = rng.choice(legal) if answer["to_move"] == "X" else None
            answer = post(client, "/api/play", {**body, "moves": answer["moves"], "move": move})
        assert answer["terminal"]
        shown = set(answer["board"]["cells"][0]) - {"?", ""}  # type: ignore[index]
        if shown:
            assert shown == theirs
            showdowns += 1
        else:
            assert not theirs & _words(answer)
    assert 0 < showdowns < 25


def test_pigs_analysis_is_exact_from_the_solved_table(client: TestClient) -> None:
    # Pig is solved: at 0-0 the first player wins 0.5306 by rolling (Neller and Presser), and
    # the page says so exactly, not the expectiminimax estimate of a few rolls.
    start = new_game(client, "pig")
    body = {"game": "pig", "game_id": start["game_id"], "moves": [], "budget": {"time_ms": 30000}}
    answer = post(client, "/api/analyze", body)
    assert answer["degraded"] is False
    assert answer["best"] == "roll"
    moves = {entry["move"]: entry for entry in answer["moves"]}  # type: ignore[union-attr]
    assert round(moves["roll"]["p_win"], 4) == 0.5306
    assert round(moves["hold"]["p_win"], 4) == 0.4694
    assert moves["roll"]["value"]["exact"] is True
