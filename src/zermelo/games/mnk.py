"""m,n,k games on bitboards: tic-tac-toe (3,3,3), gomoku / caro (15,15,5) and everything between.

Two players, X (:attr:`Player.FIRST`, moves first) and O, take turns placing a stone on an empty
point of a board ``width`` columns wide and ``height`` rows high. The first to make ``k`` in a row
(horizontally, vertically or diagonally) wins; a full board without one is a draw.

Rules. ``exact=False`` (freestyle, the default) lets a line of ``k`` *or more* win. With
``exact=True`` only a line of exactly ``k`` wins: an overline (six or more in gomoku) is simply
not a win, and the game goes on.

Points and moves. Column ``c`` (0 = left) and row ``r`` (0 = bottom) make the point
``r * width + c``; a move is that int. Point ``p`` is bit ``p`` of a stone mask, so a position is
the mask of X's stones, the mask of O's stones and the side to move. Win detection looks only at the
four lines through the last stone.

Move notation: the column letter and the row number, ``a1`` at the bottom left, so the centre of the
gomoku board is ``h8``. Boards are 1 to 19 points wide and high (columns ``a`` to ``s``): the same
limit for options, positions and every front end, so that no input makes tables that do not fit.

Position notation: four or five fields separated by spaces::

    15x15 k5 [exact] <rows> <side>

``15x15`` is width x height, ``k5`` the row length that wins, the optional word ``exact`` selects
the exactly-k rule (``free`` may be written for the default). ``<rows>`` lists the rows from the top
down, separated by ``/``; in a row ``x`` and ``o`` are stones and a number is that many empty points
(``.`` also stands for one empty point). ``<side>`` is ``x`` or ``o``; when left out it is X if both
have as many stones, else O. The empty gomoku board with X to move is
``15x15 k5 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x``; tic-tac-toe after X took the centre is
``3x3 k3 3/1x1/3 o``. :meth:`MnkState.notation` writes this form and :func:`parse` reads it back.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Hashable
from typing import Final, NamedTuple

from zermelo.core.codec import Codec
from zermelo.core.errors import IllegalMoveError, InvalidPositionError, ParseError
from zermelo.core.record import (
    N_,
    BoolOption,
    GameSpec,
    Grid,
    IntOption,
    LevelFactory,
    Ref,
    winning_line,
)
from zermelo.core.state import Player
from zermelo.games.mnk_eval import default_evaluation
from zermelo.games.mnk_rules import DIRECTIONS, Rules

__all__ = [
    "DIRECTIONS",
    "GOMOKU",
    "Geometry",
    "MnkState",
    "Rules",
    "format_point",
    "geometry",
    "gomoku",
    "new_game",
    "parse",
    "parse_point",
]

MAX_WIDTH: Final = 19
MAX_HEIGHT: Final = 19
COLUMNS: Final = "abcdefghijklmnopqrstuvwxyz"
_NO_WINNER: Final = -1
_SMALL_BOARD: Final = 49


GOMOKU: Final = Rules(15, 15, 5, False)
"""Gomoku (caro) freestyle: 15x15, five or more in a row wins."""


class Geometry:
    """Tables derived from :class:`Rules`, shared by every state of the game (see :func:`geometry`).

    ``rays[p][d]`` lists the points going from ``p`` in direction ``DIRECTIONS[d]`` (positive
    sense) and ``back[p][d]`` the points in the opposite sense, each at most ``k`` long, nearest
    first. ``order`` lists all points centre first (the order of :meth:`MnkState.legal_moves`).
    ``near[p]`` is the mask of points within distance 2 (king moves) of ``p``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        width, height, k = rules.width, rules.height, rules.k
        self.size = width * height
        self.full = (1 << self.size) - 1
        rays: list[tuple[tuple[int, ...], ...]] = []
        back: list[tuple[tuple[int, ...], ...]] = []
        for p in range(self.size):
            row, col = divmod(p, width)
            fwd: list[tuple[int, ...]] = []
            bwd: list[tuple[int, ...]] = []
            for dc, dr in DIRECTIONS:
                for sense, out in ((1, fwd), (-1, bwd)):
                    points = []
                    for step in range(1, k + 1):
                        c, r = col + sense * step * dc, row + sense * step * dr
                        if not (0 <= c < width and 0 <= r < height):
                            break
                        points.append(r * width + c)
                    out.append(tuple(points))
            rays.append(tuple(fwd))
            back.append(tuple(bwd))
        self.rays = tuple(rays)
        self.back = tuple(back)
        centre_col, centre_row = (width - 1) / 2, (height - 1) / 2

        def distance(p: int) -> tuple[float, int]:
            row, col = divmod(p, width)
            return (
                max(abs(col - centre_col), abs(row - centre_row))
                + 0.01 * (abs(col - centre_col) + abs(row - centre_row)),
                p,
            )

        self.order = tuple(sorted(range(self.size), key=distance))
        self.centre = self.order[0]
        near = []
        for p in range(self.size):
            row, col = divmod(p, width)
            mask = 0
            for r in range(max(0, row - 2), min(height, row + 3)):
                for c in range(max(0, col - 2), min(width, col + 3)):
                    mask |= 1 << (r * width + c)
            near.append(mask & ~(1 << p))
        self.near = tuple(near)
        self.symmetries = _symmetries(width, height)

    def run_length(self, stones: int, point: int, direction: int) -> int:
        """Length of the run of ``stones`` through ``point`` (which must be in ``stones``)."""
        run = 1
        for q in self.rays[point][direction]:
            if not stones >> q & 1:
                break
            run += 1
        for q in self.back[point][direction]:
            if not stones >> q & 1:
                break
            run += 1
        return run

    def wins_at(self, stones: int, point: int) -> bool:
        """True when the stone on ``point`` is part of a winning line of ``stones``."""
        k, exact = self.rules.k, self.rules.exact
        for direction in range(4):
            run = self.run_length(stones, point, direction)
            if run == k or (run > k and not exact):
                return True
        return False

    def has_win(self, stones: int) -> bool:
        """True when ``stones`` hold a winning line anywhere on the board."""
        rest = stones
        while rest:
            low = rest & -rest
            if self.wins_at(stones, low.bit_length() - 1):
                return True
            rest ^= low
        return False

    def canonical(self, x: int, o: int) -> tuple[int, int]:
        """The smallest image of the stone masks ``(x, o)`` under the board's symmetries."""
        best: tuple[int, int] | None = None
        for perm in self.symmetries:
            image = (_permute(x, perm), _permute(o, perm))
            if best is None or image < best:
                best = image
        assert best is not None
        return best


