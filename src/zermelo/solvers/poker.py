"""Kuhn poker and Leduc hold'em solved by CFR+: the :class:`~zermelo.core.capabilities.GameSolver`
behind ``zermelo solve kuhn|leduc``, and the strategies the levels play.

:data:`KUHN` and :data:`LEDUC` run CFR+ (and plain CFR beside it, for the plot) on the whole game
tree (:mod:`zermelo.search.cfr`) and answer the first player's value of the average strategy,
its exploitability and NashConv (exploitability = NashConv / 2, in chips, as OpenSpiel has them),
the strategy at every information set, and both methods' exploitability against the
iterations.

The converged strategies ship with the package (``poker_strategies/kuhn.json`` and
``leduc.json``, written by ``scripts/solve_poker.py``): :func:`equilibrium` reads one, checking it
against the game (every information set, every move, probabilities summing to 1).
:func:`early_strategy` is CFR+ stopped early (10 iterations for Kuhn poker, 50 for Leduc hold'em),
the medium level.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Final, cast

from zermelo.core.capabilities import GameSolution, Progress, Series
from zermelo.core.errors import N_, BudgetError, InvalidOptionError, ParseError
from zermelo.core.state import AnyState, Player
from zermelo.search import cfr

__all__ = [
    "GAMES",
    "KUHN",
    "LEDUC",
    "MAX_ITERATIONS",
    "PokerSolver",
    "Strategy",
    "early_strategy",
    "equilibrium",
    "game_tree",
    "read_strategy",
    "strategy_text",
]

Strategy = dict[str, dict[str, float]]
"""Information set -> move -> probability, as the JSON files hold it."""

FORMAT: Final = 1
MAX_ITERATIONS: Final = 1_000_000
MAX_BYTES: Final = 1 << 20
GAMES: Final = ("kuhn", "leduc")
EARLY_ITERATIONS: Final = {"kuhn": 10, "leduc": 50}
KNOWN_VALUE: Final = {"kuhn": "-1/18 = -0.0556", "leduc": "-0.0856"}


def _root(game: str) -> AnyState:
    if game == "kuhn":
        from zermelo.games.poker import kuhn

        return kuhn.parse("")
    if game == "leduc":
        from zermelo.games.poker import leduc

        return leduc.parse("")
    raise ValueError(f"unknown poker game {game!r}; expected one of {GAMES}")


@functools.cache
def game_tree(game: str) -> cfr.GameTree:
    """The whole tree of ``"kuhn"`` or ``"leduc"``, walked once per process."""
    return cfr.build_tree(_root(game))


def strategy_text(game: str, strategy: cfr.Policy, **about: float | int | str) -> str:
    """The JSON file :func:`read_strategy` reads: the game, the format, what ``about`` says
    (iterations, NashConv, value) and the strategy with 6 decimals, one information set a
    line."""
    head = {"game": game, "format": FORMAT, **about}
    table = cast(Mapping[Hashable, Mapping[Hashable, float]], strategy)
    lines = [
        f"  {json.dumps(str(key))}: "
        + json.dumps({str(move): round(float(p), 6) for move, p in moves.items()})
        for key, moves in sorted(table.items(), key=lambda item: str(item[0]))
    ]
    return json.dumps(head)[:-1] + ', "strategy": {\n' + ",\n".join(lines) + "\n}}\n"


def read_strategy(text: str, game: str, where: str) -> Strategy:
    """The strategy of a file :func:`strategy_text` wrote for ``game``, checked against the
    game's tree: one :class:`ParseError` line naming ``where`` for anything else."""
    if len(text) > MAX_BYTES:
        raise ParseError(N_("{where}: not a strategy file (too large)"), where=where)
    try:
        data = json.loads(text)
    except ValueError:
        raise ParseError(N_("{where}: not a strategy file (not JSON)"), where=where) from None
    if not isinstance(data, dict) or data.get("game") != game or data.get("format") != FORMAT:
        raise ParseError(
            N_("{where}: not a strategy file for {game} (format {format})"),
            where=where,
            game=game,
            format=FORMAT,
        )
    table = data.get("strategy")
    tree = game_tree(game)
    if not isinstance(table, dict) or set(table) != {str(key) for key in tree.keys}:
        raise ParseError(
            N_("{where}: expected a strategy for each of the {count} information sets"),
            where=where,
            count=len(tree.keys),
        )
    strategy: Strategy = {}
    for key, moves in zip(tree.keys, tree.moves, strict=True):
        row = table[str(key)]
        names = [str(move) for move in moves]
        if (
            not isinstance(row, dict)
            or set(row) != set(names)
            or not all(
                isinstance(p, int | float)
                and not isinstance(p, bool)
                and math.isfinite(p)
                and p >= 0
                for p in row.values()
            )
            or abs(sum(row.values()) - 1.0) > 1e-4
        ):
            raise ParseError(
                N_("{where}: at {key}, expected probabilities of {moves} summing to 1"),
                where=where,
                key=str(key),
                moves=", ".join(names),
            )
        total = float(sum(row.values()))
        strategy[str(key)] = {name: float(row[name]) / total for name in names}
    return strategy


