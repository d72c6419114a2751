"""Backgammon: the rules (:mod:`.state`), on the move generator of :mod:`.kernel`."""
