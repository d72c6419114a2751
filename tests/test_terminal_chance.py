"""The terminal game with chance nodes and hidden information, on two toy games written against the
shared protocol (tests/toy_chance.py): the dice come from the session's seed and nobody is asked,
one line says each roll, undo puts the dice back, a hidden game shows only the person's view and
never the AI's card before a showdown, scored games say the points, and the prompts read numbered
choices."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Hashable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import toy_chance
from zermelo.agents.base import RandomAgent
from zermelo.core.errors import ParseError
from zermelo.core.record import GameSpec, Grid
from zermelo.core.state import AnyState, Player, end_reason, is_chance, sample_outcome
from zermelo.ui.terminal.boards import BackgammonView, CardsView, DiceView, view_for
from zermelo.ui.terminal.session import GameOptions, Session


@pytest.fixture(autouse=True)
def _toys(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    toy_chance.install(monkeypatch)
    yield
    from zermelo.games import registry

    registry._load.cache_clear()


def _session(
    game: str, text: str, *, seed: int, rich: bool = False, **options: object
) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=rich, width=100, highlight=False)
    chosen = GameOptions(game=game, first="human", seed=seed, level="easy", repeat=False)
    for name, value in options.items():
        setattr(chosen, name, value)
    return Session(chosen, stdin=io.StringIO(text), console=console), out


def _reference_dice_game(
    seed: int, script: list[str]
) -> tuple[list[tuple[Player, int]], Player, int]:
    """The toy dice game replayed without the terminal: the session's generator gives the AI's
    seed first, then one draw per roll; the person plays ``script`` (cycled), the AI is random."""
    rng = random.Random(seed)
    agent = RandomAgent(seed=rng.randrange(2**32))
    state: AnyState = toy_chance.DICE_SPEC.new(first=Player.SECOND)
    rolls = []
    turn = 0
    while not state.is_terminal():
        if is_chance(state):
            face = sample_outcome(state, rng)
            assert isinstance(face, int)
            rolls.append((state.to_move, face))
            state = state.play(face)
        elif state.to_move == Player.SECOND:  # the person: first="human", the default side O
            state = state.play(script[turn % len(script)])
            turn += 1
        else:
            state = state.play(agent.choose(state))
    assert state.winner is not None
    return rolls, state.winner, turn


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_dice_game_plays_to_the_end_with_the_rolls_of_its_seed(seed: int) -> None:
    script = ["roll", "roll", "hold"]
    session, out = _session("toydice", "\n".join(["1", "1", "2"] * 200) + "\n", seed=seed)
    assert session.run() == 0
    text = out.getvalue()
    said = [
        (Player.SECOND if who == "You" else Player.FIRST, int(face))
        for who, face in re.findall(r"^(You|The AI) rolled (\d+)", text, flags=re.M)
    ]
    rolls, winner, decisions = _reference_dice_game(seed, script)
    assert said == rolls
    assert ("Congratulations! You win!" in text) == (winner == Player.SECOND)
    assert ("AI wins!" in text) == (winner == Player.FIRST)
    assert "Game over: goal reached." in text
    # Nobody is asked for a roll: the person is asked for each decision, and only then.
    assert text.count("Your move (1=roll, 2=hold): ") == decisions


def test_a_roll_of_one_ends_the_turn_in_the_same_line() -> None:
    session, out = _session("toydice", "1\n" * 50 + "2\n" * 50, seed=1)
    session.run()
    lines = out.getvalue().splitlines()
    ones = [line for line in lines if re.match(r"(You|The AI) rolled 1\b", line)]
    assert ones and all(line.endswith("turn is over.") for line in ones)
    others = [line for line in lines if re.match(r"(You|The AI) rolled [23]\b", line)]
    assert others and all(line.endswith(f"rolled {line[-2]}.") for line in others)


def test_the_same_seed_replays_the_same_session_and_another_seed_another() -> None:
    text = "1\n2\n" * 100
    runs = []
    for seed in (7, 7, 8):
        session, out = _session("toydice", text, seed=seed)
        session.run()
        runs.append(out.getvalue())
    assert runs[0] == runs[1] != runs[2]


def test_undo_takes_back_to_the_decision_and_the_same_dice_come_again() -> None:
    session, out = _session("toydice", "1\n1\nundo\n1\n1\n" + "2\n1\n" * 100, seed=5)
    session.run()
    rolls = re.findall(r"^You rolled (\d+)", out.getvalue(), flags=re.M)
    # roll, roll, undo (back before the second roll), roll: the second roll comes again.
    assert "Took back your last move." in out.getvalue()
    assert rolls[1] == rolls[2], rolls[:4]


def test_undo_before_any_decision_takes_nothing_back() -> None:
    session, out = _session("toydice", "undo\n" + "1\n2\n" * 100, seed=2)
    session.run()
    assert "Nothing to take back yet." in out.getvalue()


def test_the_dice_board_shows_the_totals_the_turn_total_the_last_roll_and_the_goal() -> None:
    view = DiceView(toy_chance.DICE_SPEC)
    view.viewer = Player.SECOND
    state = toy_chance.DiceState(totals=(5, 3), turn=2, to_move=Player.SECOND, last_roll=2)
    assert view.render(state, None, rich=False) == (
        "  X (AI)     5\n> O (you)    3   turn total: 2\nLast roll: 2\ngoal: 8"
    )
    drawn = view.render(state, None, rich=True)
    assert "█" * 12 + "░" * 8 in drawn  # X: 5 of 8 on a bar of 20
    assert view.prompt(state) == "Your move (1=roll, 2=hold): "


def test_bad_input_gets_one_line_and_the_question_again() -> None:
    session, out = _session("toydice", "x\n9\n0\n" + "r" * 5000 + "\n?\n" + "1\n2\n" * 100, seed=4)
    session.run()
    text = out.getvalue()
    assert "'x' is not a choice: type a number 1-2 or one of: roll, hold\n" in text
    assert "'9' is not a choice: type a number 1-2 or one of: roll, hold\n" in text
    assert "'0' is not a choice" in text
    assert "'" + "r" * 40 + "...' is not a choice" in text  # a long line is quoted short
    assert "Legal moves: roll, hold\n" in text


# -- hidden information -----------------------------------------------------------------------


def _hidden_outcomes(played: list[tuple[AnyState, Hashable]], human: Player) -> list[str]:
    """The chance outcomes of a game that ``human`` could not see: those whose every alternative
    leaves the person's information set the same."""
    hidden = []
    for before, outcome in played:
        if not is_chance(before):
            continue
        sets = {before.play(o).information_set(human) for o in before.legal_moves()}  # type: ignore[attr-defined]
        if len(sets) == 1:
            hidden.append(before.format_move(outcome))
    return hidden