def _permute(mask: int, perm: tuple[int, ...]) -> int:
    image = 0
    while mask:
        low = mask & -mask
        image |= 1 << perm[low.bit_length() - 1]
        mask ^= low
    return image


def _symmetries(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Point permutations of the board's symmetries: 8 for a square, 4 for a rectangle."""

    def point(col: int, row: int) -> int:
        return row * width + col

    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda c, r: (c, r),
        lambda c, r: (width - 1 - c, r),
        lambda c, r: (c, height - 1 - r),
        lambda c, r: (width - 1 - c, height - 1 - r),
    ]
    if width == height:
        maps += [
            lambda c, r: (r, c),
            lambda c, r: (height - 1 - r, c),
            lambda c, r: (r, width - 1 - c),
            lambda c, r: (height - 1 - r, width - 1 - c),
        ]
    perms = []
    for f in maps:
        perm = []
        for p in range(width * height):
            row, col = divmod(p, width)
            perm.append(point(*f(col, row)))
        perms.append(tuple(perm))
    return tuple(perms)


@functools.lru_cache(maxsize=16)
def geometry(rules: Rules) -> Geometry:
    """The tables of ``rules``, cached for the 16 games used last (a 19x19 board's take about a
    megabyte; a server sees many sizes)."""
    return Geometry(rules)


def _check_rules(rules: Rules, text: str | None = None) -> Rules:
    width, height, k, exact = rules
    where = f" in {text!r}" if text is not None else ""
    if not (1 <= width <= MAX_WIDTH and 1 <= height <= MAX_HEIGHT):
        raise ParseError(
            f"invalid board size {width}x{height}{where}: expected 1 to {MAX_WIDTH} columns "
            f"and 1 to {MAX_HEIGHT} rows"
        )
    if not 1 <= k <= max(width, height):
        raise ParseError(
            f"invalid row length k={k}{where}: expected 1 to {max(width, height)} "
            f"on a {width}x{height} board"
        )
    return Rules(int(width), int(height), int(k), bool(exact))


