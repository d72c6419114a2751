"""PDN, the Portable Draughts Notation: the game files of international draughts and dama.

A PDN game is PGN's shape with draughts moves: tag pairs (``[Event "..."]``), then the moves with
their numbers (``1. 32-28 19-23 2. 28x19 14x23``), then the result: ``2-0`` (White won), ``0-2``
(Black won), ``1-1`` (a draw) or ``*`` (unfinished). ``GameType`` names the rules: 20 is
international draughts, 30 Turkish draughts (dama) in the PDN standard's list; ``FEN`` gives a
start position other than the usual one.

Writing (:meth:`PdnFile.save`) gives the tags Event, Date, White, Black, Result and GameType, the
FEN tag when the game did not start from the usual position, and every move in the game's own
notation. Reading (:meth:`PdnFile.load`) takes the first game of a file: tags, comments
``{...}`` and ``;`` to the end of a line, variations ``(...)`` (skipped, nested too), move
numbers, move strength marks (``!``, ``?``) and NAGs (``$1``) are read past; every move is
checked against the rules, and the first one that does not fit is named in one line with its
move number. A game whose ``GameType`` is another game's is refused.

The rules live in the states; this module only reads and writes text (it opens no files).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from typing import Final, Protocol, runtime_checkable

from zermelo.core.errors import N_, ParseError, ZermeloError
from zermelo.core.record import GameSpec, Ref
from zermelo.core.state import AnyState, Player

__all__ = ["DAMA_PDN", "INTERNATIONAL_PDN", "PdnFile", "PdnGame", "RecordsGame"]

_MAX_TEXT: Final = 4_000_000
"""Longest PDN text read (a file of many thousand games); longer is refused in one line."""


@runtime_checkable
class RecordsGame(Protocol):
    """A state that keeps its game: ``origin`` is the start position's FEN (``""`` for the usual
    start) and ``line`` the moves played from it. A state without them is saved as its position
    alone."""

    @property
    def origin(self) -> str: ...

    @property
    def line(self) -> Sequence[object]: ...


class PdnGame:
    """One game read from PDN: its tags, its start (``""`` for the usual start) and its moves in
    the game's notation, each checked."""

    __slots__ = ("moves", "start", "tags")

    def __init__(self, tags: dict[str, str], start: str, moves: list[str]) -> None:
        self.tags = tags
        self.start = start
        self.moves = moves


def _result(state: AnyState) -> str:
    if not state.is_terminal():
        return "*"
    winner = state.winner
    if winner is None:
        return "1-1"
    return "2-0" if winner == Player.FIRST else "0-2"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class PdnFile:
    """A game's PDN: :meth:`save` writes the game so far, :meth:`load` reads a file's first game
    (the record's :class:`~zermelo.core.capabilities.Saver` that also
    :class:`~zermelo.core.capabilities.Loads`)."""

    def __init__(self, spec: str, game_type: str, title: str) -> None:
        self._spec = Ref[GameSpec](spec)
        self.game_type = game_type
        self.title = title

    @property
    def spec(self) -> GameSpec:
        return self._spec.resolve()

    # -- writing ------------------------------------------------------------------------------

    def save(self, state: AnyState, players: tuple[str, str] | None = None) -> str:
        """The game that led to ``state`` as PDN text (its position alone, as a FEN tag, for a
        state that does not keep its game)."""
        white, black = players if players is not None else ("?", "?")
        if isinstance(state, RecordsGame):
            start_fen = state.origin
            start = self.spec.parse(start_fen) if start_fen else self.spec.new()
            moves = list(state.line)
        else:
            start_fen, start, moves = state.notation(), state, []
        result = _result(state)
        tags = [
            ("Event", "zermelo"),
            ("Date", datetime.datetime.now(datetime.UTC).strftime("%Y.%m.%d")),
            ("White", white),
            ("Black", black),
            ("Result", result),
            ("GameType", self.game_type),
        ]
        if start_fen:
            tags.append(("FEN", start_fen))
        lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
        lines.append("")
        words: list[str] = []
        current = start
        offset = 1 if current.to_move == Player.SECOND else 0
        for ply, move in enumerate(moves):
            number = (ply + offset) // 2 + 1
            text = current.format_move(move)
            if (ply + offset) % 2 == 0:
                text = f"{number}. {text}"
            elif ply == 0:
                text = f"{number}... {text}"
            words.append(text)
            current = current.play(move)
        words.append(result)
        row = ""
        for word in words:
            if row and len(row) + 1 + len(word) > 79:
                lines.append(row)
                row = word
            else:
                row = f"{row} {word}" if row else word
        lines.append(row)
        return "\n".join(lines) + "\n"

    # -- reading ------------------------------------------------------------------------------

    def load(self, text: str) -> tuple[str, list[str]]:
        """The first game of PDN ``text``: its start (``""`` for the usual one) and its moves in
        the game's notation. Raises :class:`ParseError` in one line for text that holds no
        game, a game of other rules, or a move that is wrong (naming its number)."""
        game = self.read(text)
        return game.start, game.moves

    def read(self, text: str) -> PdnGame:
        """The first game of PDN ``text``, with its tags (see :meth:`load`)."""
        games = self.read_all(text, limit=1)
        return games[0]

    def read_all(self, text: str, limit: int | None = None) -> list[PdnGame]:
        """Every game of PDN ``text`` (at most ``limit``), each checked move by move."""
        if not isinstance(text, str):
            raise ParseError(N_("no PDN game in {text!r}"), text=repr(text)[:40])
        if len(text) > _MAX_TEXT:
            raise ParseError(
                N_("PDN text of {size} characters: at most {most} are read"),
                size=len(text),
                most=_MAX_TEXT,
            )
        games: list[PdnGame] = []
        for tags, words, number in _games(text):
            games.append(self._check(tags, words, number))
            if limit is not None and len(games) >= limit:
                break
        if not games:
            raise ParseError(N_("no PDN game in {text!r}"), text=text.strip()[:40])
        return games

    def _check(self, tags: dict[str, str], words: list[str], number: int) -> PdnGame:
        where = f"game {number}"
        game_type = tags.get("GameType", "").split(",")[0].strip()
        if game_type and game_type != self.game_type:
            raise ParseError(
                N_("PDN {where}: GameType {found} is not {title} (GameType {expected})"),
                where=where,
                found=game_type[:10],
                title=self.title,
                expected=self.game_type,
            )
        spec = self.spec
        fen = tags.get("FEN", "").strip()
        try:
            state = spec.parse(fen) if fen else spec.new()
        except ZermeloError as error:
            raise ParseError(
                N_("PDN {where}: the FEN tag: {error}"), where=where, error=error
            ) from None
        start = "" if not fen else state.notation()
        if start and start == spec.new().notation():
            start = ""
        offset = 1 if state.to_move == Player.SECOND else 0
        moves: list[str] = []
        for ply, word in enumerate(words):
            move_number = (ply + offset) // 2 + 1
            label = f"{move_number}{'.' if (ply + offset) % 2 == 0 else '...'}"
            try:
                move = state.parse_move(word)
                moves.append(state.format_move(move))
                state = state.play(move)
            except ZermeloError as error:
                raise ParseError(
                    N_("PDN {where}, move {number} {move}: {error}"),
                    where=where,
                    number=label,
                    move=word[:40],
                    error=error,
                ) from None
        if not moves and not fen:
            raise ParseError(N_("PDN {where}: no moves and no FEN tag"), where=where)
        return PdnGame(tags, start, moves)


