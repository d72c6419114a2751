"""What every command shares: the translated help chrome, options, consoles and small helpers.

Every mistake in what a person types ends as one line on stderr that says what was wrong and what
was expected; never a traceback.

Help texts and messages are ours and translated. Click's own words are not in our catalogs: click
asks Python's ``gettext`` for them in the global domain ``messages``, which no one installs. We
translate the ones a help screen shows through click's public hooks (the help and version options,
the "Usage:", "Options" and "Commands" headings, "[default: ...]"); the detail of a usage error
("No such option: --x", "'x' is not one of ...") stays in English inside our translated error line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from zermelo.core.capabilities import TuneReport
from zermelo.core.errors import N_, CapabilityError, ZermeloError
from zermelo.core.record import BoolOption, GameSpec, Option, OptionValue, Ref, capability_names
from zermelo.core.state import AnyState
from zermelo.i18n import gettext as _

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., object])

MAX_SECONDS = 3600.0
"""The longest thinking time any command accepts, in seconds: one hour."""


def lang_option(command: F) -> F:
    """``--lang`` on every command; the language itself is set before the CLI is built."""
    return click.option(
        "--lang",
        "lang",
        default=None,
        metavar="CODE",
        expose_value=False,
        help=_("Language: en, id, nl, vi or tr (default: from LC_ALL, LC_MESSAGES or LANG)."),
    )(command)


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(
            _("{value!r} is not a time: expected seconds from 0.01 to {most:g}").format(
                value=value, most=MAX_SECONDS
            )
        )
    return value


def time_option(help_text: str) -> Callable[[F], F]:
    """``--time SECONDS``, finite and at most an hour."""
    return click.option(
        "--time",
        "time_limit",
        type=click.FloatRange(min=0.01, max=MAX_SECONDS),
        callback=_finite,
        default=None,
        metavar="SECONDS",
        help=help_text,
    )


MOST_SECONDS = 30 * 24 * 3600.0
"""The longest time budget of a long job (``learn``, ``tune --nnue``): thirty days."""


def finite_number(
    message: str,
) -> Callable[[click.Context, click.Parameter, float | None], float | None]:
    """A click callback that refuses NaN and the infinities with ``message`` (a msgid with
    ``{value!r}``): click's ranges let NaN through."""

    def check(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
        if value is not None and not math.isfinite(value):
            raise click.BadParameter(_(message).format(value=value))
        return value

    return check


_TIME_MESSAGE = N_("{value!r} is not a time: expected a finite number")


def budget_options(seconds: str, minutes: str, hours: str) -> Callable[[F], F]:
    """``--seconds S``, ``--minutes M`` and ``--hours H`` with these help texts: one of them,
    read by :func:`time_budget`."""
    finite = finite_number(_TIME_MESSAGE)

    def decorate(command: F) -> F:
        for name, low, scale, metavar, text in (
            ("--hours", 0.001, 3600.0, "H", hours),
            ("--minutes", 0.02, 60.0, "M", minutes),
            ("--seconds", 1.0, 1.0, "S", seconds),
        ):
            command = click.option(
                name,
                type=click.FloatRange(min=low, max=MOST_SECONDS / scale),
                callback=finite,
                default=None,
                metavar=metavar,
                help=text,
            )(command)
        return command

    return decorate


def time_budget(seconds: float | None, minutes: float | None, hours: float | None) -> float | None:
    """The seconds of the one time budget given (``None`` for none); two budgets, or one out of
    range, fail in one line."""
    given = [
        (value, scale)
        for value, scale in ((seconds, 1.0), (minutes, 60.0), (hours, 3600.0))
        if value is not None
    ]
    if len(given) > 1:
        fail(_("give one time budget: --seconds S, --minutes M or --hours H"))
    if not given:
        return None
    total = given[0][0] * given[0][1]
    if not math.isfinite(total) or not 1.0 <= total <= MOST_SECONDS:
        fail(_("the time budget must be from 1 second to 30 days"))
    return total


class _Formatter(click.HelpFormatter):
    """Click's help layout with the words click brings itself in the current language."""

    _DEFAULT = re.compile(r"(?<=\[)default: ([^;\]]*)|(?<=; )default: ([^;\]]*)")

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage:") + " " if prefix is None else prefix)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        headings = {"Options": _("Options"), "Commands": _("Commands")}
        with super().section(headings.get(name, name)):
            yield

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        def translate(match: re.Match[str]) -> str:
            value = match.group(1) if match.group(1) is not None else match.group(2)
            return _("default: {default}").format(default=value)

        super().write_dl(
            [(term, self._DEFAULT.sub(translate, text)) for term, text in rows],
            col_max,
            col_spacing,
        )


class _Context(click.Context):
    formatter_class = _Formatter


def game_commands(spec: GameSpec) -> frozenset[str]:
    """The commands that work on ``spec``, read from its record's fields: every game can be
    played, and analysed unless it hides information; the others need the capability they run
    (``uci`` speaks chess, ``hub`` the games that declare a Hub variant, ``solve`` a solver)."""
    # A game with hidden information has no value per position for one side to analyse.
    supported = {"play", "arena"} | (set() if spec.hidden else {"analyze"})
    for command, fields in (
        ("solve", ("start_solver", "position_solver", "game_solver")),
        ("explain", ("explainer",)),
        ("tune", ("tuner",)),
        ("perft", ("perft",)),
    ):
        if any(getattr(spec, name) is not None for name in fields):
            supported.add(command)
    if spec.board == "chess":
        supported.add("uci")
    if spec.hub_variant is not None:
        supported.add("hub")
    if learnable(spec):
        supported.add("learn")
    return frozenset(supported)


def learnable(spec: GameSpec) -> bool:
    """Whether ``zermelo learn`` can train a net for ``spec``: the net sees board planes (a
    codec), there is no chance and no hidden information, and every move is one token, so that
    the policy has one output per move (:func:`zermelo.agents.az.learnable` says which)."""
    if spec.codec is None or spec.chance or spec.hidden:
        return False  # without importing numpy for the games that cannot
    from zermelo.agents.az import learnable as encoder

    try:
        encoder(spec)
    except ZermeloError:
        return False
    return True


def games_help(command: str | None = None) -> str:
    """One paragraph naming the games (each with its aliases) that ``command`` works on, from the
    registry; every game when ``command`` is ``None``."""
    from zermelo.games.registry import all_games

    names = [
        spec.name + (" (" + ", ".join(spec.aliases) + ")" if spec.aliases else "")
        for spec in all_games()
        if command is None or command in game_commands(spec)
    ]
    return _("GAME is one of: {games}; 'zermelo games' lists what each supports.").format(
        games=", ".join(names)
    )


class Command(click.Command):
    """A command with the translated help chrome; a command that takes a GAME names the games
    it works on (with their aliases) at the end of its help."""

    context_class = _Context

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        if any(isinstance(p, click.Argument) and p.name == "game" for p in self.params):
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(games_help(self.name))

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option


class Group(click.Group):
    """The ``zermelo`` group: its commands get the translated help chrome."""

    context_class = _Context
    command_class = Command

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option


def console() -> Console:
    """Standard output, without rich's guessing at highlights."""
    return Console(highlight=False, soft_wrap=True)


class Failure(click.ClickException):
    """A command's one error line about what was asked; like every usage error it exits 2."""

    exit_code = 2


def fail(message: str) -> NoReturn:
    """End the command with ``message`` (already translated) as its one error line, status 2."""
    raise Failure(message)


def rated_progress(console: Console, *, transient: bool, disable: bool = False) -> Progress:
    """A bar for counted work whose tasks carry a ``rate`` field in words ("1.5 games/min"):
    the description, the bar, done of total, the rate, the time spent and the time left."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=transient,
        disable=disable,
    )


class RateColumn(ProgressColumn):
    """Items per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f}/s", style="progress.data.speed")


