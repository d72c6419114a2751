"""JSON read from files and requests, with limits: never a ``RecursionError`` or an overflow.

Python's ``json`` module accepts nesting until the interpreter's recursion limit breaks, integers
of thousands of digits, and ``NaN`` and ``Infinity``. Data that comes from outside (saved games,
weights files, request bodies) goes through :func:`load_json` instead, which refuses all three with
a :class:`~zermelo.core.errors.ParseError` naming what was wrong.
"""

from __future__ import annotations

import json
import math
from typing import NoReturn, TypeAlias

from zermelo.core.errors import N_, ParseError

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "Json", "load_json"]

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A JSON value as :func:`load_json` reads it; callers narrow it with ``isinstance``."""

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted."""

MAX_DIGITS = 40
"""The longest run of digits accepted in one number."""


def _number(text: str) -> float | int:
    if len(text) > MAX_DIGITS:
        raise ParseError(f"number {text[:20]}... has more than {MAX_DIGITS} digits")
    value: float | int = float(text) if any(c in text for c in ".eE") else int(text)
    if isinstance(value, float) and not math.isfinite(value):
        raise ParseError(f"number {text} is out of range")
    return value


def _constant(name: str) -> NoReturn:
    raise ParseError(f"{name} is not a number: expected a finite number")


def _depth_within(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest at most ``limit`` deep (a scan, no recursion)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


def load_json(text: str | bytes, what: str | ParseError) -> Json:
    """The value of ``text``; :class:`ParseError` (``what`` names it) for anything refused."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ParseError(
                f"invalid {what}: byte 0x{text[error.start]:02x} at offset {error.start} is not "
                "UTF-8; expected UTF-8 JSON"
            ) from None
    if not _depth_within(text, MAX_DEPTH):
        raise ParseError(f"invalid {what}: nested more than {MAX_DEPTH} deep")
    try:
        value: Json = json.loads(
            text, parse_int=_number, parse_float=_number, parse_constant=_constant
        )
        return value
    except json.JSONDecodeError as error:
        raise ParseError(
            N_("invalid {what}: not JSON ({problem} at offset {offset})"),
            what=what,
            problem=error.msg,
            offset=error.pos,
        ) from None
    except ParseError as error:
        raise ParseError(f"invalid {what}: {error}") from None
