"""The optional numba dependency, behind a shim.

``jit(function)`` compiles ``function`` with ``numba.njit(cache=True)`` when numba is installed
(``pip install 'zermelo[fast]'``) and returns it unchanged otherwise, so the kernel's source runs as
plain Python too, only slower. Setting the environment variable ``ZERMELO_NO_NUMBA=1`` forces the
plain path even where numba is installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["NUMBA_AVAILABLE", "numba_disabled", "numba_version"]

F = TypeVar("F", bound=Callable[..., Any])


def numba_disabled() -> bool:
    """True when ``ZERMELO_NO_NUMBA`` asks for the plain-Python path."""
    return os.environ.get("ZERMELO_NO_NUMBA", "").strip().lower() not in ("", "0", "false", "no")


_numba: Any
try:  # pragma: no cover - depends on the environment
    import numba as _numba

    NUMBA_AVAILABLE = True
except ImportError:  # pragma: no cover - depends on the environment
    _numba = None
    NUMBA_AVAILABLE = False


def numba_version() -> str | None:
    """The installed numba version, or ``None``."""
    return None if _numba is None else str(_numba.__version__)


def make_jit(enabled: bool) -> Callable[..., Callable[[F], F]]:
    """A decorator factory: ``jit(signature=None)`` is ``numba.njit(signature, cache=True)`` when
    ``enabled`` and numba is present, else the identity.

    Recursive functions get an explicit signature: numba then compiles them eagerly and can load
    them back from its cache, which it does not for recursion it has to infer."""
    if enabled and _numba is not None:
        numba = _numba

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