def _play_marking_moves(session: Session, out: io.StringIO) -> tuple[AnyState, list[int]]:
    """Greet and play one game; the final state, and how much had been written at each move
    (the last mark: everything before the final board)."""
    session._greet()
    cut: list[int] = []
    state = session.play_one(on_move=lambda move: cut.append(len(out.getvalue())))
    return state, cut


def _revealed(spec: GameSpec, state: AnyState, human: Player) -> bool:
    """True when the rules show the person the other side's cards at the end (a showdown)."""
    assert spec.view is not None
    return any(card not in ("", "?") for card in spec.view(state, human).cells[0])


def _card_tokens(text: str, card: str) -> bool:
    return re.search(rf"(?<![A-Za-z]){re.escape(card)}(?![a-z])", text) is not None


@pytest.mark.parametrize("seed", range(40))
def test_the_ais_card_appears_in_no_line_before_the_showdown(seed: int) -> None:
    session, out = _session("toycards", "1\n2\n" * 10, seed=seed)
    state, cut = _play_marking_moves(session, out)
    text = out.getvalue()
    before_end = text[: cut[-1]]
    hidden = _hidden_outcomes(session._played, session.human)
    assert len(hidden) == 1  # the AI's card
    card = hidden[0]
    assert not _card_tokens(before_end, card), (card, before_end)
    truth = state.notation()
    assert truth not in text
    if not _revealed(session.spec, state, session.human):  # a fold reveals nothing
        assert not _card_tokens(text, card)
    else:
        assert _card_tokens(text[cut[-1] :], card)  # the showdown shows it
    assert "Cards are dealt." in text


