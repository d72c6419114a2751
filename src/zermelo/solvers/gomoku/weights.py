"""Evaluation weights as files: what ``zermelo tune`` writes and ``--weights FILE`` reads.

The weights themselves, and their JSON text, are :class:`zermelo.games.mnk_eval.Evaluation`'s;
this module only moves that text to and from disk, so that the rules in ``games/`` read no file.
"""

from __future__ import annotations

from pathlib import Path

from zermelo.core.errors import ParseError
from zermelo.games.mnk_eval import Evaluation

__all__ = ["load_evaluation", "save_evaluation"]


def load_evaluation(path: str | Path) -> Evaluation:
    """Weights from a JSON file written by :func:`save_evaluation`."""
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise ParseError(f"cannot read weights file {str(path)!r}: {error.strerror}") from error
    return Evaluation.from_json(text)


def save_evaluation(evaluation: Evaluation, path: str | Path) -> None:
    """Write ``evaluation``'s weights as JSON (:meth:`Evaluation.to_json`)."""
    Path(path).write_text(evaluation.to_json(), encoding="utf-8")
