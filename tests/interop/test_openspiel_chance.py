"""OpenSpiel games with explicit chance (pig, backgammon) and hidden information (kuhn_poker,
leduc_poker) as zermelo states: seeded playouts equal OpenSpiel's own, chance nodes belong to
the roller, information sets hide what they should, and what still cannot work is refused in
one line."""

from __future__ import annotations

import contextlib
import random
from typing import cast

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.agents.engine import EngineAgent
from zermelo.agents.levels import make_agent
from zermelo.core.errors import IllegalMoveError, ParseError, ZermeloError
from zermelo.core.state import (
    AnyState,
    Chance,
    HiddenInfo,
    Payoff,
    Player,
    is_chance,
    payoff_of,
    same_side,
    sample_outcome,
)
from zermelo.games.registry import get_game
from zermelo.interop.openspiel import (
    ChanceSpielState,
    HiddenSpielState,
    NotSupportedError,
    OpenSpielState,
    SpielMove,
    load,
)
from zermelo.search.cfr import (
    build_tree,
    cfr,
    expected_value,
    exploitability,
    nash_conv,
    uniform_policy,
)
from zermelo.search.expectimax import expectiminimax, star_minimax


def _draw(outcomes: list[tuple[int, float]], point: float) -> int:
    """The outcome ``point`` (in [0, 1)) falls on, as :func:`sample_outcome` draws it."""
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


