"""The match loop as events, game records and replay, round robins and ratings. No I/O."""

from zermelo.play.match import (
    GameOver,
    GameRecord,
    MovePlayed,
    load_records,
    play_game,
    replay,
    run_game,
    save_records,
    start_state,
)
from zermelo.play.ratings import (
    EloEstimate,
    Tally,
    elo_estimate,
    elo_from_score,
    pair_tallies,
    standings,
)
from zermelo.play.tournament import GameTask, derive_seed, play_task, round_robin, run_tasks

__all__ = [
    "EloEstimate",
    "GameOver",
    "GameRecord",
    "GameTask",
    "MovePlayed",
    "Tally",
    "derive_seed",
    "elo_estimate",
    "elo_from_score",
    "load_records",
    "pair_tallies",
    "play_game",
    "play_task",
    "replay",
    "round_robin",
    "run_game",
    "run_tasks",
    "save_records",
    "standings",
    "start_state",
]
