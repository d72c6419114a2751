"""``zermelo learn GAME``: AlphaZero-style training by self-play, measured against the solver.

The face of :mod:`zermelo.learn`: a time budget (``--seconds``, ``--minutes`` or ``--hours``), a
progress bar over it (phase, generation, games, games per second, loss, the latest share of
optimal moves, the time left), a table of the checkpoints at the end, and ``--plot`` drawing the
run's metrics. A run lives in a directory (by default ``learn/GAME`` under zermelo's cache
directory) and goes on where it stopped when the same command runs again; ``--fresh`` starts it
over. Ctrl-C asks the loop to stop: it saves, and the command says what was kept.

Training needs PyTorch (``zermelo[learn]``); drawing an existing run needs only matplotlib.
"""

from __future__ import annotations

import json
import math
import shlex
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Protocol

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from zermelo.cli.common import (
    MOST_SECONDS,
    Command,
    budget_options,
    cannot_write_plot,
    check_plot_writable,
    console,
    fail,
    finite_number,
    lang_option,
    learnable,
    time_budget,
)
from zermelo.core.errors import N_, CapabilityError
from zermelo.core.record import GameSpec
from zermelo.i18n import gettext as _
from zermelo.i18n import ngettext

__all__ = ["Row", "command", "default_run_dir", "draw_plot", "learnable_names", "rows"]

RUN_META = "run.json"
"""The file that makes a directory a run: its settings and its clock."""

RUN_FILES = frozenset({RUN_META, "selfplay", "checkpoints", "metrics.jsonl", "best.npz"})
"""What a run directory of :mod:`zermelo.learn` holds; ``--fresh`` deletes nothing else."""

PLOT_SUFFIXES = (".png", ".svg")

INSTALL = "pip install 'zermelo[learn]'"