def _openspiel_playout(game: object, seed: int) -> tuple[list[int], list[float]]:
    """OpenSpiel's own random playout: the same draws as zermelo's, from the same seed."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_draw(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.history()), list(state.returns())


def _zermelo_playout(name: str, seed: int) -> ChanceSpielState:
    rng = random.Random(seed)
    state = load(name).new()
    assert isinstance(state, ChanceSpielState)
    while not state.is_terminal():
        move = sample_outcome(state, rng) if is_chance(state) else rng.choice(state.legal_moves())
        state = state.play(cast(SpielMove, move))
    return state


@pytest.mark.parametrize("seed", range(8))
def test_seeded_pig_playouts_equal_openspiels_own(seed: int) -> None:
    name = "pig(winscore=20)"
    history, returns = _openspiel_playout(pyspiel.load_game(name), seed)
    ours = _zermelo_playout(name, seed)
    assert list(ours.history) == history
    assert ours.payoff() == returns[0] == payoff_of(ours)
    assert ours.winner is (Player.FIRST if returns[0] > 0 else Player.SECOND)


@pytest.mark.parametrize("seed", range(2))
def test_seeded_backgammon_playouts_replay_in_openspiel(seed: int) -> None:
    # A doubles turn is two OpenSpiel actions and one zermelo move, so the random choices
    # differ from OpenSpiel's; the whole game replays there, roll by roll, with its returns.
    game = pyspiel.load_game("backgammon(max_player_turns=60)")
    ours = _zermelo_playout("backgammon(max_player_turns=60)", seed)
    state = game.new_initial_state()
    for action in ours.history:
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.is_terminal()
    assert ours.payoff() == state.returns()[0]


def test_a_chance_node_belongs_to_the_roller() -> None:
    # Pig: the player who rolled keeps the turn unless a 1 comes up.
    start = load("pig(winscore=10)").new()
    assert start.legal_moves() == [0, 1] and not is_chance(start)
    rolling = start.play(start.parse_move("roll"))
    assert is_chance(rolling) and rolling.to_move is Player.FIRST and same_side(start, rolling)
    assert isinstance(rolling, Chance)
    assert rolling.chance_outcomes() == [(face, 1 / 6) for face in range(6)]
    assert [rolling.format_move(m) for m in rolling.legal_moves()] == [
        f"Roll {face}" for face in range(1, 7)
    ]
    one, three = rolling.play(rolling.parse_move("Roll 1")), rolling.play(rolling.parse_move("2"))
    assert one.to_move is Player.SECOND and not same_side(rolling, one)
    assert three.to_move is Player.FIRST and same_side(rolling, three)
    # Backgammon: the roll belongs to the player who moves next, the opening roll to the first.
    opening = load("backgammon").new()
    assert isinstance(opening, ChanceSpielState)
    assert is_chance(opening) and opening.to_move is Player.FIRST
    assert sum(p for _, p in opening.chance_outcomes()) == pytest.approx(1.0)
    o_starts = opening.play(opening.parse_move("chance outcome 1 O starts, (roll: 21)"))
    assert o_starts.to_move is Player.SECOND and o_starts.spiel.current_player() == 1
    after = o_starts.play(o_starts.legal_moves()[0])
    assert isinstance(after, ChanceSpielState)
    assert is_chance(after) and after.to_move is Player.FIRST
    assert len(after.chance_outcomes()) == 36
    assert all(after.play(m).spiel.current_player() == 0 for m in after.legal_moves())


def test_a_chance_position_round_trips_and_bad_input_is_one_line() -> None:
    game = load("pig(winscore=10)")
    state = game.parse("roll 2 roll 0")  # action strings with spaces ("Roll 3"): numbers
    assert state.notation() == "0 2 0 0" and state.to_move is Player.SECOND
    assert game.parse(state.notation()) == state
    with pytest.raises(IllegalMoveError, match="action 7 is not legal"):
        game.parse("0 7")
    with pytest.raises(ParseError, match="expected one of Roll 1, Roll 2"):
        game.parse("0").parse_move("Roll 9")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        game.parse("0").play(9)


def test_only_chance_and_hidden_games_offer_the_new_protocols() -> None:
    plain = load("tic_tac_toe").new()
    assert type(plain) is OpenSpielState
    assert not isinstance(plain, Chance | Payoff | HiddenInfo)
    assert isinstance(load("pig").new(), Chance) and isinstance(load("pig").new(), Payoff)
    assert not isinstance(load("pig").new(), HiddenInfo)
    assert isinstance(load("kuhn_poker").new(), HiddenInfo)


def test_records_say_chance_hidden_and_scored() -> None:
    pig, kuhn = get_game("openspiel:pig"), get_game("openspiel:kuhn_poker")
    assert pig.chance and not pig.hidden and not pig.scored and pig.view is None
    assert kuhn.chance and kuhn.hidden and kuhn.scored and kuhn.view is not None
    assert get_game("openspiel:backgammon(scoring_type=full_scoring)").scored
    assert not get_game("openspiel:backgammon").scored
    assert not get_game("openspiel:tic_tac_toe").chance
    # Chance games play MCTS (it samples the dice), bounded in time for long games.
    assert pig.levels == {
        "easy": "mcts:iterations=50,time=1",
        "medium": "mcts:iterations=400,time=2",
        "hard": "mcts:iterations=2000,time=4",
    }
    assert make_agent(pig, "easy", seed=1).choose(pig.new()) in (0, 1)


def _kuhn_after(cards: tuple[int, int], *actions: int) -> HiddenSpielState:
    state = load("kuhn_poker").parse(" ".join(str(a) for a in (*cards, *actions)))
    assert isinstance(state, HiddenSpielState)
    return state


def test_kuhn_information_sets_hide_the_other_card() -> None:
    # The first player holds the king (2); the second the jack (0) or the queen (1).
    jack, queen = _kuhn_after((2, 0), 0), _kuhn_after((2, 1), 0)
    assert jack.to_move is Player.SECOND
    assert jack.information_set(Player.FIRST) == queen.information_set(Player.FIRST)
    assert jack.information_set(Player.SECOND) != queen.information_set(Player.SECOND)
    assert jack.observation(Player.FIRST) == "2p"
    # The view shows the viewer's card and the bets, never the other side's card.
    view = get_game("openspiel:kuhn_poker").view
    assert view is not None
    first = view(jack, Player.FIRST)
    assert first.cells == (("2p",),)
    assert view(queen, Player.FIRST) == first
    assert view(jack, Player.SECOND).cells == (("0p",),)
    # The shared board shows nothing of either hand.
    spec = get_game("openspiel:kuhn_poker")
    assert spec.grid(jack) == spec.grid(queen)
    # The start is a deal; the first to bet is the first player.
    start = load("kuhn_poker").new()
    assert is_chance(start) and start.to_move is Player.FIRST
    assert [start.format_move(m) for m in start.legal_moves()] == ["Deal:0", "Deal:1", "Deal:2"]


def test_leduc_view_splits_the_information_state_into_rows() -> None:
    spec = get_game("openspiel:leduc_poker")
    state = spec.parse("0 3 1")
    assert spec.view is not None
    rows = [row[0] for row in spec.view(state, Player.SECOND).cells]
    assert rows[:2] == ["[Observer: 1]", "[Private: 3]"]
    assert not any("Private: 0" in row for row in rows)
    assert payoff_of(spec.parse("0 3 2 0")) == 1.0  # the second player folds to a raise


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("phantom_ttt", "too large for zermelo's solvers of hidden information"),
        ("liars_dice", "more than 30000 histories"),
        ("negotiation", "explicit chance outcomes (it only samples its chance events)"),
        ("tiny_hanabi", "zero-sum utility (it is identical)"),
        ("goofspiel", "sequential moves"),
        ("leduc_poker(players=3)", "two players (it asks for 3)"),
        ("kuhn_poker(players=3)", "two players (it asks for 3)"),
        ("pig(winscore=0)", "winscore='0': expected a whole number from 1 to 1000"),
        ("backgammon(scoring_type=odd)", "expected winloss_scoring, enable_gammons"),
    ],
)
def test_what_cannot_work_is_refused_in_one_line(name: str, problem: str) -> None:
    with pytest.raises(ZermeloError) as error:
        load(name)
    assert problem in str(error.value)
    assert "\n" not in str(error.value)


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet="0123456789 RolDea:ngcut()", max_size=30),
    st.sampled_from(["pig", "kuhn_poker", "leduc_poker"]),
)
def test_fuzz_chance_positions_and_moves(text: str, name: str) -> None:
    game = load(name)
    try:
        state = game.parse(text)
    except ZermeloError as error:
        assert "\n" not in str(error)
        state = game.new()
    with contextlib.suppress(ZermeloError):
        move = state.parse_move(text)
        state.play(move)


def test_not_supported_is_a_zermelo_error() -> None:
    assert issubclass(NotSupportedError, ZermeloError)


def _pig_pair(seed: int, goal: int) -> tuple[ChanceSpielState, AnyState]:
    """The same seeded Pig position in OpenSpiel's pig (winscore=goal) and zermelo's pig: roll is
    action 0, hold ("stop") 1, and the face k is chance action k - 1."""
    rng = random.Random(seed)
    theirs = load(f"pig(winscore={goal})").new()
    assert isinstance(theirs, ChanceSpielState)
    ours: AnyState = get_game("pig").new(goal=goal)
    for _ in range(rng.randrange(14)):
        if theirs.is_terminal():
            break
        chance = is_chance(theirs)
        action = sample_outcome(theirs, rng) if chance else rng.choice(theirs.legal_moves())
        assert isinstance(action, int)
        ours = ours.play(ours.parse_move(str(action + 1) if chance else ("roll", "hold")[action]))
        theirs = theirs.play(action)
    return theirs, ours


@pytest.mark.parametrize("seed", range(10))
def test_openspiel_pig_values_equal_zermelos_pig_by_expectiminimax(seed: int) -> None:
    # Pig's tree is endless (two players rolling 1), so both are searched 6 edges deep, with
    # the unread positions counted even: the two trees and their values must be the same.
    theirs, ours = _pig_pair(seed, goal=8)
    assert theirs.to_move == ours.to_move and is_chance(theirs) == is_chance(ours)
    if theirs.is_terminal():
        assert ours.is_terminal() and payoff_of(theirs) == payoff_of(ours)
        return
    even = lambda state: 0.0  # noqa: E731
    wrapped = expectiminimax(theirs, 6, evaluator=even)
    own = expectiminimax(ours, 6, evaluator=even)
    assert wrapped.value == pytest.approx(own.value, abs=1e-12)
    # OpenSpiel's pig makes a player hold once the turn reaches the goal (zermelo's allows a
    # roll that cannot pay); otherwise the moves and their values are the same.
    if len(wrapped.moves) == len(own.moves):
        assert [m.value for m in wrapped.moves] == pytest.approx([m.value for m in own.moves])
    # *-minimax prunes with OpenSpiel's utility bounds and finds the reference's value.
    starred = star_minimax(theirs, 6, evaluator=even)
    assert starred.value == pytest.approx(wrapped.value, abs=1e-9)


def test_the_engine_plays_openspiel_pig_by_expectiminimax() -> None:
    # With 7 banked of 8 and a turn total of 0, rolling once more can only win: holding cannot.
    state = get_game("openspiel:pig(winscore=8)").parse("0 3 0 2 1 1")
    assert isinstance(state, OpenSpielState) and "Scores: 7 0" in state.render()
    assert state.to_move is Player.FIRST
    assert EngineAgent(depth=4).choose(state) == 0


def test_zermelo_cfr_solves_kuhn_poker_through_interop() -> None:
    tree = build_tree(load("kuhn_poker").new())
    assert tree.nodes == 58
    assert nash_conv(tree, uniform_policy(tree)) == pytest.approx(11 / 12)
    average = cfr(tree, 300)
    assert expected_value(tree, average) == pytest.approx(-1 / 18, abs=1e-3)
    assert exploitability(tree, average) < 0.001


def test_zermelo_cfr_on_leduc_poker_through_interop() -> None:
    tree = build_tree(load("leduc_poker").new())
    assert tree.nodes == 9457
    assert nash_conv(tree, uniform_policy(tree)) == pytest.approx(4.747222222, abs=1e-6)


def test_the_cfr_levels_read_only_their_own_information() -> None:
    spec = get_game("openspiel:kuhn_poker")
    hard = make_agent(spec, "hard", seed=5)
    # The second player holds the queen; the first's card (king or jack) must not matter.
    king, jack = _kuhn_after((2, 1), 1), _kuhn_after((0, 1), 1)  # the first player bets
    assert king.information_set(Player.SECOND) == jack.information_set(Player.SECOND)
    twin = make_agent(spec, "hard", seed=5)
    assert [hard.choose(king) for _ in range(30)] == [twin.choose(jack) for _ in range(30)]
    # At the equilibrium the king always calls a bet: the level does so.
    holding_king = _kuhn_after((1, 2), 1)
    assert {hard.choose(holding_king) for _ in range(20)} == {1}
    easy = make_agent(spec, "easy", seed=5)
    assert easy.choose(king) in king.legal_moves()


def test_where_the_two_pigs_differ_the_values_agree() -> None:
    # Two 4s make a turn total of 8, the goal: OpenSpiel's pig only lets the player hold,
    # zermelo's lets them roll on too; holding wins, so both value the position +1.
    theirs = load("pig(winscore=8)").parse("0 3 0 3")
    ours = get_game("pig").new(goal=8)
    for move in ("roll", "4", "roll", "4"):
        ours = ours.play(ours.parse_move(move))
    assert theirs.legal_moves() == [1] and len(ours.legal_moves()) == 2
    assert expectiminimax(theirs, 4).value == expectiminimax(ours, 4).value == 1.0


def test_any_small_two_player_zero_sum_hidden_game_is_solved_as_openspiel_solves_it() -> None:
    # Not only poker: Liar's Dice with one two-sided die each (127 histories). The uniform
    # policy's NashConv equals OpenSpiel's, and CFR+ finds OpenSpiel's value, 1/2.
    name = "liars_dice(dice_sides=2)"
    game = pyspiel.load_game(name)
    tree = build_tree(load(name).new())
    assert tree.nodes == 127
    theirs = pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game))
    assert nash_conv(tree, uniform_policy(tree)) == pytest.approx(theirs) == 1.125
    average = cfr(tree, 200)
    assert expected_value(tree, average) == pytest.approx(0.5, abs=1e-3)
    assert exploitability(tree, average) < 1e-3
