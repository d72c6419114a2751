"""Finding the winning line on a board drawn as rows of cells (the records compute it with
:func:`zermelo.core.record.winning_line` for their :class:`~zermelo.core.record.Grid`)."""

from __future__ import annotations

from zermelo.core.record import winning_line

__all__ = ["winning_line"]