def test_a_hidden_game_says_the_ais_public_bets_and_the_points() -> None:
    session, out = _session("toycards", "2\n", seed=11)
    assert session.run() == 0
    text = out.getvalue()
    assert (
        "You are 'X' and the AI is 'O'\n\nCards are dealt.\nAI:    [?]\nBoard: -\nYou:   [Q]\n"
        in text
    )
    assert "AI plays bet.\nAI:    [K]\nBoard: -\nYou:   [Q]\npot: 4, bets: bet bet\n" in text
    assert "Game over: showdown.\n\nAI wins!\nThe AI wins 2 points.\n" in text


def test_a_hidden_game_cannot_be_saved(tmp_path: object) -> None:
    with pytest.raises(ParseError, match="hides the other side's cards"):
        _session("toycards", "", seed=1, save="game.txt")
    session, out = _session("toycards", "save game.txt\n1\n1\n1\n", seed=7)
    session.run()
    assert "it cannot be saved\n" in out.getvalue()


def test_the_score_of_a_scored_game_counts_points() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100, highlight=False)
    chosen = GameOptions(game="toycards", first="human", seed=11, level="easy", repeat=True)
    Session(chosen, stdin=io.StringIO("2\ny\n2\n2\nn\n"), console=console).run()
    text = out.getvalue()
    points = re.findall(r"^Points: you ([+-]\d+)$", text, flags=re.M)
    won = [int(n) for n in re.findall(r"^You win (\d+) points?\.$", text, flags=re.M)]
    lost = [int(n) for n in re.findall(r"^The AI wins (\d+) points?\.$", text, flags=re.M)]
    assert len(points) == 2 and int(points[-1]) == sum(won) - sum(lost)


# -- the boards -------------------------------------------------------------------------------


def test_the_cards_board_draws_the_three_rows_and_the_facts() -> None:
    view = CardsView(toy_chance.CARDS_SPEC)
    view.viewer = Player.FIRST
    state = toy_chance.CardsState(deal=("K", "J"), bets=("bet",))
    assert view.render(state, None, rich=False) == (
        "AI:    [?]\nBoard: -\nYou:   [K]\npot: 3, bets: bet"
    )
    view.viewer = Player.SECOND
    assert view.render(state, None, rich=False).startswith("AI:    [?]\nBoard: -\nYou:   [J]\n")
    view.viewer = None  # nobody's view: the public grid, no card shown
    assert "[K]" not in view.render(state, None, rich=False)
    assert "[J]" not in view.render(state, None, rich=False)
    rich = CardsView(toy_chance.CARDS_SPEC)
    rich.viewer = Player.FIRST
    assert "[bold white on blue] ? [/]" in rich.render(state, None, rich=True)


def _start_cells() -> list[list[str]]:
    """The backgammon start as the record's grid documents it: the top row points 13..24 then
    the first player's bar and off, the bottom row points 12..1 then the second's."""
    first = {24: 2, 13: 5, 8: 3, 6: 5}
    second = {1: 2, 12: 5, 17: 3, 19: 5}

    def cell(point: int) -> str:
        if point in first:
            return f"X{first[point]}"
        if point in second:
            return f"O{second[point]}"
        return ""

    top = [cell(p) for p in range(13, 25)] + ["", ""]
    bottom = [cell(p) for p in range(12, 0, -1)] + ["", ""]
    return [top, bottom]