class ProgressView(Protocol):
    """What the bar reads of the loop's :class:`zermelo.learn.loop.Progress`."""

    @property
    def generation(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def games_per_second(self) -> float: ...
    @property
    def loss(self) -> float | None: ...
    @property
    def accuracy(self) -> float | None: ...
    @property
    def elapsed(self) -> float: ...
    @property
    def seconds(self) -> float: ...
    @property
    def phase(self) -> str: ...


Report = Callable[[ProgressView], None]
Stop = Callable[[], bool]


class LoopAPI(Protocol):
    """The part of :mod:`zermelo.learn.loop` this command calls (tests give a fake one)."""

    def config(self, **settings: object) -> object: ...
    def learn(self, config: object, run_dir: Path, report: Report, stop: Stop) -> object: ...
    def read_metrics(self, run_dir: Path) -> Sequence[object]: ...


@dataclass(frozen=True)
class Elo:
    """An Elo difference with its 95% interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True)
class Row:
    """One checkpoint as the table and the plot show it: shares in [0, 1], ``None`` where the
    checkpoint did not measure it."""

    generation: int
    minutes: float
    games: int
    loss: float | None
    alone: float | None
    sims: float | None
    value_error: float | None
    accepted: bool | None
    elo_medium: Elo | None
    elo_hard: Elo | None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _elo(record: object, versus: str) -> Elo | None:
    """The Elo against ``versus`` from the checkpoint's ``arena`` (``{"medium": {"elo": ...,
    "low": ..., "high": ...}}``), ``None`` where it was not measured (or was infinite)."""
    arena = getattr(record, "arena", None)
    match = arena.get(versus) if isinstance(arena, dict) else None
    if not isinstance(match, dict):
        return None
    value = _number(match.get("elo"))
    if value is None:
        # The loop writes no Elo for a score of 0% or 100%: it is infinite.
        score = _number(match.get("score"))
        if score in (0.0, 1.0) and (_number(match.get("games")) or 0) > 0:
            infinite = math.inf if score == 1.0 else -math.inf
            return Elo(infinite, infinite, infinite)
        return None
    low, high = _number(match.get("low")), _number(match.get("high"))
    return Elo(value, value if low is None else low, value if high is None else high)


def rows(checkpoints: Sequence[object]) -> list[Row]:
    """The checkpoints of :func:`zermelo.learn.loop.read_metrics` as rows."""
    out = []
    for checkpoint in checkpoints:
        accepted = getattr(checkpoint, "accepted", None)
        out.append(
            Row(
                generation=int(_number(getattr(checkpoint, "generation", None)) or 0),
                minutes=(_number(getattr(checkpoint, "elapsed", None)) or 0.0) / 60.0,
                games=int(_number(getattr(checkpoint, "games", None)) or 0),
                loss=_number(getattr(checkpoint, "loss", None)),
                alone=_number(getattr(checkpoint, "alone", None)),
                sims=_number(getattr(checkpoint, "searched", None)),
                value_error=_number(getattr(checkpoint, "value_error", None)),
                accepted=accepted if isinstance(accepted, bool) else None,
                elo_medium=_elo(checkpoint, "medium"),
                elo_hard=_elo(checkpoint, "hard"),
            )
        )
    return out


def learnable_names() -> list[str]:
    """The games ``zermelo learn`` trains."""
    from zermelo.games.registry import all_games

    return [spec.name for spec in all_games() if learnable(spec)]


def _not_learnable(name: str) -> str:
    return _(
        "{game} cannot learn by self-play (a net needs board planes, no dice or hidden cards, "
        "and moves of one step); the games that can: {games}"
    ).format(game=name, games=", ".join(learnable_names()))


def default_run_dir(game: str) -> Path:
    """Where the run of ``game`` lives unless ``--run-dir`` says otherwise."""
    from zermelo.learn.metrics import run_directory

    return run_directory(game)


def _loop() -> LoopAPI:
    """The training loop; :class:`ImportError` without PyTorch."""
    from zermelo.learn import loop

    class _Loop:
        def config(self, **settings: object) -> object:
            game = str(settings.pop("game"))
            return loop.default_config(game, **settings)

        def learn(self, config: object, run_dir: Path, report: Report, stop: Stop) -> object:
            assert isinstance(config, loop.LearnConfig)
            return loop.learn(config, run_dir, report, stop)

        def read_metrics(self, run_dir: Path) -> Sequence[object]:
            return loop.read_metrics(run_dir)

    return _Loop()


def _read_rows(run_dir: Path) -> list[Row]:
    """The run's checkpoints, or none when ``run_dir`` holds no metrics yet."""
    if not (run_dir / "metrics.jsonl").is_file():
        return []
    try:
        try:
            checkpoints: Sequence[object] = _loop().read_metrics(run_dir)
        except ImportError:  # no PyTorch: the plot needs only the metrics
            from zermelo.learn.metrics import read_metrics

            checkpoints = read_metrics(run_dir)
    except OSError as error:
        fail(_cannot_read(run_dir, error))
    return rows(checkpoints)


def _cannot_read(run_dir: Path, error: OSError) -> str:
    return _("cannot read the run in {dir}: {reason}").format(
        dir=run_dir, reason=error.strerror or error
    )


@dataclass(frozen=True)
class RunInfo:
    """What a run directory's ``run.json`` says: the game, how far it got, its settings."""

    game: str
    generation: int
    games: int
    settings: dict[str, object]


def run_info(run_dir: Path) -> RunInfo | None:
    """The run in ``run_dir`` (its ``run.json``), ``None`` when there is none; a ``run.json``
    that is not a zermelo run's fails with one line."""
    path = run_dir / RUN_META
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        data = None
    identity = data.get("identity") if isinstance(data, dict) else None
    game = identity.get("game") if isinstance(identity, dict) else None
    if not isinstance(data, dict) or not isinstance(identity, dict) or not isinstance(game, str):
        fail(_("{path} is not a zermelo learning run; give another --run-dir").format(path=path))
    return RunInfo(
        game=game,
        generation=int(_number(data.get("generation")) or 0),
        games=int(_number(data.get("games")) or 0),
        settings={str(k): v for k, v in identity.items()},
    )


