"""numba behind a shim, imported only when a kernel is compiled with it.

``make_jit(True)`` gives a decorator factory: ``jit(signature=None)`` compiles a function with
``numba.njit(cache=True)``; ``make_jit(False)`` returns the function unchanged, so the kernel's
source runs as plain Python too, only slower. Setting the environment variable
``ZERMELO_NO_NUMBA=1`` forces the plain path even where numba is installed. numba itself is imported
on the first ``make_jit(True)``: importing it costs about 0.3 s, which a process that loads the
ahead-of-time Connect Four kernel (:mod:`zermelo.solvers.connect4.aot`) never pays.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["NUMBA_AVAILABLE", "numba_available", "numba_disabled", "numba_version"]

F = TypeVar("F", bound=Callable[..., Any])


def numba_disabled() -> bool:
    """True when ``ZERMELO_NO_NUMBA`` asks for the plain-Python path."""
    return os.environ.get("ZERMELO_NO_NUMBA", "").strip().lower() not in ("", "0", "false", "no")


def numba_available() -> bool:
    """Whether numba is installed (found without importing it)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # pragma: no cover - a broken installation
        return False


def numba_version() -> str | None:
    """The installed numba version, or ``None`` (read from its metadata, not by importing it)."""
    from importlib import metadata

    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def make_jit(enabled: bool) -> Callable[..., Callable[[F], F]]:
    """A decorator factory: ``jit(signature=None)`` is ``numba.njit(signature, cache=True)`` when
    ``enabled``, else the identity.

    Recursive functions get an explicit signature: numba then compiles them eagerly and can load
    them back from its cache, which it does not for recursion it has to infer."""
    if enabled:
        import numba

        def jit(signature: str | None = None) -> Callable[[F], F]:
            def decorate(function: F) -> F:
                if signature is None:
                    return cast(F, numba.njit(cache=True, nogil=True)(function))
                return cast(F, numba.njit(signature, cache=True, nogil=True)(function))

            return decorate

        return jit

    def identity_factory(signature: str | None = None) -> Callable[[F], F]:
        def identity(function: F) -> F:
            return function

        return identity

    return identity_factory


NUMBA_AVAILABLE: bool = numba_available()
"""Whether numba is installed (found without importing it)."""