def _fake_backgammon(cells: list[list[str]]) -> GameSpec:
    grid = Grid.of(cells, facts=(("dice", "6 3"), ("cube", "1")))
    spec = toy_chance.DICE_SPEC
    import dataclasses

    return dataclasses.replace(spec, name="fakebg", board="backgammon", grid=lambda state: grid)


def test_the_backgammon_board_stacks_the_checkers_and_counts_the_pips() -> None:
    view = BackgammonView(_fake_backgammon(_start_cells()))
    view.viewer = Player.FIRST
    drawn = view.render(toy_chance.DICE_SPEC.new(), None, rich=False)
    lines = drawn.splitlines()
    assert lines[0] == " 13 14 15 16 17 18      19 20 21 22 23 24"
    assert lines[-4] == " 12 11 10  9  8  7       6  5  4  3  2  1"
    assert lines[2] == "| X  .  .  .  O  . |   | O  .  .  .  .  X |"
    assert lines[6] == "| X                |   | O                |"  # five X on 13, five O on 19
    assert lines[7] == "|                  |BAR|                  |"
    assert lines[8] == "| O                |   | X                |"  # five O on 12, five X on 6
    assert lines[12] == "| O  .  .  .  X  . |   | X  .  .  .  .  O |"
    assert "X (you): 167 pips, 0 on the bar, 0 off" in drawn
    assert "O (AI): 167 pips, 0 on the bar, 0 off" in drawn
    assert lines[-1] == "dice: 6 3, cube: 1"
    # The second player sees the board turned: their 24-point (the first player's 1) top right.
    view.viewer = Player.SECOND
    turned = view.render(toy_chance.DICE_SPEC.new(), None, rich=False).splitlines()
    assert turned[2] == "| O  .  .  .  X  . |   | X  .  .  .  .  O |"
    assert turned[-3].startswith("O (you): 167 pips")


def test_a_tall_stack_shows_its_count_and_the_bar_and_the_tray_count() -> None:
    cells = [[""] * 14, [""] * 14]
    cells[1][11] = "X9"  # nine X on the 1-point
    cells[0][12] = "X2"  # two X on the bar
    cells[0][13] = "X4"  # four borne off
    cells[1][0] = "O15"  # fifteen O on the 12-point
    view = BackgammonView(_fake_backgammon(cells))
    view.viewer = Player.FIRST
    drawn = view.render(toy_chance.DICE_SPEC.new(), None, rich=False)
    assert " 9 |" in drawn and "|15 " in drawn
    assert "X (you): 59 pips, 2 on the bar, 4 off" in drawn  # 9 x 1 + 2 x 25
    assert "O (AI): 195 pips, 0 on the bar, 0 off" in drawn  # 15 x 13


def test_every_new_kind_has_its_view() -> None:
    assert isinstance(view_for(toy_chance.DICE_SPEC), DiceView)
    assert isinstance(view_for(toy_chance.CARDS_SPEC), CardsView)


# -- fuzz -------------------------------------------------------------------------------------

_DICE = toy_chance.DiceState(totals=(1, 2), turn=3, to_move=Player.FIRST)
_CARDS = toy_chance.CardsState(deal=("Q", "K"), bets=("pass",))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_line_is_a_legal_choice_or_one_line_saying_what_is_wrong(text: str) -> None:
    for spec, state in ((toy_chance.DICE_SPEC, _DICE), (toy_chance.CARDS_SPEC, _CARDS)):
        view = view_for(spec)
        view.viewer = Player.FIRST
        answer = view.read(state, text)
        if answer.message is None:
            assert answer.move in state.legal_moves()
        else:
            assert "\n" not in answer.message and len(answer.message) < 400


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(["1", "2", "roll", "hold", "undo", "?", "x", "7", ""]), max_size=40)
)
def test_any_script_ends_the_session_with_one_line_and_a_status(words: list[str]) -> None:
    session, out = _session("toydice", "".join(w + "\n" for w in words), seed=9)
    status = session.run()
    text = out.getvalue()
    assert status in (0, 1)
    if status == 1:
        assert text.endswith("Input ended before the game was over; goodbye.\n")
    else:
        assert "Game over: goal reached." in text