def _ours(name: str) -> bool:
    """Whether ``name`` is an entry a run directory holds (a file being written included)."""
    return (
        name in RUN_FILES
        or any(name == f + ".partial" for f in RUN_FILES)
        or (name.endswith(".partial.npz"))
    )


def _clear(run_dir: Path) -> None:
    """Delete the run in ``run_dir`` (``--fresh``), refusing a directory that holds anything a
    run does not."""
    if not run_dir.exists():
        return
    if not run_dir.is_dir():
        fail(_("{dir} is not a directory; give another --run-dir").format(dir=run_dir))
    try:
        entries = list(run_dir.iterdir())
    except OSError as error:
        fail(_cannot_read(run_dir, error))
    if not entries:
        return
    strangers = sorted(entry.name for entry in entries if not _ours(entry.name))
    if strangers or not (run_dir / RUN_META).is_file():
        fail(
            _(
                "--fresh deletes only a zermelo learning run, and {dir} is not one ({files}); "
                "give another --run-dir"
            ).format(dir=run_dir, files=", ".join(strangers[:3]) or _("no run.json"))
        )
    run_info(run_dir)  # a run.json that is not a run's: refused, nothing deleted
    try:
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    except OSError as error:
        fail(
            _("cannot delete the run in {dir}: {reason}").format(
                dir=run_dir, reason=error.strerror or error
            )
        )


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{100 * share:.1f}"


