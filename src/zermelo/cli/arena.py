"""``zermelo arena``: a seeded round robin between agents, with ratings."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from zermelo.cli.common import (
    Command,
    cluster_options,
    console,
    fail,
    lang_option,
    rated_progress,
    read_text_lines,
)
from zermelo.core.record import GameSpec
from zermelo.i18n import gettext as _

if TYPE_CHECKING:
    from zermelo.play.match import GameRecord


def command() -> click.Command:
    """The ``arena`` command, with its help in the current language."""

    @click.command(
        "arena",
        cls=Command,
        help=_(
            "Round robin between AGENTS at GAME: every pair plays --games games with colours "
            "alternated, then a table of wins, draws, losses, score and the Elo difference with "
            "its 95% interval. Agents: random, easy, medium, hard, hard:time=SECONDS, "
            "engine:depth=PLIES, engine:time=SECONDS, mcts:iterations=N, mcts:time=SECONDS "
            "(more in docs/arena.md). Write them after --agents or after GAME."
        ),
        short_help=_("Let agents play each other and rate them."),
    )
    @click.argument("game")
    @click.argument("more_agents", nargs=-1, metavar="[AGENTS]...")
    @click.option(
        "--agents",
        "-a",
        "agent_options",
        multiple=True,
        metavar="AGENT",
        help=_("An agent; the ones after it need no --agents of their own."),
    )
    @click.option(
        "--games",
        "-n",
        type=click.IntRange(min=1, max=1_000_000),
        default=10,
        show_default=True,
        help=_("Games per pair of agents."),
    )
    @click.option("--seed", type=int, default=0, show_default=True, help=_("Tournament seed."))
    @click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1, max=1024),
        default=None,
        help=_("Games played at once (default: the number of cores)."),
    )
    @click.option(
        "--start",
        default=None,
        metavar="POSITION",
        help=_("Start position in the game's notation (default: the initial position)."),
    )
    @click.option(
        "--save",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        help=_("Save the games to FILE as JSON lines."),
    )
    @click.option(
        "--pgn",
        "pgn_file",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        help=_(
            "Write the games to FILE as PGN with filled headers (chess; PGN-like text with a "
            "Game tag for the other games), for 'zermelo review'."
        ),
    )
    @click.option(
        "--openings",
        default=None,
        metavar="FILE",
        help=_(
            "Start positions to go through, each played with both colours: a file (chess: EPD "
            "or PGN; other games: one position per line), 'builtin' for the game's own set "
            "(the default where it has one), or 'none'."
        ),
    )
    @click.option(
        "--max-moves",
        type=click.IntRange(min=1, max=100_000),
        default=None,
        metavar="PLIES",
        help=_("Adjudicate a game still on after this many moves (plies) as a draw."),
    )
    @cluster_options
    @lang_option
    def arena(
        game: str,
        more_agents: tuple[str, ...],
        agent_options: tuple[str, ...],
        games: int,
        seed: int,
        jobs: int | None,
        start: str | None,
        save: str | None,
        pgn_file: str | None,
        openings: str | None,
        max_moves: int | None,
        cluster: str | None,
        resume: str | None,
    ) -> None:
        from zermelo.agents.spec import parse_agent
        from zermelo.games.registry import get_game
        from zermelo.play import (
            elo_estimate,
            pair_tallies,
            round_robin,
            run_tasks,
            save_records,
            standings,
            start_state,
        )

        record = get_game(game)
        name = record.name
        texts = [*agent_options, *more_agents]
        if len(texts) < 2:
            fail(_("the arena needs at least two agents, got {count}").format(count=len(texts)))
        specs = [parse_agent(text) for text in texts]
        for spec in specs:
            spec.check(record)  # a learned player's net is loaded here, not first in a worker
        from zermelo.cli.kernels import compile_for_game

        compile_for_game(name)  # the games are timed: never with a kernel still compiling
        if start:
            start_state(name, None, start)  # a bad position fails here, before any game
        positions = _openings(record, openings, start)
        tasks = round_robin(
            name, specs, games, seed=seed, start=start, openings=positions, max_moves=max_moves
        )
        workers = jobs if jobs is not None else os.cpu_count() or 1
        err = Console(stderr=True, highlight=False)
        began = time.perf_counter()
        progress = rated_progress(err, transient=False)
        with progress:
            bar = progress.add_task(_("Games"), total=len(tasks), rate="")

            played = [0]

            def finished(record: GameRecord) -> None:
                played[0] += 1
                per_minute = 60.0 * played[0] / max(time.perf_counter() - began, 1e-9)
                rate = _("{rate:.1f} games/min").format(rate=per_minute)
                progress.update(bar, advance=1, rate=rate)

            if cluster is None and resume is None:
                records = run_tasks(tasks, jobs=workers, on_record=finished)
            else:
                from zermelo.parallel import ResultStore, open_executor
                from zermelo.play.tournament import tournament_meta

                store = None
                if resume is not None:
                    store = ResultStore(Path(resume), tournament_meta(tasks))
                    progress.update(bar, completed=sum(str(t.index) in store for t in tasks))
                with open_executor(cluster, workers) as executor:
                    workers = executor.workers
                    records = run_tasks(tasks, executor=executor, store=store, on_record=finished)
        elapsed = time.perf_counter() - began
        out = console()
        if not out.is_terminal:
            out.width = max(out.width, 120)
        overall = Table(title=_("Standings: {game}").format(game=name))
        overall.add_column(_("agent"), no_wrap=True)
        for heading in (_("games"), _("wins"), _("draws"), _("losses"), _("score")):
            overall.add_column(heading, justify="right")
        ranked = sorted(standings(records).items(), key=lambda item: -item[1].score)
        for label, tally in ranked:
            overall.add_row(escape(label), *tally.cells())
        out.print(overall)
        pairs = Table(title=_("Pairs (results of the first agent)"))
        pairs.add_column(_("agent"), no_wrap=True)
        pairs.add_column(_("opponent"), no_wrap=True)
        for heading in (_("games"), _("wins"), _("draws"), _("losses"), _("score")):
            pairs.add_column(heading, justify="right")
        pairs.add_column(_("Elo [95% interval]"), justify="right", no_wrap=True)
        for (first, second), tally in pair_tallies(records).items():
            pairs.add_row(
                escape(first), escape(second), *tally.cells(), elo_estimate(tally).describe()
            )
        out.print(pairs)
        if record.scored:
            from zermelo.play.tournament import pair_points

            points = Table(title=_("Points per game (of the first agent)"))
            points.add_column(_("agent"), no_wrap=True)
            points.add_column(_("opponent"), no_wrap=True)
            points.add_column(_("games"), justify="right")
            points.add_column(_("points per game [95% interval]"), justify="right", no_wrap=True)
            for (first, second), won in pair_points(records).items():
                points.add_row(escape(first), escape(second), str(won.games), won.describe())
            out.print(points)
        out.print(
            _("{count} games, seed {seed}, {jobs} jobs, {seconds:.1f} s").format(
                count=len(records), seed=seed, jobs=workers, seconds=elapsed
            )
        )
        if save:
            try:
                written = save_records(save, records)
            except OSError as error:
                fail(_("cannot write {file}: {reason}").format(file=save, reason=error.strerror))
            out.print(_("Saved {count} games to {file}").format(count=written, file=save))
        if pgn_file:
            _write_pgn(record, records, pgn_file, seed)
            out.print(_("Saved {count} games to {file}").format(count=len(records), file=pgn_file))

    return arena


def _write_pgn(spec: GameSpec, records: Sequence[GameRecord], path: str, seed: int) -> None:
    """Every game of the tournament as PGN, in the order they were played."""
    import datetime

    from zermelo.play.review import record_pgn

    today = datetime.datetime.now(tz=datetime.UTC).strftime("%Y.%m.%d")
    texts = [
        record_pgn(
            spec,
            game,
            event=f"zermelo arena {spec.name}, seed {seed}",
            site="zermelo",
            date=today,
            round_number=str(game.index + 1),
        )
        for game in records
    ]
    try:
        Path(path).write_text("\n".join(texts), encoding="utf-8")
    except OSError as error:
        fail(_("cannot write {file}: {reason}").format(file=path, reason=error.strerror))


def _openings(spec: GameSpec, source: str | None, start: str | None) -> list[str]:
    """The start positions the games go through: from ``source`` (a file, ``builtin`` or
    ``none``), by default the game's own set when it has one and no ``--start`` was given."""
    from zermelo.core.errors import ZermeloError

    reader = None if spec.openings is None else spec.openings.resolve()
    if source is None:
        if start or reader is None:
            return []
        source = "builtin"
    if source == "none":
        return []
    if source == "builtin":
        if reader is None:
            fail(_("{game} has no built-in openings; give a file").format(game=spec.name))
        return reader.openings(None)
    try:
        with open(source, "rb") as stream:
            lines = read_text_lines(stream, source)
    except OSError as error:
        fail(_("cannot read {file}: {reason}").format(file=source, reason=error.strerror))
    text = "\n".join(lines)
    try:
        if reader is not None:
            positions = reader.openings(text)
        else:
            positions = [
                spec.parse(line.strip()).notation()
                for line in lines
                if line.strip() and not line.lstrip().startswith("#")
            ]
    except ZermeloError as error:
        fail(f"{source}: {error}")
    if not positions:
        fail(_("{file} holds no positions").format(file=source))
    return positions