_FIRST: Final = Player.FIRST
_SECOND: Final = Player.SECOND


class MnkState(NamedTuple):
    """An immutable m,n,k position; build one with :func:`new_game`, :func:`gomoku`, :func:`parse`.

    ``x`` and ``o`` are the stone masks, ``won`` the index of the winning player or -1, ``rules``
    the game. A named tuple: creating, hashing and comparing states happens in C.
    """

    x: int
    o: int
    to_move: Player
    won: int
    rules: Rules

    def __repr__(self) -> str:
        return f"parse({self.notation()!r})"

    @property
    def geometry(self) -> Geometry:
        return geometry(self.rules)

    # -- the State protocol -----------------------------------------------------------------

    @property
    def ply(self) -> int:
        return (self.x | self.o).bit_count()

    @property
    def winner(self) -> Player | None:
        return None if self.won == _NO_WINNER else Player(self.won)

    def is_terminal(self) -> bool:
        # Counting stones needs no geometry: a new board size answers without building its tables.
        rules = self.rules
        return self.won != _NO_WINNER or (self.x | self.o).bit_count() == rules.width * rules.height

    def termination(self) -> str | None:
        """Why the game is over: k in a row (``"five in a row"``) or ``"board full"``; ``None``
        while it runs."""
        if self.won != _NO_WINNER:
            return _IN_A_ROW.get(self.rules.k, N_("a full line"))
        if (self.x | self.o).bit_count() == self.rules.width * self.rules.height:
            return N_("board full")
        return None

    def legal_moves(self) -> list[int]:
        """Every empty point, centre first; empty when the game is over.

        Searches on big boards should use :meth:`candidate_moves` instead."""
        if self.won != _NO_WINNER:
            return []
        taken = self.x | self.o
        return [p for p in geometry(self.rules).order if not taken >> p & 1]

    def candidate_moves(self) -> list[int]:
        """The empty points within distance 2 of a stone (centre first); the centre when empty.

        Not every legal move, but on big boards every move worth searching: a stone far from all
        others neither makes nor stops a line soon."""
        if self.won != _NO_WINNER:
            return []
        geo = geometry(self.rules)
        taken = self.x | self.o
        if not taken:
            return [geo.centre]
        near = 0
        rest = taken
        table = geo.near
        while rest:
            low = rest & -rest
            near |= table[low.bit_length() - 1]
            rest ^= low
        near &= ~taken
        return [p for p in geo.order if near >> p & 1]

    def search_moves(self) -> list[int]:
        """The moves a search should try: :meth:`candidate_moves` on boards of more than 49
        points, every legal move on smaller ones (where exact values are within reach)."""
        if geometry(self.rules).size > _SMALL_BOARD:
            return self.candidate_moves()
        return self.legal_moves()

    def play(self, move: int) -> MnkState:
        geo = geometry(self.rules)
        if not isinstance(move, int) or not 0 <= move < geo.size:
            raise IllegalMoveError(
                f"point {move!r} is off the {self.rules.width}x{self.rules.height} board; "
                f"expected 0 to {geo.size - 1}"
            )
        bit = 1 << move
        if (self.x | self.o) & bit:
            raise IllegalMoveError(
                f"point {self.format_move(move)} is already taken; expected an empty point"
            )
        if self.won != _NO_WINNER:
            raise IllegalMoveError(f"the game is over; no move is possible ({self.notation()!r})")
        if self.to_move is _FIRST:
            x = self.x | bit
            won = _FIRST if geo.wins_at(x, move) else _NO_WINNER
            return MnkState(x, self.o, _SECOND, won, self.rules)
        o = self.o | bit
        won = _SECOND if geo.wins_at(o, move) else _NO_WINNER
        return MnkState(self.x, o, _FIRST, won, self.rules)

    def winning_move(self) -> int | None:
        """The first point (in search order) that wins on the spot for the side to move, or None."""
        if self.won != _NO_WINNER:
            return None
        geo = geometry(self.rules)
        mine = self.x if self.to_move is _FIRST else self.o
        if mine.bit_count() < self.rules.k - 1:
            return None
        taken = self.x | self.o
        for p in self.candidate_moves() if taken else ():
            if geo.wins_at(mine | 1 << p, p):
                return p
        return None

    def key(self) -> Hashable:
        """The stones and the side to move; canonical under symmetry on boards up to 25 points."""
        if geometry(self.rules).size <= 25:
            x, o = geometry(self.rules).canonical(self.x, self.o)
            return (x, o, self.to_move)
        return (self.x, self.o, self.to_move)

    def evaluate(self) -> float:
        """Heuristic from the side to move: the default weighted pattern features of
        :mod:`zermelo.games.mnk_eval`."""
        return default_evaluation().evaluate(self)

    # -- notation ---------------------------------------------------------------------------

    def rows(self) -> list[str]:
        """The board as text rows from the top, ``x``, ``o`` and ``.``."""
        width = self.rules.width
        out = []
        for row in range(self.rules.height - 1, -1, -1):
            cells = []
            for col in range(width):
                p = row * width + col
                cells.append("x" if self.x >> p & 1 else "o" if self.o >> p & 1 else ".")
            out.append("".join(cells))
        return out

    def notation(self) -> str:
        rows = []
        for text in self.rows():
            rows.append(re.sub(r"\.+", lambda m: str(len(m.group(0))), text))
        side = "x" if self.to_move is _FIRST else "o"
        return f"{self.rules.describe()} {'/'.join(rows)} {side}"

    def parse_move(self, text: str) -> int:
        """A point from notation such as ``h8``; raises :class:`ParseError` quoting bad text."""
        return parse_point(self.rules, text)

    def format_move(self, move: int) -> str:
        return format_point(self.rules, move)