_RESULTS: Final = frozenset({"2-0", "0-2", "1-1", "0-0", "*", "1-0", "0-1", "1/2-1/2"})
_TAG: Final = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER: Final = re.compile(r"\d+\.(?:\.\.)?")
_TOKEN: Final = re.compile(
    r'\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]'  # a tag pair
    r"|\{[^}]*\}"  # a comment
    r"|;[^\n]*"  # a comment to the end of the line
    r"|[()]"  # a variation's bounds
    r"|\$\d+"  # a NAG
    r"|[^\s(){};\[]+"  # a word
    r"|\S"
)


def _games(text: str) -> list[tuple[dict[str, str], list[str], int]]:
    """The games of ``text``: each one's tags, its move words (numbers, marks and variations
    taken out) and its number in the file. Raises :class:`ParseError` for unbalanced text."""
    games: list[tuple[dict[str, str], list[str], int]] = []
    tags: dict[str, str] = {}
    words: list[str] = []
    depth = 0
    started = False

    def finish() -> None:
        nonlocal tags, words, started
        if started or tags:
            games.append((tags, words, len(games) + 1))
        tags, words, started = {}, [], False

    for match in _TOKEN.finditer(text):
        token = match.group(0)
        where = len(games) + 1
        if token == "(":
            depth += 1
            continue
        if token == ")":
            if depth == 0:
                raise ParseError(N_("PDN game {number}: a ')' closes no variation"), number=where)
            depth -= 1
            continue
        if depth or token.startswith(("{", ";", "$")):
            continue
        if token.startswith("["):
            if started:
                finish()  # a game without a result ends where the next one's tags begin
            tag = _TAG.fullmatch(token)
            if tag is not None:
                tags[tag.group(1)] = re.sub(r"\\(.)", r"\1", tag.group(2))
            continue
        if token in _RESULTS:
            started = True
            finish()
            continue
        if token in ("[", "{", "}"):
            raise ParseError(
                N_("PDN game {number}: {token!r} is not closed or opened"),
                number=where,
                token=token,
            )
        word = _NUMBER.sub("", token, count=1) if _NUMBER.match(token) else token
        started = True
        word = word.rstrip("!?*+")
        if word:
            words.append(word)
    if depth:
        raise ParseError(N_("PDN game {number}: a '(' is never closed"), number=len(games) + 1)
    finish()
    return games


INTERNATIONAL_PDN: Final = PdnFile(
    "zermelo.games.draughts.international:SPEC", "20", N_("International draughts")
)
"""International draughts' PDN (GameType 20)."""

DAMA_PDN: Final = PdnFile("zermelo.games.draughts.dama:SPEC", "30", N_("Turkish draughts"))
"""Turkish draughts' PDN (GameType 30), with algebraic moves (``d3-d4``, ``d4xd6xf6``)."""