def _decimal(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _describe_elo(elo: Elo | None) -> str:
    if elo is None:
        return "—"
    if not math.isfinite(elo.value):
        return "+∞" if elo.value > 0 else "-∞"
    return f"{elo.value:+.0f} [{elo.low:+.0f}, {elo.high:+.0f}]"


def checkpoint_table(game: str, table_rows: Sequence[Row], sims: int | None = None) -> Table:
    """The checkpoints of a run, one row per generation; ``sims`` is the number of simulations
    the searched share was measured with, where the run says."""
    table = Table(title=_("Checkpoints: {game}").format(game=game))
    headings = (
        _("generation"),
        _("minutes"),
        _("games"),
        # TRANSLATORS: the training loss of the net (a number), not a lost game.
        _("training loss"),
        _("move alone %"),
        _("with sims %") if sims is None else _("with {sims} sims %").format(sims=sims),
        _("value error"),
        _("accepted"),
        _("Elo vs medium"),
        _("Elo vs hard"),
    )
    for heading in headings:
        table.add_column(heading, justify="right")
    for row in table_rows:
        accepted = "—" if row.accepted is None else _("yes") if row.accepted else _("no")
        table.add_row(
            str(row.generation),
            f"{row.minutes:.1f}",
            f"{row.games:,}",
            _decimal(row.loss),
            _percent(row.alone),
            _percent(row.sims),
            _decimal(row.value_error),
            accepted,
            _describe_elo(row.elo_medium),
            _describe_elo(row.elo_hard),
        )
    return table


def draw_plot(game: str, table_rows: Sequence[Row], path: Path, sims: int | None = None) -> None:
    """The run's curves against training time, written to ``path`` (PNG or SVG by its suffix):
    the shares of optimal moves (move alone, with simulations) and the value error above, the Elo
    against medium and hard with their intervals below. Raises :class:`ImportError` without
    matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7.0, 6.4), sharex=True)
    minutes = [row.minutes for row in table_rows]

    def series(values: Sequence[float | None]) -> tuple[list[float], list[float]]:
        points = [(m, v) for m, v in zip(minutes, values, strict=True) if v is not None]
        return [m for m, _v in points], [v for _m, v in points]

    for label, values in (
        (_("move alone"), [None if r.alone is None else 100 * r.alone for r in table_rows]),
        (
            _("with simulations")
            if sims is None
            else _("with {sims} simulations").format(sims=sims),
            [None if r.sims is None else 100 * r.sims for r in table_rows],
        ),
    ):
        xs, ys = series(values)
        if xs:
            top.plot(xs, ys, marker="o", label=label)
    top.set_ylabel(_("optimal moves (%)"))
    top.set_title(_("{game}: learning by self-play").format(game=game))
    top.grid(True, alpha=0.3)
    error_axis = top.twinx()
    xs, ys = series([r.value_error for r in table_rows])
    if xs:
        error_axis.plot(xs, ys, "k--", marker=".", label=_("value error"))
    error_axis.set_ylabel(_("value error"))
    handles, labels = top.get_legend_handles_labels()
    more_handles, more_labels = error_axis.get_legend_handles_labels()
    if handles or more_handles:
        top.legend(handles + more_handles, labels + more_labels, fontsize=8, loc="center right")

    for label, key in ((_("Elo vs medium"), "elo_medium"), (_("Elo vs hard"), "elo_hard")):
        points = [
            (r.minutes, elo)
            for r in table_rows
            if (elo := getattr(r, key)) is not None and math.isfinite(elo.value)
        ]
        if points:
            bottom.errorbar(
                [m for m, _e in points],
                [e.value for _m, e in points],
                yerr=[
                    [max(e.value - e.low, 0.0) for _m, e in points],
                    [max(e.high - e.value, 0.0) for _m, e in points],
                ],
                marker="o",
                capsize=3,
                label=label,
            )
    if not bottom.get_legend_handles_labels()[0]:
        bottom.text(
            0.5,
            0.5,
            _("no arena match against medium or hard yet"),
            transform=bottom.transAxes,
            ha="center",
            va="center",
            color="grey",
        )
    bottom.axhline(0.0, color="grey", linewidth=0.8)
    bottom.set_ylabel(_("Elo difference"))
    bottom.set_xlabel(_("training time (minutes)"))
    bottom.grid(True, alpha=0.3)
    if bottom.get_legend_handles_labels()[0]:
        bottom.legend(fontsize=8, loc="best")
    figure.tight_layout()
    figure.savefig(path, format=path.suffix.lstrip(".").lower(), dpi=90)
    plt.close(figure)


def _check_plot(plot: str) -> Path:
    """The plot's path, failing at once (before any training) on a bad suffix, no matplotlib or
    a place that cannot be written."""
    path = Path(plot)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        fail(_("{path}: expected a file name ending in .png or .svg").format(path=plot))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail(_("--plot needs matplotlib: {install}").format(install=INSTALL))
    check_plot_writable(path)
    return path


def _plot(
    out: Console, game: str, table_rows: Sequence[Row], path: Path, sims: int | None = None
) -> None:
    try:
        draw_plot(game, table_rows, path, sims)
    except OSError as error:
        fail(cannot_write_plot(path, error))
    out.print(_("Plot written to {path}").format(path=escape(str(path))))


class _Interrupt:
    """Ctrl-C (or a plain ``kill``, SIGTERM) as a request: the first one makes :meth:`asked`
    true, so the loop stops at its next check and saves; a second one raises
    :class:`KeyboardInterrupt` at once. A signal this process was started ignoring (a job run in
    the background of a script) stays ignored."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.requested = False

    def asked(self) -> bool:
        return self.requested

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    @contextmanager
    def installed(self) -> Iterator[None]:
        previous: dict[signal.Signals, object] = {}
        if threading.current_thread() is threading.main_thread():
            for number in self.SIGNALS:
                if signal.getsignal(number) is not signal.SIG_IGN:
                    previous[number] = signal.signal(number, self._handle)
        try:
            yield
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)  # type: ignore[arg-type]


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def _status(view: ProgressView, time_left: bool = True) -> str:
    """The bar's words: generation, games, speed, loss, accuracy and (``time_left``) the time
    left."""
    parts = [
        _("generation {generation}").format(generation=view.generation),
        ngettext("{games} game", "{games} games", view.games).format(games=f"{view.games:,}"),
        _("{rate:.1f} games/s").format(rate=view.games_per_second),
    ]
    if view.loss is not None and math.isfinite(view.loss):
        parts.append(_("loss {loss:.3f}").format(loss=view.loss))
    if view.accuracy is not None and math.isfinite(view.accuracy):
        parts.append(_("optimal {percent:.1f}%").format(percent=100 * view.accuracy))
    left = view.seconds - view.elapsed
    if time_left and left >= 0.5:
        parts.append(_("{clock} left").format(clock=_clock(left)))
    elif time_left:
        parts.append(_("time is up: finishing the generation"))
    return " · ".join(parts)