def read_text_lines(stream: IO[bytes] | IO[str], source: str) -> list[str]:
    """The lines of a binary or text stream, refusing bytes that are not UTF-8 with one line."""
    data = stream.read()
    if isinstance(data, str):
        return data.splitlines()
    try:
        return bytes(data).decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        line = bytes(data)[: error.start].count(b"\n") + 1
        raise ZermeloError(
            N_("{source}, line {line}: byte {byte} is not UTF-8 text; expected UTF-8"),
            source=source,
            line=line,
            byte=f"0x{bytes(data)[error.start]:02x}",
        ) from None


def position_or_moves(spec: GameSpec, text: str, options: Mapping[str, OptionValue]) -> AnyState:
    """A position from the game's notation, or from moves played from the start. With rule
    options the moves come first, played on the board the options make (a notation knows no
    options, so ``33`` on ``--width 5`` is two moves on a 5-wide board, not a 7-wide position)."""
    if not text.strip():
        return spec.new(**options)

    def played() -> AnyState:
        state = spec.new(**options)
        for word in text.replace(",", " ").split():
            state = state.play(state.parse_move(word))
        return state

    def parsed() -> AnyState:
        return spec.read(text, options)

    first, second = (played, parsed) if options else (parsed, played)
    try:
        return first()
    except ZermeloError as first_error:
        try:
            return second()
        except ZermeloError as second_error:
            notation_error, move_error = (
                (second_error, first_error) if options else (first_error, second_error)
            )
            raise ZermeloError(
                N_(
                    "{text!r} is neither a position ({position_error}) nor a list of moves "
                    "({move_error})"
                ),
                text=text,
                position_error=notation_error,
                move_error=move_error,
            ) from None


