"""The example plugin (examples/zermelo-nim) exports to PettingZoo and OpenSpiel like a built-in
game: its record's codec is all the bridges read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel
from pettingzoo.test import api_test, seed_test

from zermelo.interop.encoding import codec_for, codec_games
from zermelo.interop.pettingzoo import env, opponent
from zermelo.interop.spiel_games import ZermeloBot, register


def test_the_plugin_has_a_codec_and_a_pettingzoo_environment(with_nim: Path) -> None:
    assert "nim" in codec_games()
    environment = env("nim", render_mode="ansi")
    environment.reset()
    # 4 heaps of 1, 3, 5, 7 stones: a stone plane after the two (empty) players' planes.
    seen = environment.observe("player_0")
    assert seen["observation"].shape == (4, 11, 3)
    assert seen["observation"][..., 2].sum(axis=1).tolist() == [1, 3, 5, 7]
    assert seen["observation"][..., :2].sum() == 0
    # Action heap * 11 + count - 1: taking 3 from the second heap is 11 + 2.
    assert int(seen["action_mask"].sum()) == 16 and seen["action_mask"][13] == 1
    environment.step(13)
    assert environment.state.heaps == (1, 0, 5, 7)
    assert environment.render().splitlines()[-1] == "O to move"
    api_test(env("nim", heaps=3), num_cycles=30)
    seed_test(lambda: env("nim"))


def test_a_zermelo_opponent_plays_the_plugin_perfectly(with_nim: Path) -> None:
    environment = env("nim", heaps=3)  # 1, 3, 5: nim-sum 7, a win for the first player
    environment.reset()
    perfect = opponent(environment, "hard", seed=1)
    rng = np.random.default_rng(0)
    while not environment.terminations["player_0"]:
        if environment.agent_selection == "player_0":
            environment.step(perfect())
        else:
            mask = environment.observe("player_1")["action_mask"]
            environment.step(int(rng.choice(np.flatnonzero(mask))))
    assert environment.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_the_plugin_is_an_openspiel_game(with_nim: Path) -> None:
    assert "zermelo_nim" in register()
    game = pyspiel.load_game("zermelo_nim")
    assert game.num_distinct_actions() == codec_for("nim").actions(codec_for("nim").spec.new())
    assert game.max_game_length() == 16
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 16
    assert state.action_to_string(0, 13) == "2-3"
    # zermelo's perfect player, as an OpenSpiel bot, wins from a won position: 1, 3, 5, 7
    # less one stone of the last heap has nim-sum 1.
    state.apply_action(3 * 11 + 0)  # the first player takes one stone of heap 4
    bots = [ZermeloBot(0, "random", seed=1), ZermeloBot(1, "hard", seed=1)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.returns() == [-1.0, 1.0]