def _phase(name: str) -> str:
    words = {
        "self-play": _("self-play"),
        "training": _("training"),
        "gating": _("gating"),
        "measuring": _("measuring"),
    }
    return words.get(name, name)


def _again(ctx: click.Context) -> str:
    """The command that goes on with this run: the one given, without ``--fresh``."""
    words = ["zermelo", "learn", str(ctx.params["game"])]
    for name, value in ctx.params.items():
        if name in ("game", "fresh") or value is None:
            continue
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        words += ["--" + name.replace("_", "-"), shown]
    return shlex.join(words)


_rate = finite_number(N_("{value!r} is not a learning rate: expected a number from 1e-07 to 1"))


RESUMED = ("sims", "seed")
"""The settings of the command that a resumed run keeps from its ``run.json`` when not given."""


def _check_same(run_dir: Path, previous: RunInfo, config: object) -> None:
    """Fail with one line naming the first setting of ``config`` that differs from the run's."""
    identity = getattr(config, "identity", None)
    if not callable(identity):
        return
    wanted = json.loads(json.dumps(identity()))
    if not isinstance(wanted, dict):
        return
    for key, value in wanted.items():
        had = previous.settings.get(key)
        if had != value:
            fail(
                _(
                    "{dir} holds a run of {game} with other settings ({key} {had}, not {value}); "
                    "give another --run-dir, or --fresh to start over there"
                ).format(dir=run_dir, game=previous.game, key=key, had=had, value=value)
            )


def _measure_sims(run_dir: Path) -> int | None:
    """The simulations of the run's "with N simulations" measurement, from its settings."""
    info = run_info(run_dir)
    sims = _number(info.settings.get("measure_sims")) if info is not None else None
    return None if sims is None else int(sims)


def _has_torch() -> bool:
    """Whether PyTorch is installed, without importing it (that takes seconds)."""
    if "torch" in sys.modules:
        return sys.modules["torch"] is not None
    import importlib.util

    return importlib.util.find_spec("torch") is not None


