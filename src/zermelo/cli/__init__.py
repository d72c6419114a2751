"""The ``zermelo`` command: play, analyze, solve, rate and serve games.

One module per command, each with a ``command()`` that builds it with its help texts in the current
language (the language is set from ``--lang`` or the locale before the tree is built). Every mistake
in what a person types ends as one line on stderr that says what was wrong and what was expected,
with a non-zero exit status; never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from zermelo import __version__, i18n
from zermelo.cli import (
    analyze,
    arena,
    clickwords,
    explain,
    games,
    hub,
    learn,
    learn_az,
    perft,
    play,
    replay,
    review,
    serve,
    solve,
    tune,
    uci,
    warmup,
)
from zermelo.cli.common import Group, lang_option
from zermelo.core.errors import ZermeloError
from zermelo.i18n import gettext as _

__all__ = ["build_cli", "main"]

EXIT_USAGE = 2

_COMMANDS = (
    play,
    analyze,
    review,
    explain,
    tune,
    serve,
    solve,
    arena,
    replay,
    perft,
    uci,
    hub,
    learn_az,
    learn,
    warmup,
    games,
)


def build_cli() -> click.Group:
    """The command tree, with help texts in the current language."""
    clickwords.install()

    @click.group(
        cls=Group,
        context_settings={"help_option_names": ["-h", "--help"]},
        help=_("Game search from the minimax tutorial: play, analyze and solve games."),
    )
    @click.version_option(
        version=__version__,
        prog_name="zermelo",
        help=_("Show the version and exit."),
        message=_("%(prog)s, version %(version)s"),
    )
    @lang_option
    def cli() -> None:
        pass

    for module in _COMMANDS:
        cli.add_command(module.command())
    return cli


def _requested_language(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` before ``--`` (click lets a later option win, too)."""
    requested = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            requested = argv[index + 1]
        elif arg.startswith("--lang="):
            requested = arg.split("=", 1)[1]
    return requested


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``zermelo`` command."""
    args = list(sys.argv[1:] if argv is None else argv)
    code, warning = i18n.resolve_language(_requested_language(args), os.environ)
    i18n.setup(code)
    if warning:
        click.echo(warning, err=True)
    cli = build_cli()
    try:
        cli.main(args=args, prog_name="zermelo", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else str(error))
        sys.exit(0)
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "zermelo"
        click.echo(
            _("{command}: error: {message} (see '{command} --help')").format(
                command=command, message=error.format_message()
            ),
            err=True,
        )
        sys.exit(EXIT_USAGE)
    except click.ClickException as error:
        click.echo(_("zermelo: error: {message}").format(message=error.format_message()), err=True)
        sys.exit(error.exit_code)
    except ZermeloError as error:
        click.echo(_("zermelo: error: {message}").format(message=error.render(_)), err=True)
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        click.echo(_("Interrupted; goodbye."), err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo(_("Interrupted; goodbye."), err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (``| head``); nothing more to say.
        sys.stderr.close()
        sys.exit(0)
