"""What the engine protocols (UCI for chess, Hub for draughts) share: standard input read as
lines of bounded length, standard output written one flushed line at a time."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Protocol, TextIO

__all__ = ["MAX_LINE", "LineSession", "serve_lines"]

MAX_LINE = 1 << 20
"""The longest line read; a longer one is skipped (read through to its end) and reported."""


class LineSession(Protocol):
    """A protocol session: ``handle(line)`` answers one line and says whether to go on;
    ``close()`` ends any search it runs."""

    def handle(self, line: str) -> bool: ...

    def close(self) -> None: ...


def _lenient(stream: TextIO, errors: str) -> None:
    """Let ``stream`` take bytes (or characters) its encoding cannot: ``errors`` handles them."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors=errors)


def serve_lines(
    input_stream: TextIO,
    output_stream: TextIO,
    start: Callable[[Callable[[str], None]], LineSession],
    too_long: Callable[[LineSession, str], None],
) -> int:
    """Run the session ``start(write)`` makes on ``input_stream`` until it says stop or the input
    ends (Ctrl-C too), then close it; return the exit status (0). ``too_long(session, note)``
    reports a line longer than :data:`MAX_LINE` in the protocol's own way."""
    _lenient(input_stream, "replace")
    _lenient(output_stream, "backslashreplace")

    def write(line: str) -> None:
        output_stream.write(line + "\n")
        output_stream.flush()

    session = start(write)
    try:
        while True:
            line = input_stream.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                while line and not line.endswith("\n"):
                    line = input_stream.readline(MAX_LINE)
                too_long(session, f"a line longer than {MAX_LINE} characters: ignored")
                continue
            if not session.handle(line):
                break
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
    return 0