def _train(
    ctx: click.Context,
    spec: GameSpec,
    run_dir: Path,
    settings: dict[str, object],
    fresh: bool,
    plot: Path | None,
) -> None:
    out = console()
    err = Console(stderr=True, highlight=False)
    if not _has_torch():
        fail(_("training needs PyTorch: {install}").format(install=INSTALL))
    try:
        loop = _loop()
    except ImportError as error:
        fail(
            _("training needs PyTorch: {install} ({reason})").format(install=INSTALL, reason=error)
        )
    name = spec.name
    if run_dir.exists() and not run_dir.is_dir():
        fail(_("{dir} is not a directory; give another --run-dir").format(dir=run_dir))
    if fresh:
        _clear(run_dir)
    previous = run_info(run_dir)
    if previous is not None and previous.game != name:
        fail(
            _(
                "{dir} holds a run of {other}, not of {game}; give another --run-dir, or "
                "--fresh to start over there"
            ).format(dir=run_dir, other=previous.game, game=name)
        )
    if previous is not None:
        # What was not given goes on as the run had it: the same command, or a shorter one.
        for key in RESUMED:
            if key not in settings and key in previous.settings:
                settings[key] = previous.settings[key]
    config = loop.config(game=name, **settings)
    if previous is not None:
        _check_same(run_dir, previous, config)
        out.print(
            escape(
                _(
                    "Going on with the run in {dir}: generation {generation}, {games} games so far."
                ).format(dir=run_dir, generation=previous.generation, games=f"{previous.games:,}")
            )
        )
    interrupt = _Interrupt()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    stopped_hard = False
    with progress, interrupt.installed():
        bar = progress.add_task(_phase("self-play"), total=1.0, status="")

        logged: list[int] = []

        def report(view: ProgressView) -> None:
            budget = view.seconds if view.seconds > 0 else 1.0
            progress.update(
                bar,
                description=_phase(view.phase),
                total=budget,
                completed=min(max(view.elapsed, 0.0), budget),
                status=escape(_status(view)),
            )
            # Where there is no bar (a log file, a pipe), one line per generation finished.
            if not logged:
                logged.append(view.generation)
            elif view.generation > logged[-1]:
                logged.append(view.generation)
                if not err.is_terminal:
                    err.print(escape(_status(view, time_left=False)), soft_wrap=True)

        try:
            loop.learn(config, run_dir, report, interrupt.asked)
        except KeyboardInterrupt:
            stopped_hard = True
        except CapabilityError:
            fail(_not_learnable(name))
        except OSError as error:
            fail(
                _("cannot keep the run in {dir}: {reason}").format(
                    dir=run_dir, reason=error.strerror or error
                )
            )
    table_rows = _read_rows(run_dir)
    if table_rows:
        if not out.is_terminal:
            out.width = max(out.width, 140)
        out.print(checkpoint_table(name, table_rows, _measure_sims(run_dir)))
    if plot is not None:
        _plot(out, name, table_rows, plot, _measure_sims(run_dir))
    if interrupt.requested or stopped_hard:
        last = table_rows[-1] if table_rows else None
        out.print(
            escape(
                _(
                    "Stopped. Kept in {dir}: generation {generation}, {games} games. To go on: {command}"
                ).format(
                    dir=run_dir,
                    generation=last.generation if last else 0,
                    games=f"{last.games:,}" if last else 0,
                    command=_again(ctx),
                )
            )
        )
        sys.exit(130)


