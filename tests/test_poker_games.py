"""Kuhn poker and Leduc hold'em: the rules equal OpenSpiel's on every history of the game tree,
the notation reads back, and the hidden card stays out of the other side's view."""

from __future__ import annotations

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zermelo.core.errors import IllegalMoveError, ParseError
from zermelo.core.record import GameSpec
from zermelo.core.state import AnyState, Player, information_set, is_chance, payoff_of
from zermelo.games.poker import kuhn, leduc
from zermelo.games.registry import get_game

GAMES = [("kuhn_poker", kuhn, ("pass", "bet")), ("leduc_poker", leduc, ("fold", "call", "raise"))]


def _walk(name: str, module: object, actions: tuple[str, ...]) -> int:
    """Walk OpenSpiel's tree and ours side by side; the count of histories compared."""
    game = pyspiel.load_game(name)
    cards = module.CARDS  # type: ignore[attr-defined]
    seen = 0
    stack = [(game.new_initial_state(), module.parse(""))]  # type: ignore[attr-defined]
    infosets: dict[tuple[int, str], str] = {}
    while stack:
        theirs, ours = stack.pop()
        seen += 1
        assert ours.is_terminal() == theirs.is_terminal()
        assert module.parse(ours.notation()) == ours  # type: ignore[attr-defined]
        if theirs.is_terminal():
            assert ours.payoff() == theirs.returns()[0]
            assert ours.legal_moves() == []
            continue
        if theirs.is_chance_node():
            assert ours.is_chance()
            outcomes = theirs.chance_outcomes()
            mine = ours.chance_outcomes()
            assert [cards.index(m) for m, _ in mine] == [a for a, _ in outcomes]
            assert [p for _, p in mine] == pytest.approx([p for _, p in outcomes])
            assert ours.legal_moves() == [cards[a] for a, _ in outcomes]
            for action, _ in outcomes:
                stack.append((theirs.child(action), ours.play(cards[action])))
            continue
        assert not ours.is_chance()
        assert ours.to_move == theirs.current_player()
        legal = theirs.legal_actions()
        assert ours.legal_moves() == [actions[a] for a in legal]
        for player in (0, 1):
            # one of our information sets per one of theirs, in both directions
            key = (player, theirs.information_state_string(player))
            mine = ours.information_set(Player(player))
            assert infosets.setdefault(key, mine) == mine
            assert infosets.setdefault((player + 2, mine), key[1]) == key[1]
        for action in legal:
            stack.append((theirs.child(action), ours.play(actions[action])))
    return seen


@pytest.mark.parametrize(("name", "module", "actions"), GAMES)
def test_every_history_equals_openspiel(
    name: str, module: object, actions: tuple[str, ...]
) -> None:
    seen = _walk(name, module, actions)
    assert seen == {"kuhn_poker": 58, "leduc_poker": 9457}[name]


def test_kuhn_payoffs_and_reasons() -> None:
    assert kuhn.parse("K Q pass pass").payoff() == 1
    assert kuhn.parse("J Q bet bet").payoff() == -2
    assert kuhn.parse("J Q bet pass").payoff() == 1
    assert kuhn.parse("K J pass bet pass").payoff() == -1
    assert kuhn.parse("K J pass bet pass").termination() == "folded"
    assert kuhn.parse("K J pass bet bet").termination() == "showdown"
    assert kuhn.parse("K J pass bet bet").winner is Player.FIRST
    assert kuhn.parse("K J pass").termination() is None


def test_leduc_payoffs() -> None:
    # a pair beats a higher card; raises are 2 then 4; equal ranks split
    assert leduc.parse("Js Ks call call Jh call call").payoff() == 1
    assert leduc.parse("Js Ks raise call Jh raise call").payoff() == 7
    assert leduc.parse("Js Jh raise raise call Ks raise raise call").payoff() == 0
    assert leduc.parse("Qs Kh raise raise call Jh raise raise call").payoff() == -13
    assert leduc.parse("Qs Kh raise fold").payoff() == 1
    assert leduc.parse("Qs Kh call raise fold").payoff() == -1
    state = leduc.parse("Qs Kh raise call")
    assert is_chance(state) and state.to_move is Player.FIRST
    assert state.legal_moves() == ["Js", "Jh", "Qh", "Ks"]


@pytest.mark.parametrize(
    ("module", "text", "expected"),
    [
        (kuhn, "k q p b", "K Q pass bet"),
        (kuhn, " K,Q  check call ", "K Q pass bet"),
        (leduc, "ks QH r c jh c", "Ks Qh raise call Jh call"),
        (leduc, "Ks Qh check bet call", "Ks Qh call raise call"),
        (kuhn, "", ""),
    ],
)
def test_notation_aliases(module: object, text: str, expected: str) -> None:
    assert module.parse(text).notation() == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("module", "text", "error", "words"),
    [
        (kuhn, "K K", IllegalMoveError, "cannot be dealt"),
        (kuhn, "K Q raise", ParseError, "expected pass or bet"),
        (kuhn, "K pass", IllegalMoveError, "cannot be dealt"),
        (kuhn, "K Q pass pass bet", IllegalMoveError, "the hand is over"),
        (kuhn, "K Q J", IllegalMoveError, "is not a move now"),
        (leduc, "Ks Qh fold", IllegalMoveError, "is not a move now"),
        (leduc, "Ks Qh r r r", IllegalMoveError, "is not a move now"),
        (leduc, "Ks Qh c c call", IllegalMoveError, "cannot be dealt"),
        (leduc, "Ks Qx", ParseError, "expected fold, call or raise"),
        (leduc, "K " * 150, ParseError, "at most 200"),
    ],
)
def test_bad_positions_get_one_line(
    module: object, text: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words) as caught:
        module.parse(text)  # type: ignore[attr-defined]
    assert "\n" not in str(caught.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80), st.sampled_from([kuhn, leduc]))
