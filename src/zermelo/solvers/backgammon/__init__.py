"""Backgammon's engine: TD-Gammon's network (:mod:`.net`) trained by TD(λ) self-play
(:mod:`.train`, on the compiled core :mod:`.fast`), 1-ply and 2-ply search over the dice with a
money-play cube rule (:mod:`.search`), and each move's equity for ``zermelo analyze``
(:mod:`.analysis`)."""