@functools.cache
def equilibrium(game: str) -> Strategy:
    """The shipped converged CFR+ strategy of ``"kuhn"`` or ``"leduc"``."""
    name = f"{game}.json"
    text = resources.files("zermelo.solvers").joinpath("poker_strategies", name).read_text()
    return read_strategy(text, game, name)


@functools.cache
def early_strategy(game: str) -> Strategy:
    """CFR+'s average strategy after a few iterations (10 for Kuhn poker, 50 for Leduc)."""
    solver = cfr.CfrSolver(game_tree(game), plus=True)
    solver.iterate(EARLY_ITERATIONS[game])
    return {
        str(key): {str(move): p for move, p in moves.items()}
        for key, moves in solver.average().items()
    }


def _checkpoints(iterations: int) -> list[int]:
    """Where the plot's curves are measured: 1, 2, 5, 10, 20, 50, ... below a tenth of
    ``iterations``, then every tenth of it, and ``iterations`` itself."""
    tenth = max(iterations // 10, 1)
    marks: set[int] = {iterations}
    scale = 1
    while scale < tenth:
        marks.update(m * scale for m in (1, 2, 5) if m * scale < tenth)
        scale *= 10
    marks.update(range(tenth, iterations + 1, tenth))
    return sorted(marks)


def _cell(p: float) -> str:
    return f"{p:.3f}"


@dataclass(frozen=True)
class PokerSolver:
    """The :class:`~zermelo.core.capabilities.GameSolver` of one poker game: CFR+ for
    ``iterations`` (``default_iterations`` when ``None``), plain CFR beside it for the plot."""

    game: str
    default_iterations: int

    def solve_game(
        self,
        options: Mapping[str, int | bool],
        iterations: int | None,
        progress: Progress,
        deadline: float | None = None,
    ) -> GameSolution:
        if options:
            raise InvalidOptionError(
                N_("{game} has no options; got {options}"),
                game=self.game,
                options=", ".join(sorted(options)),
            )
        total = self.default_iterations if iterations is None else iterations
        if (
            isinstance(total, bool)
            or not isinstance(total, int)
            or not 1 <= total <= MAX_ITERATIONS
        ):
            raise BudgetError(
                N_("iterations={value!r}: expected a whole number from 1 to {high}"),
                value=iterations,
                high=MAX_ITERATIONS,
            )
        started = time.monotonic()
        tree = game_tree(self.game)
        plus = cfr.CfrSolver(tree, plus=True)
        vanilla = cfr.CfrSolver(tree, plus=False)
        marks = _checkpoints(total)
        curves: dict[bool, list[float]] = {True: [], False: []}
        for done in range(1, total + 1):
            if deadline is not None and time.monotonic() > deadline:
                raise BudgetError(
                    N_("out of time after {done} of {total} iterations"),
                    done=done - 1,
                    total=total,
                )
            plus.iterate()
            vanilla.iterate()
            if done in marks:
                for method, solver in ((True, plus), (False, vanilla)):
                    curves[method].append(cfr.exploitability(tree, solver.average_array()))
            progress(N_("CFR iterations"), done, total)
        average = plus.average_array()
        value = cfr.expected_value(tree, average)
        conv = 2.0 * curves[True][-1]
        seconds = time.monotonic() - started
        facts = (
            (N_("first player's value"), f"{value:.4f}"),
            (N_("known value"), KNOWN_VALUE[self.game]),
            (N_("exploitability"), f"{conv / 2:.6f}"),
            (N_("NashConv"), f"{conv:.6f}"),
            (N_("NashConv of plain CFR"), f"{2.0 * curves[False][-1]:.6f}"),
            (N_("method"), "CFR+"),
            (N_("iterations"), str(total)),
            (N_("time"), f"{seconds:.1f} s"),
        )
        columns: list[Hashable] = []
        for moves in sorted(tree.moves, key=len, reverse=True):  # the fullest move list's order
            columns += [move for move in moves if move not in columns]
        rows = []
        order = sorted(range(len(tree.keys)), key=lambda i: (tree.player[i], str(tree.keys[i])))
        for number in order:
            start = int(tree.start[number])
            probs = dict(zip(tree.moves[number], average[start:], strict=False))
            side = "X" if tree.player[number] is Player.FIRST else "O"
            cells = [_cell(float(probs[move])) if move in probs else "" for move in columns]
            rows.append((side, str(tree.keys[number]), *cells))
        floor = 1e-12  # a log axis cannot show 0
        return GameSolution(
            value=value,
            facts=facts,
            header=(N_("player"), N_("information set"), *map(str, columns)),
            rows=tuple(rows),
            plot_title=N_("Exploitability against iterations"),
            x_label=N_("iterations"),
            y_label=N_("exploitability (chips)"),
            series=(
                Series(
                    N_("CFR+"), tuple(map(float, marks)), tuple(max(y, floor) for y in curves[True])
                ),
                Series(
                    N_("CFR"), tuple(map(float, marks)), tuple(max(y, floor) for y in curves[False])
                ),
            ),
            log_y=True,
        )


KUHN: Final = PokerSolver("kuhn", 1000)
LEDUC: Final = PokerSolver("leduc", 1000)
