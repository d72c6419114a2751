"""A deadline and a memory ceiling for the work of one thread, checked deep below a search.

A search checks its own clock between nodes, but the tables it builds on the way (the line classes
of an m,n,k board, an evaluation's pattern counts) are built by code that knows nothing of the
search's budget. :func:`limited` sets the budget for the calling thread (a context variable, so
threads and tasks do not share it) and :func:`check` raises when it is spent; the table builders
call :func:`check` every few hundred steps. Outside :func:`limited`, :func:`check` costs one clock
read and never raises.

:class:`Limits` is the one budget type every face hands to every search: the whole answer's time,
a node count, a depth, a mate distance and an absolute deadline, as python-chess's ``Limit``.

The memory ceiling is the resident set size of the whole process, read from ``/proc/self/statm``
where there is one (Linux), else the peak size from :mod:`resource`.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Final

from zermelo.core.errors import N_, BudgetError

__all__ = ["Limits", "MemoryExceeded", "TimeUp", "check", "limited", "resident_bytes"]


class TimeUp(BudgetError):
    """The deadline of :func:`limited` passed while work was still being done."""


class MemoryExceeded(BudgetError):
    """The process grew past the memory ceiling of :func:`limited`."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The budget of one answer, passed unchanged in meaning from a face to the search.

    ``time`` is the whole answer's budget in seconds (every move of an analysis shares it);
    ``nodes`` caps the nodes searched, ``depth`` the plies, ``mate`` stops at a mate in that many
    moves; ``deadline`` is an absolute ``time.perf_counter()`` instant, set by :meth:`started`
    where the work begins, so that layers below share one clock. A limit left ``None`` does not
    bound the search. Bad values raise :class:`BudgetError` quoting them.
    """

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    mate: int | None = None
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not (math.isfinite(self.time) and self.time >= 0):
            raise BudgetError(
                N_("time {time!r}: expected a number of seconds, 0 or more"), time=self.time
            )
        for name in ("nodes", "depth", "mate"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise BudgetError(
                    N_("{name} {value!r}: expected a whole number"), name=name, value=value
                )
            if value is not None and value < (0 if name == "depth" else 1):
                raise BudgetError(
                    N_("{name} {value!r}: expected a positive whole number"), name=name, value=value
                )
        if self.deadline is not None and math.isnan(self.deadline):
            raise BudgetError("deadline: expected a number, got nan")

    @property
    def bounded(self) -> bool:
        """True when some limit ends the search before it reads the game to its end."""
        return any(v is not None for v in (self.time, self.nodes, self.depth, self.deadline))

    def started(self, now: float | None = None) -> Limits:
        """These limits with ``deadline`` fixed from ``time`` at ``now`` (default: the clock
        now); limits that already have a deadline keep the earlier of the two."""
        if self.time is None:
            return self
        start = time.perf_counter() if now is None else now
        end = start + self.time
        return replace(self, deadline=end if self.deadline is None else min(end, self.deadline))

    def remaining(self, now: float | None = None) -> float | None:
        """Seconds left before the deadline (never below 0), or ``None`` without one."""
        if self.deadline is None:
            return self.time
        left = self.deadline - (time.perf_counter() if now is None else now)
        return max(0.0, left)


_DEADLINE: ContextVar[float] = ContextVar("zermelo_deadline", default=math.inf)
_MEMORY: ContextVar[int | None] = ContextVar("zermelo_memory", default=None)
_PAGE: Final = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """The resident set size of this process in bytes (the peak where the current one is not
    available)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@contextlib.contextmanager
def limited(deadline: float | None = None, memory: int | None = None) -> Iterator[None]:
    """Within the block, :func:`check` raises once ``time.perf_counter()`` passes ``deadline`` or
    the process holds more than ``memory`` bytes. Nested blocks keep the tighter limits."""
    if deadline is not None and math.isnan(deadline):
        raise BudgetError("deadline: expected a number, got nan")
    if memory is not None and memory < 1:
        raise BudgetError(f"memory ceiling: expected a positive number of bytes, got {memory}")
    outer_memory = _MEMORY.get()
    new_memory = memory if outer_memory is None else min(outer_memory, memory or outer_memory)
    time_token = _DEADLINE.set(min(_DEADLINE.get(), math.inf if deadline is None else deadline))
    memory_token = _MEMORY.set(new_memory)
    try:
        yield
    finally:
        _MEMORY.reset(memory_token)
        _DEADLINE.reset(time_token)


def check() -> None:
    """Raise :class:`TimeUp` or :class:`MemoryExceeded` when the budget of the enclosing
    :func:`limited` is spent."""
    deadline = _DEADLINE.get()
    if deadline < math.inf and time.perf_counter() >= deadline:
        raise TimeUp(N_("the time budget ran out while building the search's tables"))
    ceiling = _MEMORY.get()
    if ceiling is not None:
        used = resident_bytes()
        if used > ceiling:
            raise MemoryExceeded(
                N_(
                    "the search needed more than {ceiling} MB ({used} MB in use); try a smaller "
                    "board or budget"
                ),
                ceiling=ceiling // 2**20,
                used=used // 2**20,
            )