def _parse_size(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[int, int] | None:
    if value is None:
        return None
    text = value.strip().lower()
    parts = text.split("x")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 4 for p in parts):
        raise click.BadParameter(
            _(
                "{value!r} is not a board size: expected COLUMNSxROWS such as 7x7, or one number"
            ).format(value=value)
        )
    return int(parts[0]), int(parts[1])


RULE = "rule_"
"""The prefix of the parameters :func:`rule_options` adds, so they never meet a command's own."""


def rule_options(command: F) -> F:
    """The rule options of the games, from their records: ``--NAME`` for every option a game
    declares (a flag for a yes/no option), ``--size WxH`` for games with a width and a height, and
    ``--option NAME=VALUE`` for any of them. Which game takes which is checked by
    :func:`game_options` once the game is known."""
    from zermelo.games.registry import all_games

    taken = {opt for param in getattr(command, "__click_params__", []) for opt in param.opts}
    declared: dict[str, Option] = {}
    games: dict[str, list[str]] = {}
    for spec in all_games():
        for option in spec.options:
            declared.setdefault(option.name, option)
            games.setdefault(option.name, []).append(spec.name)
    for name in sorted(declared, reverse=True):
        flag = "--" + name.replace("_", "-")
        if flag in taken or not name.isidentifier():
            continue
        option = declared[name]
        text = _("{help} (rule of {games})").format(
            help=_(option.help), games=", ".join(games[name])
        )
        if isinstance(option, BoolOption):
            command = click.option(flag, RULE + name, is_flag=True, default=None, help=text)(
                command
            )
        else:
            command = click.option(flag, RULE + name, default=None, metavar="N", help=text)(command)
    command = click.option(
        "--option",
        "-o",
        "rule_texts",
        multiple=True,
        metavar="NAME=VALUE",
        help=_("A rule option of the game, such as width=8 (the same as --width 8)."),
    )(command)
    return click.option(
        "--size",
        callback=_parse_size,
        default=None,
        metavar="WxH",
        help=_("Board size such as 7x7, for games with a width and a height."),
    )(command)


def _not_a_rule(spec: GameSpec, name: str) -> click.UsageError:
    rules = ", ".join("--" + option.name for option in spec.options) or _("none")
    return click.UsageError(
        _("{option} is not a rule of {game}; its rules: {rules}").format(
            option=name, game=spec.name, rules=rules
        )
    )


