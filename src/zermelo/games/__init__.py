"""Game rules, one module per game, and the registry of every game. Nothing here prints or reads
input."""

from zermelo.core.record import GameSpec
from zermelo.games.registry import all_games, game_names, get_game

__all__ = ["GameSpec", "all_games", "game_names", "get_game"]