# -- the poker games (branch poker) -----------------------------------------------------------


@pytest.fixture
def random_ai(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI plays uniformly at random whatever the level: the faces' tests need an agent, not
    a strong one (and one that reads only its legal moves)."""
    import zermelo.ui.terminal.session as session_module

    def uniform(spec: GameSpec, level: str, *, seed: int, time_limit: float | None) -> RandomAgent:
        return RandomAgent(seed)

    monkeypatch.setattr(session_module, "make_agent", uniform)


def _check_no_card_before_the_showdown(game: str, seeds: range, level: str) -> None:
    showdowns = folds = 0
    for seed in seeds:
        first = "human" if seed % 2 else "ai"
        session, out = _session(
            game, "2\n1\n2\n3\n1\n2\n3\n2\n" * 3, seed=seed, first=first, level=level
        )
        state, cut = _play_marking_moves(session, out)
        text = out.getvalue()
        start = text.index("You are '")  # after the intro, which names the cards
        hidden = _hidden_outcomes(session._played, session.human)
        assert len(hidden) == 1, hidden  # the AI's card; the board card is public
        card = hidden[0]
        assert not _card_tokens(text[start : cut[-1]], card), (seed, card, text)
        own = [
            before.format_move(move)
            for before, move in session._played
            if is_chance(before) and before.format_move(move) != card
        ]
        assert all(_card_tokens(text[start : cut[-1]], mine) for mine in own), (seed, own)
        assert state.notation() not in text[start:]
        if not _revealed(session.spec, state, session.human):  # a fold
            folds += 1
            assert not _card_tokens(text[start:], card)
        else:
            showdowns += 1
            assert _card_tokens(text[cut[-1] :], card)  # the showdown shows it
    assert showdowns and folds  # both endings were seen


@pytest.mark.usefixtures("random_ai")
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_no_line_before_the_showdown_shows_the_ais_card(game: str) -> None:
    _check_no_card_before_the_showdown(game, range(60), "easy")


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_no_line_before_the_showdown_shows_the_ais_card_against_the_real_levels(
    game: str, level: str
) -> None:
    _check_no_card_before_the_showdown(game, range(100, 130), level)


@pytest.mark.usefixtures("random_ai")
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_a_poker_hand_ends_with_the_points_the_payoff_gives(game: str) -> None:
    for seed in range(10):
        session, out = _session(game, "2\n" * 10, seed=seed)
        session._greet()
        state = session.play_one()
        payoff = state.payoff()  # type: ignore[attr-defined]
        mine = payoff if session.human == Player.FIRST else -payoff
        text = out.getvalue()
        if mine > 0:
            assert f"\nYou win {mine:g} point" in text
        elif mine < 0:
            assert f"\nThe AI wins {-mine:g} point" in text
        else:
            assert "It's a tie!" in text


class _FirstMove(io.StringIO):
    """A person who answers every prompt with the first legal move: ``1`` for numbered
    choices, else the prompt's example (the first legal move); input ends after ``limit``."""

    def __init__(self, out: io.StringIO, limit: int = 5000) -> None:
        super().__init__()
        self.out, self.asked, self.limit = out, 0, limit

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        self.asked += 1
        if self.asked > self.limit:
            return ""
        text = self.out.getvalue()
        prompt = text[text.rfind("Your move") :]
        example = re.fullmatch(r"Your move \(e\.g\. (.*)\): ", prompt)
        return (example.group(1) if example else "1") + "\n"

    def isatty(self) -> bool:
        return False


def _replay_first_moves(
    game: str, seed: int, agent_of: type[RandomAgent] | None = None
) -> tuple[list[tuple[bool, str]], AnyState, Player, int]:
    """The session's game replayed without it (:func:`toy_chance.replay_session`), the person
    playing the first legal move: the rolls, the final state, the person's side and the number
    of the person's decisions."""
    return toy_chance.replay_session(
        game, seed, lambda state, _n: state.legal_moves()[0], agent_of=agent_of
    )


def _play_first_moves(game: str, seed: int) -> tuple[Session, str, AnyState]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100, highlight=False)
    options = GameOptions(game=game, seed=seed, level="easy", repeat=False)
    session = Session(options, stdin=_FirstMove(out), console=console)
    session._greet()
    final = session.play_one()
    return session, out.getvalue(), final


