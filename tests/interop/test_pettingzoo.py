"""zermelo's games as PettingZoo environments, zermelo's players inside PettingZoo's own
environments, and the single-agent Gymnasium environment."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.classic import connect_four_v3, tictactoe_v3
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from zermelo.core.errors import (
    IllegalMoveError,
    InvalidPositionError,
    UnknownGameError,
    ZermeloError,
)
from zermelo.games.connect4 import Connect4State
from zermelo.interop.encoding import codec_games
from zermelo.interop.gymnasium import OpponentEnv
from zermelo.interop.pettingzoo import decode, env, opponent, parallel_env, policy

SMALL = {"mnk": {"width": 4, "height": 4, "k": 3}}


@pytest.mark.parametrize("game", codec_games())
def test_api_test_passes(game: str) -> None:
    api_test(env(game, render_mode="ansi", **SMALL.get(game, {})), num_cycles=30)


def test_render_modes_and_masks() -> None:
    environment = env("connect4", render_mode="ansi")
    environment.reset()
    assert environment.render().splitlines()[-1] == "X to move"
    environment.step(3)
    seen = environment.observe("player_1")
    assert seen["observation"][5, 3, 1] == 1  # the opponent's stone, bottom row
    assert seen["action_mask"].tolist() == [1] * 7
    assert environment.observe("player_0")["action_mask"].sum() == 0
    with pytest.raises(IllegalMoveError):
        for _ in range(7):
            environment.step(0)
    with pytest.raises(ValueError, match="render mode"):
        env("tictactoe", render_mode="rgb_array")
    with pytest.raises(UnknownGameError):
        env("no-such-game")


def test_checkers_agent_keeps_the_turn_until_the_move_is_whole() -> None:
    environment = env("checkers")
    environment.reset()
    assert np.flatnonzero(environment.observe("player_0")["action_mask"]).tolist() == [
        9,
        10,
        11,
        12,
    ]
    environment.step(9)
    assert environment.agent_selection == "player_0"
    assert np.flatnonzero(environment.observe("player_0")["action_mask"]).tolist() == [13, 14]
    environment.step(14)
    assert environment.agent_selection == "player_1"


def _play(module: object, zermelo_seat: int, choose: object, seed: int) -> float:
    """One game of a PettingZoo classic env; the reward of the zermelo side."""
    environment = module.env()  # type: ignore[attr-defined]
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ours = environment.agents[zermelo_seat]
    reward = 0.0
    for agent in environment.agent_iter():
        observation, rew, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            if agent == ours:
                reward = rew
            environment.step(None)
            continue
        mask = observation["action_mask"]
        if agent == ours:
            action = choose(observation["observation"], mask)  # type: ignore[operator]
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        environment.step(action)
    return float(reward)


def test_hard_never_loses_pettingzoos_tictactoe() -> None:
    perfect = policy("tictactoe_v3", "hard", seed=3)
    rewards = [_play(tictactoe_v3, seat, perfect, seed) for seed in range(10) for seat in (0, 1)]
    assert min(rewards) >= 0
    assert rewards.count(1.0) >= 12


def test_medium_beats_random_in_pettingzoos_connect_four() -> None:
    medium = policy("connect_four_v3", "medium", seed=3)
    rewards = [_play(connect_four_v3, seat, medium, seed) for seed in range(3) for seat in (0, 1)]
    assert rewards == [1.0] * 6


def test_pettingzoo_connect_four_board_decodes_to_the_same_position() -> None:
    rng = np.random.default_rng(11)
    for seed in range(8):
        environment = connect_four_v3.env()
        environment.reset(seed=seed)
        columns = []
        for _ in range(10 + seed):
            observation, _, terminated, _, _ = environment.last()
            if terminated:
                break
            column = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            environment.step(column)
            columns.append(column)
        observation, _, terminated, _, _ = environment.last()
        if terminated:
            continue
        state = decode("connect_four_v3", observation["observation"])
        played = Connect4State.parse("".join(str(c + 1) for c in columns))
        assert state.rows() == played.rows() and state.to_move == played.to_move
        assert state.key() == played.key()


def test_a_board_no_game_reaches_is_refused() -> None:
    board = np.zeros((6, 7, 2), dtype=np.int8)
    board[5, 0:3, 1] = 1
    with pytest.raises(InvalidPositionError, match="expected as many"):
        decode("connect_four_v3", board)
    board = np.zeros((6, 7, 2), dtype=np.int8)
    board[5, 0:4, 0] = 1  # four of the mover's and four of the other's: both have a line
    board[4, 0:4, 1] = 1
    with pytest.raises(InvalidPositionError, match="no game reaches"):
        decode("connect_four_v3", board)
    with pytest.raises(UnknownGameError):
        policy("chess_v6")


def test_opponent_plays_a_whole_checkers_move_in_zermelos_env() -> None:
    environment = env("checkers")
    environment.reset()
    act = opponent(environment, "easy", seed=1)
    for _ in range(40):
        if environment.terminations["player_0"]:
            break
        environment.step(act())
    assert environment.state.plies >= 10


def test_gymnasium_env_passes_the_checker_and_hard_is_never_beaten() -> None:
    check_env(OpponentEnv("tictactoe", "hard", seed=0), skip_render_check=True)
    for learner in ("player_0", "player_1"):
        game = OpponentEnv("tictactoe", "hard", learner=learner, seed=1)
        rng = np.random.default_rng(0)
        for episode in range(10):
            _, info = game.reset(seed=episode)
            done, reward = False, 0.0
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _, reward, done, _, info = game.step(action)
            assert reward <= 0
        with pytest.raises(ValueError, match="reset"):
            game.step(0)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["connect_four_v3", "tictactoe_v3"]),
    st.lists(st.integers(0, 1), min_size=84, max_size=84),
)
def test_fuzz_board_decoding(name: str, bits: list[int]) -> None:
    shape = (6, 7, 2) if name == "connect_four_v3" else (3, 3, 2)
    board = np.array(bits[: int(np.prod(shape))], dtype=np.int8).reshape(shape)
    try:
        state = decode(name, board)
    except ZermeloError:
        return
    assert int(board.sum()) == state.ply


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=10), st.lists(st.integers(-2, 3), max_size=20)))
def test_fuzz_malformed_observations(observation: object) -> None:
    with pytest.raises(ZermeloError):
        decode("connect_four_v3", observation)


# Issue 22: Gymnasium's checker and PettingZoo's seed tests draw actions without the mask.
@pytest.mark.parametrize(
    ("game", "level", "learner"),
    [
        ("tictactoe", "hard", "player_1"),
        ("checkers", "easy", "player_0"),
        ("checkers", "easy", "player_1"),
        ("connect4", "easy", "player_0"),
    ],
)
def test_gymnasiums_own_checker_passes(game: str, level: str, learner: str) -> None:
    check_env(OpponentEnv(game, level, learner=learner, seed=0))


def test_an_illegal_action_ends_the_episode_as_a_loss() -> None:
    game = OpponentEnv("checkers", "easy", seed=0)
    _, info = game.reset(seed=0)
    assert np.flatnonzero(info["action_mask"]).tolist() == [9, 10, 11, 12]
    _, reward, terminated, truncated, info = game.step(np.int64(0))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert info["action_mask"].sum() == 0
    with pytest.raises(IllegalMoveError, match="reset"):
        game.step(np.int64(9))
    game.reset(seed=0)
    _, reward, terminated, _, _ = game.step(np.int64(9))  # a legal first square: play goes on
    assert (reward, terminated) == (0.0, False)


@pytest.mark.parametrize("game", ["checkers", "tictactoe", "connect4"])
def test_pettingzoos_seed_and_parallel_tests_pass(game: str) -> None:
    parallel_seed_test(lambda: parallel_env(game))
    parallel_api_test(parallel_env(game), num_cycles=100)
    seed_test(lambda: env(game))
    api_test(env(game), num_cycles=50)


def test_the_parallel_env_ends_on_an_illegal_action_with_minus_one() -> None:
    parallel = parallel_env("checkers")
    parallel.reset(seed=0)  # type: ignore[attr-defined]
    _, rewards, terminations, _, infos = parallel.step({"player_0": 0, "player_1": 0})  # type: ignore[attr-defined]
    assert rewards == {"player_0": -1.0, "player_1": 0.0}
    assert terminations == {"player_0": True, "player_1": True}
    assert infos["player_0"] == {"illegal_action": True}
