"""Bridges to the ecosystem: OpenSpiel games in zermelo, zermelo's games and players in OpenSpiel,
PettingZoo and Gymnasium.

Each bridge needs its library, installed with an extra: ``pip install 'zermelo[openspiel]'`` for
:mod:`zermelo.interop.openspiel` and :mod:`zermelo.interop.spiel_games`, ``pip install
'zermelo[pettingzoo]'`` for :mod:`zermelo.interop.pettingzoo` and :mod:`zermelo.interop.gymnasium`.
Importing this package needs neither; a bridge whose library is missing raises
:class:`MissingExtraError`, one line naming the extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from zermelo.core.errors import ZermeloError

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(ZermeloError):
    """An optional library that a bridge needs is not installed."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` saying which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{what} needs the {extra!r} extra: pip install 'zermelo[{extra}]'"
        ) from None