def _points_said(text: str) -> float:
    won = re.search(r"^You win ([\d.]+) points?\.$", text, flags=re.M)
    lost = re.search(r"^The AI wins ([\d.]+) points?\.$", text, flags=re.M)
    assert not (won and lost)
    return float(won.group(1)) if won else -float(lost.group(1)) if lost else 0.0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_backgammon_plays_to_the_end_with_the_dice_of_the_seed_and_says_the_points(
    seed: int,
) -> None:
    from zermelo.core.state import payoff_of

    session, text, final = _play_first_moves("backgammon", seed)
    rolls, state, human, asked = _replay_first_moves("backgammon", seed)
    assert final == state and session.human == human
    said = re.findall(r"^(You|The AI) rolled (\d) and (\d)", text, flags=re.M)
    assert [(who == "You", a + b) for who, a, b in said] == rolls[1:]  # after the opening roll
    assert re.search(
        r"^Opening roll: you \d, the AI \d; (you|the AI) plays? first\.$", text, flags=re.M
    )
    assert text.count("Your move (") == asked
    mine = payoff_of(state) if human == Player.FIRST else -payoff_of(state)
    assert mine != 0 and _points_said(text) == mine
    assert ("Congratulations! You win!" in text) == (mine > 0)
    assert f"Game over: {end_reason(state)}." in text


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_pig_plays_to_the_end_for_either_side(seed: int) -> None:
    session, text, final = _play_first_moves("pig", seed)
    rolls, state, human, asked = _replay_first_moves("pig", seed)
    assert final == state and session.human == human
    said = re.findall(r"^(You|The AI) rolled (\d+)", text, flags=re.M)
    assert [(who == "You", face) for who, face in said] == rolls
    assert text.count("Your move (1=roll, 2=hold): ") == asked
    assert ("Congratulations! You win!" in text) == (state.winner == human)


@pytest.mark.usefixtures("random_ai")
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_poker_hand_plays_to_the_end_for_either_side(game: str, seed: int) -> None:
    from zermelo.core.state import payoff_of

    session, text, final = _play_first_moves(game, seed)
    _rolls, state, human, asked = _replay_first_moves(game, seed, RandomAgent)
    assert final == state and session.human == human
    assert text.count("Your move (") == asked
    mine = payoff_of(state) if human == Player.FIRST else -payoff_of(state)
    assert _points_said(text) == mine
    assert "Cards are dealt." in text


_HOPS = st.lists(
    st.tuples(st.sampled_from(["24", "13", "8", "6", "bar", "25", "3", "x"]),
              st.sampled_from(["22", "18", "11", "7", "off", "0", "4", "/"]),
              st.sampled_from(["", "*", "(2)", "(5)"])),
    max_size=4,
).map(lambda hops: " ".join(f"{a}/{b}{mark}" for a, b, mark in hops))  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(_HOPS, st.text(max_size=40)))
def test_any_line_is_a_legal_backgammon_move_or_one_line_saying_what_is_wrong(text: str) -> None:
    from zermelo.games.backgammon import Roll
    from zermelo.games.registry import get_game

    spec = get_game("backgammon")
    start = spec.new()
    view = view_for(spec)
    view.viewer = Player.FIRST
    rolled = start.play(Roll(6, 2))
    for state in (rolled, rolled.play(rolled.parse_move("24/18 13/11"))):
        answer = view.read(state, text)
        if answer.message is None:
            assert answer.move in state.legal_moves()
        else:
            assert "\n" not in answer.message and len(answer.message) < 600, answer.message