def test_fuzz_parse_gives_a_state_or_one_error_line(text: str, module: object) -> None:
    try:
        state = module.parse(text)  # type: ignore[attr-defined]
    except (ParseError, IllegalMoveError) as error:
        assert "\n" not in str(error)
    else:
        assert module.parse(state.notation()) == state  # type: ignore[attr-defined]


_TOKENS = st.sampled_from(
    ["J", "Q", "K", "Js", "Jh", "Qs", "Qh", "Ks", "Kh", "pass", "bet", "fold", "call", "raise"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKENS, max_size=16), st.sampled_from([kuhn, leduc]))
def test_fuzz_move_sequences(tokens: list[str], module: object) -> None:
    try:
        state = module.parse(" ".join(tokens))  # type: ignore[attr-defined]
    except (ParseError, IllegalMoveError) as error:
        assert "\n" not in str(error)
    else:
        assert module.parse(state.notation()) == state  # type: ignore[attr-defined]


def _deal_all(spec: GameSpec, moves: list[str]) -> AnyState:
    state = spec.parse("")
    for move in moves:
        state = state.play(state.parse_move(move))
    return state


@pytest.mark.parametrize(
    ("name", "hand", "other"),
    [
        ("kuhn", ["K", "Q", "pass"], ["K", "J", "pass"]),
        ("leduc", ["Ks", "Qh", "raise", "call", "Jh"], ["Ks", "Kh", "raise", "call", "Jh"]),
    ],
)
def test_views_hide_the_other_card(name: str, hand: list[str], other: list[str]) -> None:
    spec = get_game(name)
    assert spec.hidden and spec.chance and spec.scored and spec.board == "cards"
    assert spec.view is not None
    one, two = _deal_all(spec, hand), _deal_all(spec, other)
    # the first player cannot tell the two apart: same information set, view and observation
    assert information_set(one, Player.FIRST) == information_set(two, Player.FIRST)
    assert spec.view(one, Player.FIRST) == spec.view(two, Player.FIRST)
    assert one.observation(Player.FIRST) == two.observation(Player.FIRST)  # type: ignore[attr-defined]
    assert information_set(one, Player.SECOND) != information_set(two, Player.SECOND)
    view = spec.view(one, Player.FIRST)
    assert view.cells[0] == ("?",) and view.cells[2] == (hand[0],)
    spectator = spec.grid(one)
    assert spectator.cells[0] == ("?",) and spectator.cells[2] == ("?",)
    assert hand[1] not in str(spectator) and hand[1] not in str(view)
    assert dict(view.facts)["pot"] == dict(spectator.facts)["pot"]


def test_showdown_reveals_and_fold_does_not() -> None:
    shown = kuhn.parse("K Q bet bet")
    assert kuhn.view(shown, Player.FIRST).cells == (("Q",), (), ("K",))
    assert dict(kuhn.view(shown, Player.SECOND).facts)["you win"] == "-2"
    folded = kuhn.parse("K Q bet pass")
    assert kuhn.view(folded, Player.FIRST).cells == (("?",), (), ("K",))
    assert folded.observation(Player.FIRST) == "K ? bet pass"
    end = leduc.parse("Ks Qh raise call Jh call call")
    assert leduc.view(end, Player.SECOND).cells == (("Ks",), ("Jh",), ("Qh",))
    assert dict(leduc.grid(end).facts) == {
        "round": "2",
        "pot": "6",
        "X's chips in": "3",
        "O's chips in": "3",
        "betting": "raise call / call call",
        "X wins": "+3",
    }


def test_payoff_of_and_first_player_only() -> None:
    assert payoff_of(kuhn.parse("J K bet bet")) == -2
    with pytest.raises(ValueError, match="first player always acts first"):
        kuhn.SPEC.new(first=Player.SECOND)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["kuhn", "leduc"]))
def test_fuzz_no_view_shows_the_other_card_before_a_showdown(seed: int, name: str) -> None:
    import random

    from zermelo.core.state import sample_outcome

    spec = get_game(name)
    assert spec.view is not None
    rng = random.Random(seed)
    state = spec.new()
    while True:
        cards = getattr(state, "cards")  # noqa: B009 - the truth, to compare the views with
        for player in (Player.FIRST, Player.SECOND):
            if len(cards) <= 1 - player:
                continue
            hidden = spec.parse("").format_move(module_cards(name)[cards[1 - player]])
            view = spec.view(state, player)
            seen = [cell for row in view.cells for cell in row] + [v for _, v in view.facts]
            observed = state.observation(player).split()  # type: ignore[attr-defined]
            if state.is_terminal() and state.termination() == "showdown":  # type: ignore[attr-defined]
                assert hidden in seen and hidden in observed
            else:
                assert hidden not in seen and hidden not in observed
                assert hidden not in str(information_set(state, player))
                assert hidden not in [cell for row in spec.grid(state).cells for cell in row]
        if state.is_terminal():
            break
        if is_chance(state):
            state = state.play(sample_outcome(state, rng))
        else:
            state = state.play(rng.choice(list(state.legal_moves())))


def module_cards(name: str) -> tuple[str, ...]:
    return kuhn.CARDS if name == "kuhn" else leduc.CARDS