def format_point(rules: Rules, point: int) -> str:
    row, col = divmod(point, rules.width)
    return f"{COLUMNS[col]}{row + 1}"


_MOVE_RE: Final = re.compile(r"([a-z])([0-9]{1,2})")


def parse_point(rules: Rules, text: str) -> int:
    """The point named by ``text`` (``h8``: column letter, row number from 1 at the bottom)."""
    last_col = COLUMNS[rules.width - 1]
    expected = f"expected a column a-{last_col} and a row 1-{rules.height}, like 'a1'"
    match = _MOVE_RE.fullmatch(text.strip().lower())
    if match is None:
        raise ParseError(f"invalid move {text!r}: {expected}")
    col = COLUMNS.index(match.group(1))
    row = int(match.group(2)) - 1
    if col >= rules.width or not 0 <= row < rules.height:
        raise ParseError(f"move {text!r} is off the {rules.width}x{rules.height} board: {expected}")
    return row * rules.width + col


def new_game(
    width: int = 15, height: int | None = None, k: int = 5, exact: bool = False
) -> MnkState:
    """The empty ``width`` x ``height`` board (square when ``height`` is omitted), X to move."""
    rules = _check_rules(Rules(width, width if height is None else height, k, exact))
    return MnkState(0, 0, _FIRST, _NO_WINNER, rules)


def gomoku(exact: bool = False) -> MnkState:
    """The empty gomoku (caro) board: 15x15, five in a row; ``exact`` forbids overlines."""
    return new_game(15, 15, 5, exact)


_SIZE_RE: Final = re.compile(r"([0-9]{1,3})x([0-9]{1,3})")
_K_RE: Final = re.compile(r"k([0-9]{1,3})")
_ROW_RE: Final = re.compile(r"[0-9]+|[xo.]")
MAX_NOTATION: Final = 1000
"""Longest position text read: a 19x19 board takes at most 400 characters, spaces aside."""
_MAX_COUNT_DIGITS: Final = 3
"""A count of empty points is at most 19: longer digit runs are refused before ``int`` reads them."""


