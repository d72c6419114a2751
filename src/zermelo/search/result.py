"""What a search returns: the result types live in :mod:`zermelo.core.result`, below every layer
that returns or shows them; this module keeps the old import path working."""

from __future__ import annotations

from zermelo.core.result import MoveValue, SearchResult, SearchStats, parent_score

__all__ = ["MoveValue", "SearchResult", "SearchStats", "parent_score"]
