"""Evaluation weights as files: what ``zermelo tune`` writes and ``--weights FILE`` reads.

The weights themselves, and their JSON text, are :class:`zermelo.games.mnk_eval.Evaluation`'s;
this module only moves that text to and from disk, so that the rules in ``games/`` read no file.
"""

from __future__ import annotations

from pathlib import Path

from zermelo.games.mnk_eval import FEATURE_NAMES, Evaluation
from zermelo.solvers._weights import read_named_weights, weights_text

__all__ = ["GAME", "evaluation_json", "load_evaluation", "save_evaluation"]


GAME = "gomoku"
"""The game the files name; m,n,k boards share gomoku's features, so either name is read."""


def load_evaluation(path: str | Path) -> Evaluation:
    """Weights from a JSON file written by :func:`save_evaluation` (or ``zermelo tune gomoku``);
    a file for another game, or not a weights file, is one :class:`ParseError` line."""
    weights, name = read_named_weights(str(path), GAME, FEATURE_NAMES, accepted=("mnk",))
    return Evaluation(weights, name)


def evaluation_json(evaluation: Evaluation) -> str:
    """The file :func:`load_evaluation` reads: the game, the format and each feature's weight."""
    return weights_text(GAME, evaluation.weights, evaluation.name)


def save_evaluation(evaluation: Evaluation, path: str | Path) -> None:
    """Write ``evaluation``'s weights as JSON (:func:`evaluation_json`)."""
    Path(path).write_text(evaluation_json(evaluation), encoding="utf-8")