def parse(text: str) -> MnkState:
    """Read position notation (see the module docstring) back into a state.

    Raises :class:`ParseError` for text that is not notation and :class:`InvalidPositionError` for a
    board no game reaches (stone counts, two winners, play after a win)."""
    form = "'<W>x<H> k<K> [exact] <rows from the top, '/'-separated> [x|o]'"
    if len(text) > MAX_NOTATION:
        raise ParseError(
            f"invalid position {_clip(text)!r}: {len(text)} characters, expected at most "
            f"{MAX_NOTATION} ({form})"
        )
    fields = text.strip().lower().split()
    if len(fields) < 3 or len(fields) > 5:
        raise ParseError(f"invalid position {text!r}: expected {form}")
    size = _SIZE_RE.fullmatch(fields[0])
    if size is None:
        raise ParseError(f"invalid board size {fields[0]!r} in {text!r}: expected e.g. '15x15'")
    k_match = _K_RE.fullmatch(fields[1])
    if k_match is None:
        raise ParseError(f"invalid row length {fields[1]!r} in {text!r}: expected e.g. 'k5'")
    rest = fields[2:]
    exact = False
    if rest[0] in ("exact", "free"):
        exact = rest[0] == "exact"
        rest = rest[1:]
    if not rest or len(rest) > 2:
        raise ParseError(f"invalid position {text!r}: expected {form}")
    rules = _check_rules(
        Rules(int(size.group(1)), int(size.group(2)), int(k_match.group(1)), exact), text
    )
    width, height = rules.width, rules.height
    row_texts = rest[0].split("/")
    if len(row_texts) != height:
        raise ParseError(
            f"invalid position {text!r}: expected {height} rows separated by '/', "
            f"got {len(row_texts)}"
        )
    x = o = 0
    for index, row_text in enumerate(row_texts):
        row = height - 1 - index
        col = 0
        tokens = _ROW_RE.findall(row_text)
        if "".join(tokens) != row_text:
            bad = sorted(set(re.sub(r"[0-9xo.]", "", row_text)))
            raise ParseError(
                f"invalid row {row_text!r} in {text!r}: unexpected {', '.join(map(repr, bad))}; "
                "use x, o, '.' or a count of empty points"
            )
        for token in tokens:
            if token.isdigit():
                if len(token) > _MAX_COUNT_DIGITS:
                    raise ParseError(
                        f"invalid row {_clip(row_text)!r} in {_clip(text)!r}: a count of "
                        f"{len(token)} digits; expected at most {width} empty points"
                    )
                col += int(token)
                continue
            if col < width:
                bit = 1 << (row * width + col)
                if token == "x":
                    x |= bit
                elif token == "o":
                    o |= bit
            col += 1
        if col != width:
            raise ParseError(
                f"invalid row {row_text!r} in {text!r}: it covers {col} points, expected {width}"
            )
    nx, no = x.bit_count(), o.bit_count()
    if not 0 <= nx - no <= 1:
        raise InvalidPositionError(
            f"impossible position {text!r}: x has {nx} stones and o has {no}; x moves first, "
            "so x has as many stones as o or one more"
        )
    default = _FIRST if nx == no else _SECOND
    to_move = default
    if len(rest) == 2:
        if rest[1] not in ("x", "o"):
            raise ParseError(f"invalid side to move {rest[1]!r} in {text!r}: expected x or o")
        to_move = _FIRST if rest[1] == "x" else _SECOND
        if to_move != default:
            raise InvalidPositionError(
                f"impossible position {text!r}: {rest[1]} cannot be to move with {nx} x "
                f"and {no} o stones"
            )
    geo = geometry(rules)
    x_won, o_won = geo.has_win(x), geo.has_win(o)
    won = _NO_WINNER
    if x_won and o_won:
        raise InvalidPositionError(f"impossible position {text!r}: both x and o have won")
    if x_won or o_won:
        side = _FIRST if x_won else _SECOND
        own = x if x_won else o
        if to_move == side or not _one_stone_makes_every_win(geo, own):
            raise InvalidPositionError(
                f"impossible position {text!r}: {'x' if x_won else 'o'} has won and play went "
                "on after the game was over"
            )
        won = side
    return MnkState(x, o, to_move, won, rules)


