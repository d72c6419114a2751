"""Scores in words, in the language chosen with :func:`zermelo.i18n.setup`."""

from __future__ import annotations

from zermelo.core.scores import outcome_of
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = ["REASONS", "score_words"]


def score_words(score: float, *, exact: bool = True) -> str:
    """ "win in 3", "draw", "loss in 2", or a signed estimate such as "+12.00"."""
    outcome = outcome_of(score, exact=exact)
    if outcome.kind == "win":
        return _("win in {n}").format(n=outcome.moves) if outcome.moves else _("won")
    if outcome.kind == "loss":
        return _("loss in {n}").format(n=outcome.moves) if outcome.moves else _("lost")
    if outcome.kind == "draw":
        return _("draw")
    return f"{outcome.estimate:+.2f}"


# Why a game ended, as the games' ``termination()`` names it; shown translated.
REASONS = (
    N_("checkmate"),
    N_("stalemate"),
    N_("insufficient material"),
    N_("fifty moves"),
    N_("repetition"),
)
