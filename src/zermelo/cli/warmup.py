"""``zermelo warm-up``: compile the kernels ahead of time, for a fresh install or an image."""

from __future__ import annotations

import time

import click
from rich.console import Console

from zermelo.cli.common import Command, console, lang_option
from zermelo.i18n import gettext as _


def command() -> click.Command:
    """The ``warm-up`` command, with its help in the current language."""

    @click.command(
        "warm-up",
        cls=Command,
        help=_(
            "Compile the numba kernels now (numba keeps them in its cache, NUMBA_CACHE_DIR if "
            "set), so that no later command waits for it: the KERNELs named (chess, connect4), "
            "by default the ones play uses, with --all every kernel of every game. Does nothing when they are compiled already; "
            "for a Docker image: RUN zermelo warm-up --all."
        ),
        short_help=_("Compile the kernels ahead of time."),
    )
    @click.argument("kernels", nargs=-1, metavar="[KERNEL]...")
    @click.option(
        "--all", "every", is_flag=True, help=_("Every kernel of every game, not only play's.")
    )
    @lang_option
    def warm_up(kernels: tuple[str, ...], every: bool) -> None:
        from zermelo.cli.kernels import compile_first, kernel_title
        from zermelo.solvers.kernels import KERNELS, PLAY_KERNELS, available, is_built

        unknown = [name for name in kernels if name not in KERNELS]
        if unknown:
            raise click.UsageError(
                _("unknown kernel {name}: expected {names}").format(
                    name=repr(unknown[0]), names=", ".join(KERNELS)
                )
            )
        out = console()
        if not available():
            out.print(_("Nothing to compile: numba is not installed, or ZERMELO_NO_NUMBA is set."))
            return
        names = list(KERNELS) if every else list(kernels or PLAY_KERNELS)
        for name in names:
            if is_built(name):
                out.print(_("Already compiled: {kernel}.").format(kernel=kernel_title(name)))
        started = time.perf_counter()
        count = compile_first(names, out, announce=False)
        if count:
            out.print(
                _("Compiled {count} kernel(s) in {seconds:.1f} s.").format(
                    count=count, seconds=time.perf_counter() - started
                )
            )
        if every:
            _build_ahead_of_time(out)

    return warm_up


def _build_ahead_of_time(out: Console) -> None:
    """Connect Four's ahead-of-time extension (:mod:`zermelo.solvers.connect4.aot`), which later
    processes load without numba; needs a C compiler. A failure is reported, not fatal: numba's
    kernel serves then."""
    from zermelo.solvers.connect4 import aot, kernel

    if aot.aot_disabled() or kernel.AHEAD_OF_TIME or aot.module_path().exists():
        return
    with out.status(_("Building the Connect Four extension (ahead of time)...")):
        try:
            aot.build(kernel)
        except Exception as error:
            out.print(
                _(
                    "Could not build the Connect Four extension ({detail}); numba's kernel serves."
                ).format(detail=str(error).splitlines()[0] if str(error) else type(error).__name__)
            )
            return
    out.print(_("Built the Connect Four extension."))