def game_options(
    spec: GameSpec,
    rules: Mapping[str, object],
    size: tuple[int, int] | None = None,
    texts: Sequence[str] = (),
) -> dict[str, OptionValue]:
    """The rule options for ``spec.new`` from what :func:`rule_options` collected: each one the
    game declares, checked by its declaration; a rule the game does not have is an error, never
    ignored."""
    given: dict[str, object] = {}
    if size is not None:
        if spec.option("width") is None or spec.option("height") is None:
            raise _not_a_rule(spec, "--size")
        given["width"], given["height"] = str(size[0]), str(size[1])
    for key, value in rules.items():
        if key.startswith(RULE) and value is not None and value is not False:
            given[key[len(RULE) :]] = value
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise click.UsageError(
                _("--option {text}: expected NAME=VALUE, such as width=8").format(text=repr(text))
            )
        given[name.strip()] = value
    options: dict[str, OptionValue] = {}
    for name, value in given.items():
        option = spec.option(name)
        if option is None:
            raise _not_a_rule(spec, "--" + name)
        options[name] = option.parse(value) if isinstance(value, str) else option.check(value)
    return options


def capability(spec: GameSpec, ref: Ref[T] | None, field: str, command: str) -> T:
    """The capability ``ref`` of ``spec`` (its record's field ``field``), resolved; when the
    game lacks it, a :class:`CapabilityError` naming the games that have it."""
    if ref is None:
        raise missing_capability(spec, command, field)
    return ref.resolve()


def missing_capability(spec: GameSpec, command: str, *fields: str) -> CapabilityError:
    """The error for ``command`` on a game that has none of the record ``fields``: it names the
    games that have one of them."""
    from zermelo.games.registry import all_games

    having = ", ".join(
        other.name for other in all_games() if set(fields) & set(capability_names(other))
    )
    return CapabilityError(
        N_("{command} works on {games}, not on {game}"),
        command=command,
        games=having,
        game=spec.name,
    )


def print_board(out: Console, spec: GameSpec, state: AnyState) -> None:
    """The board, as the terminal game draws it."""
    from zermelo.ui.terminal.boards import view_for

    out.print(view_for(spec).render(state, None, rich=out.is_terminal))


def format_line(state: AnyState, line: Sequence[Hashable]) -> list[str]:
    """The moves of ``line`` from ``state``, each in the game's notation."""
    words = []
    for move in line:
        words.append(state.format_move(move))
        state = state.play(move)
    return words


def cluster_options(command: F) -> F:
    """``--cluster`` (where the work runs) and ``--resume FILE`` (results kept as they come)."""
    command = click.option(
        "--resume",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help=_(
            "Keep each result in FILE as soon as it is known; the same command run again "
            "skips what FILE holds."
        ),
    )(command)
    return click.option(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help=_(
            "Run on a Dask cluster: 'local' or 'local:N' (N worker processes here) or a "
            "scheduler address such as tcp://10.0.0.5:8786. Needs zermelo[cluster]."
        ),
    )(command)


def cannot_write_plot(path: Path, error: OSError) -> str:
    """The line for a plot that cannot be written to ``path``."""
    return _("{path}: cannot write the plot there ({reason})").format(
        path=path, reason=error.strerror or error
    )


def check_plot_writable(path: Path) -> None:
    """Fail at once, before any work, if a plot cannot be written to ``path``."""
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as error:
        fail(cannot_write_plot(path, error))


def tune_verdict(report: TuneReport, force: bool, path: str) -> str:
    """The one line that says whether tuned weights (or a trained network) were kept, and why
    (``zermelo tune``, with or without ``--nnue``)."""
    if report.match is None:
        return _("Kept (no check match was played): saved to {path}").format(path=escape(path))
    score = "{}-{}-{}".format(*report.match)
    if report.improved:
        return _("Kept (won the check match: {score}): saved to {path}").format(
            score=score, path=escape(path)
        )
    lost = report.match[1] > report.match[0]
    if force:
        return _(
            "Kept because of --force, though they did not win the check match ({score}): "
            "saved to {path}"
        ).format(score=score, path=escape(path))
    if lost:
        return _("Not kept (lost the check match: {score}); use --force to keep them.").format(
            score=score
        )
    return _("Not kept (did not win the check match: {score}); use --force to keep them.").format(
        score=score
    )