def command() -> click.Command:
    """The ``learn`` command, with its help in the current language."""

    @click.command(
        "learn",
        cls=Command,
        help=_(
            "Train a policy-value net for GAME by self-play, AlphaZero's way, and measure every "
            "checkpoint against the exact solver: the share of positions where its move alone is "
            "optimal, the same with N simulations, the value's error, and the Elo against medium "
            "and hard. The run is kept in a directory and goes on where it stopped when the same "
            "command runs again. With --plot and no time budget, draw an existing run. Training "
            "needs pip install 'zermelo[learn]'."
        ),
        short_help=_("Train a net by self-play and measure it against perfect play."),
    )
    @click.argument("game")
    @budget_options(_("Train for S seconds."), _("Train for M minutes."), _("Train for H hours."))
    @click.option(
        "--generations",
        type=click.IntRange(min=1, max=1_000_000),
        default=None,
        metavar="N",
        help=_(
            "Stop when the run has N generations in all (alone, or with a time budget: "
            "whichever comes first). A rebuild of a net counts generations, not time."
        ),
    )
    @click.option(
        "--sims",
        type=click.IntRange(min=1, max=100_000),
        default=None,
        metavar="N",
        help=_("PUCT simulations per move in self-play (default: the game's own)."),
    )
    @click.option(
        "--learning-rate",
        type=click.FloatRange(min=1e-7, max=1.0),
        default=None,
        callback=_rate,
        metavar="RATE",
        help=_(
            "The optimizer's learning rate from now on (default: the game's own); a lower one "
            "late in a run often lifts an accuracy that has levelled off."
        ),
    )
    @click.option(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help=_(
            "Play the self-play games on a Dask cluster: 'local' or 'local:N' (N worker "
            "processes here) or a scheduler address such as tcp://10.0.0.5:8786. Needs "
            "zermelo[cluster]."
        ),
    )
    @click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1, max=1024),
        default=None,
        help=_("Self-play tasks run at once, each on its own process (default: 2)."),
    )
    @click.option(
        "--seed",
        type=click.IntRange(min=0, max=2**63 - 1),
        default=None,
        help=_("Seed of the run (default: the run's own, 0 for a new one)."),
    )
    @click.option(
        "--run-dir",
        type=click.Path(file_okay=False),
        default=None,
        metavar="DIR",
        help=_("Where the run is kept (default: learn/GAME in zermelo's cache directory)."),
    )
    @click.option(
        "--fresh",
        is_flag=True,
        default=None,
        help=_("Delete the run in the run directory and start over."),
    )
    @click.option(
        "--plot",
        default=None,
        metavar="FILE",
        help=_(
            "Draw the run's accuracy, value error and Elo against training time to FILE (.png "
            "or .svg); without a time budget, only draw."
        ),
    )
    @lang_option
    @click.pass_context
    def learn(
        ctx: click.Context,
        game: str,
        seconds: float | None,
        minutes: float | None,
        hours: float | None,
        generations: int | None,
        sims: int | None,
        learning_rate: float | None,
        cluster: str | None,
        jobs: int | None,
        seed: int | None,
        run_dir: str | None,
        fresh: bool | None,
        plot: str | None,
    ) -> None:
        from zermelo.games.registry import get_game

        spec = get_game(game)
        budget = time_budget(seconds, minutes, hours)
        if budget is None and generations is not None:
            budget = MOST_SECONDS
        plot_path = _check_plot(plot) if plot is not None else None
        directory = Path(run_dir) if run_dir is not None else default_run_dir(spec.name)
        if budget is None:
            if plot_path is None:
                fail(
                    _(
                        "give a time budget (--seconds S, --minutes M or --hours H) to train, or "
                        "--plot FILE to draw a run"
                    )
                )
            training = {
                "--sims": sims,
                "--learning-rate": learning_rate,
                "--cluster": cluster,
                "--jobs": jobs,
                "--seed": seed,
            }
            given = [option for option, value in training.items() if value is not None]
            if fresh:
                given.append("--fresh")
            if given:
                fail(
                    _("no time budget, so nothing to train: leave out {options}").format(
                        options=", ".join(given)
                    )
                )
            previous = run_info(directory) if directory.is_dir() else None
            if previous is not None and previous.game != spec.name:
                fail(
                    _("{dir} holds a run of {other}, not of {game}").format(
                        dir=directory, other=previous.game, game=spec.name
                    )
                )
            table_rows = _read_rows(directory) if previous is not None else []
            if not table_rows:
                fail(
                    _(
                        "no checkpoints of {game} in {dir} yet: train first, such as "
                        "zermelo learn {game} --minutes 5"
                    ).format(game=spec.name, dir=directory)
                )
            _plot(console(), spec.name, table_rows, plot_path, _measure_sims(directory))
            return
        if not learnable(spec):
            fail(_not_learnable(spec.name))
        if cluster is not None:
            from zermelo.parallel import parse_cluster

            parse_cluster(cluster, jobs)  # a bad value fails here, before any work
        settings: dict[str, object] = {"seconds": budget}
        if generations is not None:
            settings["generations"] = generations
        chosen = (
            ("sims", sims),
            ("learning_rate", learning_rate),
            ("cluster", cluster),
            ("jobs", jobs),
            ("seed", seed),
        )
        for key, value in chosen:
            if value is not None:
                settings[key] = value
        _train(ctx, spec, directory, settings, bool(fresh), plot_path)

    return learn
