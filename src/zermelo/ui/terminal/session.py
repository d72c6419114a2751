"""The terminal game: a person against the AI, as in the tutorial's ``play_game``.

The flow and the English words are the tutorial's: a greeting, the map of positions, the board
before every move, "AI's turn..." while the AI thinks, ``Your turn (0-8): `` for the person, and one
of "AI wins!", "Congratulations! You win!" or "It's a tie!". Beyond the tutorial: who starts, which
side the person plays and the AI's level are options; a seed replays everything; after a game it
offers another and keeps the score.

On a terminal the board is drawn in colour, with the last move marked and the free squares numbered;
into a pipe it is the tutorial's plain text.

Games of chance and of hidden information (the record's ``chance`` and ``hidden``). Nobody is
asked for a roll or a deal: at a chance node the session draws the outcome with
:func:`~zermelo.core.state.sample_outcome` and its own ``random.Random(seed)`` and says in one
line what happened ("You rolled 5.", "The AI rolled 6 and 3."); the board is drawn for the
person's decisions, and the AI's turn is the lines of its decisions and rolls. A decision among a
few words (roll/hold, pass/bet, fold/call/raise, double/take/drop) is offered as numbered choices.
In a game with hidden information the person sees only the record's ``view`` of their side and
their own observation: never ``notation()``, never the AI's deal (a run of deals is one line,
"Cards are dealt.", naming no card), and an AI move only when the person can tell it from the
AI's other moves; the view reveals at the end what the rules reveal (a showdown, not a fold).
Such a game cannot be saved (the file would hold the AI's cards). Undo in a game of chance goes
back to the person's last decision and puts the generator back as it was there, so the same dice
come again if the same moves are played: undo cannot roll again (nor deal again). A scored game
(``scored``) ends with the points won, and the score between games counts them. End of input ends the session with one line: with exit
status 0 when it comes at the "Play again?" question (the games are over), else 1. Ctrl-C ends it
with one line and status 130.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import IO, Protocol, TypeVar, overload, runtime_checkable

from rich.console import Console
from rich.markup import escape

from zermelo.agents.base import Agent
from zermelo.agents.spec import make_agent
from zermelo.core.record import OptionValue
from zermelo.core.state import (
    GAME_OVER,
    AnyState,
    Player,
    end_reason,
    information_set,
    is_chance,
    payoff_of,
    sample_outcome,
)
from zermelo.games.registry import game_names, get_game
from zermelo.i18n import gettext as _
from zermelo.i18n import ngettext
from zermelo.ui.terminal.boards import BoardView, view_for

__all__ = ["GameOptions", "Scoreboard", "Session", "TutorialBoard", "play_tutorial_game"]

S = TypeVar("S", bound=AnyState)

EXIT_INPUT_ENDED = 1
EXIT_INTERRUPTED = 130


class TutorialBoard(Protocol):
    """What the tutorial's game (:class:`zermelo.tutorial.TicTacToe`) hands to the terminal game:
    its nine squares (``" "``, ``"X"`` or ``"O"``), which the game writes back, and the sides."""

    board: list[str]
    human_player: str
    ai_player: str

    def get_best_move(self) -> int | None: ...


@dataclass
class GameOptions:
    """What ``zermelo play`` was asked for."""

    game: str = field(default_factory=lambda: game_names()[0])
    first: str = "random"  # "human", "ai" or "random"
    human: str | None = None  # the person's symbol; default: the second player's ("O")
    level: str = "hard"
    seed: int | None = None
    time_limit: float | None = None
    repeat: bool = True
    game_options: dict[str, OptionValue] = field(default_factory=dict)
    start: str | None = None  # the start position in the game's notation; default: the initial one
    save: str | None = None  # a file to save each finished game to


@dataclass
class Scoreboard:
    human: int = 0
    ai: int = 0
    ties: int = 0
    points: float = 0.0  # in a scored game: what the person has won, net


class _InputEnded(Exception):
    pass


_UNDO = object()
"""What :meth:`Session._human_move` returns when the person asks to take a move back."""


class Session:
    """One sitting at the terminal: one or more games against the same AI."""

    def __init__(
        self,
        options: GameOptions,
        *,
        stdin: IO[str] | None = None,
        console: Console | None = None,
    ) -> None:
        self.options = options
        self.spec = get_game(options.game)
        self.view: BoardView = view_for(self.spec)
        self.stdin = stdin if stdin is not None else sys.stdin
        reconfigure = getattr(self.stdin, "reconfigure", None)
        if callable(reconfigure):
            # A line that is not UTF-8 is a line that is not a move, not the end of the session.
            reconfigure(errors="replace")
        self.console = console if console is not None else Console(highlight=False)
        self.rich = self.console.is_terminal
        self.rng = random.Random(options.seed)
        self.agent: Agent = make_agent(
            self.spec,
            options.level,
            seed=self.rng.randrange(2**32),
            time_limit=options.time_limit,
        )
        # Bad rules (a board too big, k longer than the board) and a bad start position are
        # refused before the greeting.
        self.spec.new(**options.game_options)
        if options.start:
            self.spec.parse(options.start)
        self.human = self._human_side(options.human)
        self._check_first()
        if self.spec.hidden and options.save:
            from zermelo.core.errors import ParseError

            raise ParseError(self._no_save())
        self.score = Scoreboard()
        self._played: list[tuple[AnyState, Hashable]] = []
        # The generator's state before each entry of ``_played``: undo puts it back, so that the
        # dice after a taken-back move are the ones that came the first time.
        self._draws: list[tuple[object, ...]] = []

    def _no_save(self) -> str:
        return _(
            "{game} hides the other side's cards, which a saved game would show: it cannot be saved"
        ).format(game=_(self.view.title))

    def _check_first(self) -> None:
        """Where the rules fix who starts, a chosen side decides it: refuse a contradiction now,
        before the first game, rather than halfway through the session."""
        mover = self.spec.first_mover
        if mover is None or self.options.human is None or self.options.first == "random":
            return
        if (self.options.first == "human") != (self.human == mover):
            from zermelo.core.errors import ParseError

            raise ParseError(
                _(
                    "in {game}, {side} always moves first: drop --first, or choose the other side"
                ).format(game=_(self.view.title), side=_(self.view.symbol(mover)))
            )

    def _human_side(self, symbol: str | None) -> Player:
        if symbol is None:
            return Player.SECOND
        wanted = symbol.strip().lower()
        for player in Player:
            name = self.view.symbol(player).lower()
            # The whole name or its first letter: "X", "Black" or "b"; or the translated name.
            if wanted in (name, name[:1], _(self.view.symbol(player)).lower()):
                return player
        from zermelo.core.errors import ParseError

        first, second = (_(self.view.symbol(player)) for player in Player)
        raise ParseError(
            _("invalid side {side}: expected {first} or {second}").format(
                side=repr(symbol), first=first, second=second
            )
        )

    # -- output helpers ---------------------------------------------------------------------

    def say(self, text: str = "", *, markup: bool = False) -> None:
        self.console.print(text if markup else escape(text), soft_wrap=True)

    def ask(self, prompt: str) -> str:
        self.console.print(escape(prompt), end="", soft_wrap=True)
        self.console.file.flush()
        line = self.stdin.readline()
        if not line:
            raise _InputEnded
        if not self.stdin.isatty():
            # Echo piped input so that a transcript reads like a real session.
            self.console.print(escape(line.rstrip("\n")), soft_wrap=True)
        return line.rstrip("\n")

    def show_board(self, state: AnyState, last: object, before: AnyState | None = None) -> None:
        """The board of ``state``; ``last`` is the move played in ``before`` that led to it. In a
        game with hidden information only what the person's side sees: the view draws the
        record's ``view`` for :attr:`human` and is never given a chance outcome (a deal)."""
        self.view.viewer = self.human
        if before is not None and is_chance(before):
            last, before = None, None  # the roll or the deal is said in words, never named here
        self.say(self.view.render(state, last, rich=self.rich, before=before), markup=self.rich)

    # -- the session ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the person stops; the process exit status."""
        try:
            self._greet()
            while True:
                self.play_one()
                if not self.options.repeat:
                    return 0
                self._show_score()
                try:
                    # TRANSLATORS: use the first letters of your words for "yes" and "no"; the
                    # answers "y" and "yes" below are translated to match.
                    again = self.ask("\n" + _("Play again? (y/n): "))
                except _InputEnded:
                    self.say()
                    self.say(_("Thanks for playing!"))
                    return 0
                if again.strip().lower() not in _yes_words():
                    self.say(_("Thanks for playing!"))
                    return 0
        except _InputEnded:
            self.say()
            self.say(_("Input ended before the game was over; goodbye."))
            return EXIT_INPUT_ENDED
        except KeyboardInterrupt:
            self.say()
            self.say(_("Interrupted; goodbye."))
            return EXIT_INTERRUPTED

    def _sides_follow_first(self) -> bool:
        """True when the rules fix who starts and the person did not pick a side: then the choice
        of who starts (``--first``) is a choice of sides, made before each game."""
        return self.spec.first_mover is not None and self.options.human is None

    def _greet(self) -> None:
        self.say(_("Welcome to {game}!").format(game=_(self.view.title)))
        if not self._sides_follow_first():
            self._say_sides()
        start = (
            self.spec.parse(self.options.start)
            if self.options.start
            else self.spec.new(**self.options.game_options)
        )
        for line in self.view.intro(start):
            self.say(line)
        self.say("\n")

    def _say_sides(self) -> None:
        human = _(self.view.symbol(self.human))
        ai = _(self.view.symbol(self.human.opponent))
        self.say(_("You are '{human}' and the AI is '{ai}'").format(human=human, ai=ai))

    def _first_player(self) -> Player:
        first = self.options.first
        mover = self.spec.first_mover
        if mover is not None and self.options.human is not None:
            return mover  # the rules say who starts, and the person chose a side
        if first == "human":
            human_first = True
        elif first == "ai":
            human_first = False
        else:
            human_first = self.rng.choice([True, False])
        return self.human if human_first else self.human.opponent

    @overload
    def play_one(
        self, state: None = None, on_move: Callable[[Hashable], None] | None = None
    ) -> AnyState: ...

    @overload
    def play_one(self, state: S, on_move: Callable[[Hashable], None] | None = None) -> S: ...

    def play_one(
        self, state: AnyState | None = None, on_move: Callable[[Hashable], None] | None = None
    ) -> AnyState:
        """Play one game from ``state`` (default: a new game); return the final state (of the
        same game as ``state``)."""
        if state is None:
            first = self._first_player()
            mover = self.spec.first_mover
            if mover is not None and self._sides_follow_first():
                self.human = mover if first == self.human else mover.opponent
                first = mover
                self._say_sides()
            if self.options.start:
                state = self.spec.parse(self.options.start)
            else:
                state = self.spec.new(first=first, **self.options.game_options)
        self.view.viewer = self.human
        last: Hashable = None
        played: list[tuple[AnyState, Hashable]] = []  # (state before, move), for undo and save
        self._played = played
        self._draws = []
        # In a game of chance the AI's turn is a few lines (its decisions and its rolls) and the
        # board is drawn for the person's decisions only.
        chance_game = self.spec.chance or self.spec.hidden
        ai_moving = False
        while not state.is_terminal():
            if is_chance(state):
                state, last = self._chance(state, played, on_move)
                if self.spec.hidden and not state.is_terminal() and state.to_move != self.human:
                    # The deal showed the person a card: the board says which before the AI acts.
                    self.show_board(state, last, played[-1][0] if played else None)
                continue
            if not chance_game or state.to_move == self.human:
                self.show_board(state, last, played[-1][0] if played else None)
            if state.to_move == self.human:
                ai_moving = False
                move = self._human_move(state)
                if move is _UNDO:
                    state, last = self._undo(state, played)
                    continue
            else:
                if not (chance_game and ai_moving):
                    self.say("\n" + _("AI's turn..."))
                ai_moving = True
                if self.rich:  # a spinner while it thinks (hard Connect Four can take seconds)
                    with self.console.status(""):
                        move = self.agent.choose(state)
                else:
                    move = self.agent.choose(state)
                if self.rich or chance_game:
                    if self._public(state, move):
                        self.say(_("AI plays {move}.").format(move=state.format_move(move)))
                    else:
                        self.say(_("The AI has moved."))
            self._draws.append(self.rng.getstate())
            played.append((state, move))
            state = state.play(move)
            last = move
            if on_move is not None:
                on_move(move)
        self.show_board(state, last, played[-1][0] if played else None)
        self._announce(state)
        if self.options.save:
            self._save(self.options.save, state, played)
        return state

    def _chance(
        self,
        state: AnyState,
        played: list[tuple[AnyState, Hashable]],
        on_move: Callable[[Hashable], None] | None,
    ) -> tuple[AnyState, Hashable]:
        """Draw the outcomes of the chance nodes from ``state`` on, one after another, with the
        session's seeded generator (nobody is asked), and say what happened in one line each;
        in a game with hidden information one line for them all, naming none (the board shows
        what the person may see). The state reached and the last outcome."""
        events = 0
        outcome: Hashable = None
        while is_chance(state) and not state.is_terminal():
            self._draws.append(self.rng.getstate())
            outcome = sample_outcome(state, self.rng)
            played.append((state, outcome))
            before, state = state, state.play(outcome)
            events += 1
            if not self.spec.hidden:
                self.say(self.view.outcome_line(before, outcome, state))
            if on_move is not None:
                on_move(outcome)
        if self.spec.hidden:
            self.say("\n" + self.view.hidden_chance_line(events))
        return state, outcome

    def _public(self, state: AnyState, move: Hashable) -> bool:
        """True when the person can tell ``move`` (the AI's, in ``state``) from the AI's other
        moves: always, but in a game with hidden information, where a move the person's
        information set does not tell apart stays unnamed."""
        if not self.spec.hidden:
            return True
        seen = {information_set(state.play(other), self.human) for other in state.legal_moves()}
        return len(seen) == len(state.legal_moves())

    def _human_move(self, state: AnyState) -> Hashable:
        played = self._played
        while True:
            line = self.ask("\n" + self.view.prompt(state))
            word, _space, rest = line.strip().partition(" ")
            # The whole line: a language may say undo in two words (vi "đi lại", tr "geri al").
            if " ".join(line.split()).lower() in ("undo", " ".join(_("undo").split()).lower()):
                return _UNDO
            if word.lower() in ("save", _("save").lower()):
                if self.spec.hidden:
                    self.say(self._no_save())
                elif rest.strip():
                    self._save(rest.strip(), state, played)
                else:
                    self.say(_("Type save and a file name, such as: save game.txt"))
                continue
            answer = self.view.read(state, line)
            if answer.message is None:
                return answer.move
            self.say(answer.message)

    def _undo(
        self, state: AnyState, played: list[tuple[AnyState, Hashable]]
    ) -> tuple[AnyState, Hashable]:
        """Take back the person's last move and the AI's replies since: back to the person's
        previous decision, or nothing when the person has not moved yet. In a game of chance the
        rolls and deals since are taken back too, and the seeded generator is put back where it
        was: the same dice come again if the same moves are played (undo cannot roll again)."""
        for index in range(len(played) - 1, -1, -1):
            before, _move = played[index]
            if before.to_move == self.human and not is_chance(before):
                del played[index:]
                if index < len(self._draws):
                    self.rng.setstate(self._draws[index])
                    del self._draws[index:]
                self.say(_("Took back your last move."))
                return before, (played[-1][1] if played else None)
        self.say(_("Nothing to take back yet."))
        return state, (played[-1][1] if played else None)

    def _save(self, path: str, state: AnyState, played: list[tuple[AnyState, Hashable]]) -> None:
        """Write the game so far to ``path``: in the game's own format when its record has one
        (chess: PGN), else its start position and its moves, one line each."""
        saver = self.spec.saver
        if saver is not None:
            ai = f"zermelo {self.options.level}"
            first_is_human = self.human == Player.FIRST
            text = saver.resolve().save(state, ("Human", ai) if first_is_human else (ai, "Human"))
        else:
            start = played[0][0] if played else state
            moves = " ".join(before.format_move(move) for before, move in played)
            text = f"{start.notation()}\n{moves}\n"
        try:
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as error:
            self.say(
                _("Could not save to {path}: {problem}").format(
                    path=path, problem=error.strerror or error
                )
            )
            return
        self.say(_("Game saved to {path}.").format(path=path))

    def _announce(self, state: AnyState) -> None:
        reason = end_reason(state)
        if reason and reason != GAME_OVER:
            self.say("\n" + _("Game over: {reason}.").format(reason=_(reason)))
        winner = state.winner
        if self.spec.scored:
            first = payoff_of(state)
            points = first if self.human == Player.FIRST else -first
            self.score.points += points
        if winner is None:
            self.score.ties += 1
            self.say("\n" + _("It's a tie!"))
        elif winner == self.human:
            self.score.human += 1
            self.say("\n" + _("Congratulations! You win!"))
        else:
            self.score.ai += 1
            self.say("\n" + _("AI wins!"))
        if self.spec.scored and winner is not None:
            won = abs(points)
            count = _points(won)
            if winner == self.human:
                line = ngettext("You win {points} point.", "You win {points} points.", count)
            else:
                line = ngettext(
                    "The AI wins {points} point.", "The AI wins {points} points.", count
                )
            self.say(line.format(points=f"{won:g}"))

    def _show_score(self) -> None:
        self.say(
            _("Score: you {human}, AI {ai}, ties {ties}").format(
                human=self.score.human, ai=self.score.ai, ties=self.score.ties
            )
        )
        if self.spec.scored:
            self.say(_("Points: you {points}").format(points=f"{self.score.points:+g}"))


