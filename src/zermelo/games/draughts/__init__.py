"""Draughts on bitboards: international draughts (FMJD, 10x10) and Turkish dama (8x8).

:mod:`.rules` holds each game's board and rules as data, :mod:`.kernel` the one move generator
(compiled by numba when it is there) that both games, and their engine, run on.
"""
