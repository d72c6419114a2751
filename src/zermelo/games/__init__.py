"""Game rules, one module per game. Nothing here prints or reads input."""

from zermelo.games.registry import GameSpec, game_names, get_game

__all__ = ["GameSpec", "game_names", "get_game"]