def _points(points: float) -> int:
    """The number that picks the plural of ``points`` (1 for exactly one point)."""
    return 1 if points == 1 else (int(points) if points == int(points) else 2)


@runtime_checkable
class _Squares(Protocol):
    """A tic-tac-toe state, which gives its nine squares as the tutorial's board."""

    def board(self) -> list[str]: ...


class _TutorialAgent:
    """The tutorial's AI: ``get_best_move()`` on the tutorial's board (the lowest best square)."""

    name = "tutorial"

    def __init__(self, game: TutorialBoard) -> None:
        self.game = game

    def choose(self, state: AnyState) -> int | None:
        if not isinstance(state, _Squares):
            raise TypeError(f"the tutorial's AI plays tic-tac-toe, not {type(state).__name__}")
        self.game.board = state.board()
        return self.game.get_best_move()


def _yes_words() -> set[str]:
    # The English answers work in every language, next to the translated ones.
    # TRANSLATORS: the short answer "yes" to "Play again? (y/n): ", as the prompt shows it.
    short = _("y")
    # TRANSLATORS: the answer "yes" to "Play again?", written out.
    return {"y", "yes", short.lower(), _("yes").lower()}


def play_tutorial_game(game: TutorialBoard) -> None:
    """The tutorial's ``play_game``: one game on ``game``'s board. As in the tutorial, who starts
    is ``random.choice([True, False])`` and every AI move is ``game.get_best_move()``, so the
    tutorial's transcripts replay exactly."""
    from zermelo.games.tictactoe import TicTacToeState

    session = Session(GameOptions(human=game.human_player, repeat=False, seed=0))
    session.agent = _TutorialAgent(game)
    try:
        session._greet()
        ai_turn = random.choice([True, False])
        human_first = not ai_turn
        mover = game.human_player if human_first else game.ai_player
        state = TicTacToeState.from_board(
            game.board, Player.FIRST if mover == "X" else Player.SECOND
        )
        final = session.play_one(state)
        game.board = final.board()
    except _InputEnded:
        session.say()
        session.say(_("Input ended before the game was over; goodbye."))
    except KeyboardInterrupt:
        session.say()
        session.say(_("Interrupted; goodbye."))
