"""The capabilities of the m,n,k games and gomoku (:mod:`zermelo.core.capabilities`): the
evaluation f(s) term by term, tuning its weights by self-play, and solving small boards."""

from __future__ import annotations

import math
from typing import Final

from zermelo.core.capabilities import (
    Breakdown,
    Progress,
    StartSolution,
    Term,
    TuneReport,
    TuneRequest,
)
from zermelo.core.record import N_
from zermelo.core.scores import winner_word
from zermelo.games.mnk import MnkState
from zermelo.games.mnk_eval import default_evaluation
from zermelo.games.mnk_eval import explain as explain_state

__all__ = ["EXPLAINER", "SOLVER", "TUNER", "MnkExplainer", "MnkSolver", "MnkTuner"]


class MnkExplainer:
    """The line-pattern evaluation of :mod:`zermelo.games.mnk_eval`, feature by feature."""

    def explain(self, state: MnkState, weights: str | None) -> Breakdown:
        from zermelo.solvers.gomoku.weights import load_evaluation

        evaluation = load_evaluation(weights) if weights else None
        found = explain_state(state, evaluation)
        terms = tuple(Term(row.name, row.description, row.value, row.weight) for row in found.rows)
        return Breakdown(terms, found.total)


class MnkSolver:
    """The value of an m,n,k board for the side to move, read to the end by the m,n,k solver
    (:func:`zermelo.solvers.mnk.solve_position`)."""

    def solve_start(self, state: MnkState) -> StartSolution:
        from zermelo.solvers.mnk import solve_position

        solution = solve_position(state)
        rules = state.rules
        return StartSolution(
            winner_word(solution.value, state.to_move),
            solution.move_text or "-",
            f"{rules.width}x{rules.height}, k={rules.k}",
            solution.stats.nodes,
            solution.stats.table_hits,
            solution.stats.elapsed,
        )


class MnkTuner:
    """Logistic regression of the evaluation's weights on seeded self-play games
    (:mod:`zermelo.solvers.gomoku_tuning`), then a check match against the shipped weights."""

    @property
    def uses(self) -> frozenset[str]:
        return frozenset({"cluster"})

    def tune(self, request: TuneRequest, progress: Progress) -> TuneReport:
        from zermelo.solvers.gomoku_tuning import play_match, tune

        store = None
        if request.resume is not None:
            from pathlib import Path

            from zermelo.parallel import ResultStore

            meta = {"job": "gomoku-self-play", "games": request.games, "seed": request.seed}
            store = ResultStore(Path(request.resume), meta)
        if request.cluster is None:
            report = tune(request.games, seed=request.seed, progress=progress, store=store)
        else:
            from zermelo.parallel import open_executor

            with open_executor(request.cluster) as executor:
                report = tune(
                    request.games,
                    seed=request.seed,
                    progress=progress,
                    executor=executor,
                    store=store,
                )
        match = None
        if request.match_games:
            match = play_match(
                report.evaluation,
                default_evaluation(),
                request.match_games,
                seed=request.seed,
                progress=progress,
            )

        def shown(value: float, text: str) -> str:
            return "-" if math.isnan(value) else text

        rows = (
            (N_("games / positions"), f"{report.games} / {report.positions}"),
            (N_("log loss before"), shown(report.log_loss_before, f"{report.log_loss_before:.4f}")),
            (N_("log loss after"), shown(report.log_loss_after, f"{report.log_loss_after:.4f}")),
            (N_("accuracy after"), shown(report.accuracy_after, f"{report.accuracy_after:.1%}")),
            *((name, f"{weight:g}") for name, weight in report.evaluation.weights.items()),
        )
        from zermelo.solvers.gomoku.weights import evaluation_json

        return TuneReport(
            N_("Tuning by self-play"), rows, evaluation_json(report.evaluation), match
        )


EXPLAINER: Final = MnkExplainer()
SOLVER: Final = MnkSolver()
TUNER: Final = MnkTuner()
