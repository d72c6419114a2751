"""Scores in words, in the language chosen with :func:`zermelo.i18n.setup`."""

from __future__ import annotations

from zermelo.core.scores import POINTS, Unit, value_text
from zermelo.i18n import N_
from zermelo.i18n import gettext as _

__all__ = ["REASONS", "score_words"]


def score_words(score: float, *, exact: bool = True, unit: Unit = POINTS) -> str:
    """ "win in 3", "draw", "loss in 2", or a signed estimate in the game's unit such as
    "+1.69 men" (:func:`zermelo.core.scores.value_text`, translated)."""
    words, fields = value_text(score, exact=exact, unit=unit)
    return _(words).format(**fields)


# Why a game ended, for the reasons not marked in zermelo's own games: the generic reason of
# :func:`zermelo.core.state.end_reason`, and the Nim plugin's (examples/), which zermelo's
# catalogs translate. The games' own ``termination()`` ids are marked where they are returned.
REASONS = (
    N_("game over"),
    N_("last stone taken"),
)
