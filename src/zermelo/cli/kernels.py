"""The faces' side of the compiled kernels' first run (:mod:`zermelo.solvers.kernels`).

A command about to use a kernel that numba has not compiled yet says so in one line, and then
either compiles it in the foreground with a progress bar per kernel (:func:`compile_first`: perft,
analyze, explain, solve, the arena, ``warm-up``), or lets a child process compile it while the
plain-Python copy plays (:func:`compile_in_background`: play, serve, uci). Everything is written to
the stream the caller names, so that UCI's standard output stays pure protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from zermelo.i18n import gettext as _
from zermelo.solvers.kernels import (
    KERNELS,
    KernelEvent,
    build,
    build_in_background,
    is_built,
    kernels_for,
)

__all__ = ["compile_first", "compile_in_background", "event_line", "kernel_title"]


def kernel_title(name: str) -> str:
    """The kernel's name for people."""
    return _(KERNELS[name].title) if name in KERNELS else name


def event_line(event: KernelEvent) -> str | None:
    """The line a background build's event is shown as (``None``: nothing to say)."""
    kernel = kernel_title(event.kernel)
    if event.kind == "background":
        return _(
            "First run: compiling {kernel} in the background (once; it can take a minute). "
            "Meanwhile the AI plays with the slower Python copy."
        ).format(kernel=kernel)
    if event.kind == "ready":
        return _("Compiled {kernel}: the AI now plays at full speed.").format(kernel=kernel)
    if event.kind == "failed":
        return _(
            "Could not compile {kernel} ({detail}); the AI goes on with the Python copy."
        ).format(kernel=kernel, detail=event.detail or "?")
    return None


def compile_in_background(
    game: str, echo: Callable[[str], None], *, ready: bool = False
) -> tuple[str, ...]:
    """Start compiling game ``game``'s cold kernels in a child process, announcing it through
    ``echo``; with ``ready``, the end is announced too (from another thread). Returns the kernels
    started."""

    def listen(event: KernelEvent) -> None:
        if event.kind != "ready" or ready:
            line = event_line(event)
            if line is not None:
                echo(line)

    return build_in_background(kernels_for(game), listen)


def compile_first(names: Sequence[str], out: Console, *, announce: bool = True) -> int:
    """Compile the cold kernels of ``names`` now, with a progress bar per kernel on ``out``
    (after a one-line announcement). Returns how many were compiled."""
    cold = [name for name in names if not is_built(name)]
    if not cold:
        return 0
    if announce:
        out.print(
            _("First run: compiling {kernels} (once; it can take a minute)...").format(
                kernels=", ".join(kernel_title(name) for name in cold)
            )
        )
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=out) as progress:
        tasks: dict[str, TaskID] = {}

        def listen(event: KernelEvent) -> None:
            if event.kernel not in tasks:
                tasks[event.kernel] = progress.add_task(
                    kernel_title(event.kernel), total=event.total
                )
            progress.update(tasks[event.kernel], completed=event.done, total=event.total)

        build(cold, listen)
    return len(cold)


def compile_for_game(game: str, out: Console | None = None) -> int:
    """:func:`compile_first` for the kernels game ``game`` uses, on ``out`` (default: stderr)."""
    if out is None:
        out = Console(stderr=True, highlight=False, soft_wrap=True)
    return compile_first(kernels_for(game), out)