def _clip(text: str, limit: int = 60) -> str:
    """``text``, shortened to ``limit`` characters for an error message."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _one_stone_makes_every_win(geo: Geometry, own: int) -> bool:
    rest = own
    while rest:
        low = rest & -rest
        if not geo.has_win(own & ~low):
            return True
        rest ^= low
    return False


def _new_mnk(
    width: int = 15,
    height: int | None = None,
    k: int | None = None,
    exact: bool = False,
    first: Player = _FIRST,
) -> MnkState:
    rows = width if height is None else height
    wins = min(5, width, rows) if k is None else k
    return new_game(width, rows, wins, exact)._replace(to_move=Player(first))


def _new_gomoku(exact: bool = False, first: Player = _FIRST) -> MnkState:
    return gomoku(exact)._replace(to_move=Player(first))


_ENGINE_LEVELS: Final[dict[str, str | Ref[LevelFactory]]] = {
    level: Ref(f"zermelo.agents.gomoku:{level}") for level in ("easy", "medium", "hard")
}

# Random playouts on a 15x15 board mean nothing and cost a win check per ply: the evaluation scores
# every new leaf instead (its weights run to thousands, so 100 makes an open three all but
# decisive), and a small exploration constant keeps the tree on the moves it likes. Tuned in small
# fixed-seed round robins at 0.3 s per move (c 0.1 beat 0.25 and 0.5, scale 100 beat 300 and 1000,
# no playout beat playouts of 2 and 4 plies).
_MCTS: Final = {"cutoff": 0, "scale": 100.0, "c": 0.1}

_IN_A_ROW: Final = {
    1: N_("one in a row"),
    2: N_("two in a row"),
    3: N_("three in a row"),
    4: N_("four in a row"),
    5: N_("five in a row"),
    6: N_("six in a row"),
    7: N_("seven in a row"),
}
"""Why a game with a winner ended, by k (a longer row: "a full line")."""

_EXACT_HELP: Final = N_("only exactly k in a row wins (no overlines)")


def _grid(state: MnkState) -> Grid:
    """The ``place`` board with coordinates: stones, rows from the top, columns a, b, ... and
    rows numbered from the bottom, each point named by its move (``c3``)."""
    rules = state.rules
    cells = [[{"x": "X", "o": "O"}.get(char, "") for char in row] for row in state.rows()]
    winner = state.winner
    line = () if winner is None else winning_line(cells, "X" if winner is _FIRST else "O", rules.k)
    moves = [
        [
            state.format_move((rules.height - 1 - row) * rules.width + col)
            for col in range(rules.width)
        ]
        for row in range(rules.height)
    ]
    files = COLUMNS[: rules.width]
    ranks = [str(rules.height - row) for row in range(rules.height)]
    return Grid.of(cells, moves, line, files=files, ranks=ranks)


_INTRO: Final = (N_("Line up your stones across, down or diagonally to win."),)

_CODEC: Final = Codec[MnkState](
    lambda state: state.rules.width * state.rules.height,
    lambda state: list(state.rows()),
    ("X", "O"),
)

SPEC: Final = GameSpec(
    name="mnk",
    title=N_("m,n,k game"),
    new=_new_mnk,
    parse=parse,
    options=(
        IntOption("width", N_("number of columns"), 1, MAX_WIDTH, 15),
        IntOption("height", N_("number of rows (default: as many as columns)"), 1, MAX_HEIGHT, 15),
        IntOption(
            "k",
            N_("stones in a row that win (default 5, or the board's side if smaller)"),
            1,
            MAX_WIDTH,
            5,
        ),
        BoolOption("exact", _EXACT_HELP),
    ),
    aliases=("m,n,k",),
    first_mover=_FIRST,
    default_time=1.0,
    move_time=1.5,
    levels=_ENGINE_LEVELS,
    mcts=_MCTS,
    board="place",
    grid=_grid,
    intro=_INTRO,
    notation="a column letter and a row number, such as c3",
    web_engine=Ref("zermelo.solvers.gomoku.web:GOMOKU"),
    analysis_depth=1,
    start_solver=Ref("zermelo.solvers.gomoku.capabilities:SOLVER"),
    explainer=Ref("zermelo.solvers.gomoku.capabilities:EXPLAINER"),
    codec=_CODEC,
)

# Gomoku is the m,n,k record on its own board: the same rules, engines, board and web engine;
# only what is said here differs.
GOMOKU_SPEC: Final = dataclasses.replace(
    SPEC,
    name="gomoku",
    title=N_("Gomoku (caro)"),
    title_short=N_("Gomoku"),
    new=_new_gomoku,
    options=(BoolOption("exact", _EXACT_HELP),),
    aliases=("caro",),
    notation="a column letter and a row number, such as h8",
    # Too big to solve from the start: no start solver; tuned by self-play.
    start_solver=None,
    tuner=Ref("zermelo.solvers.gomoku.capabilities:TUNER"),
)
