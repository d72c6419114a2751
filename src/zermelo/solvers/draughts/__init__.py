"""Solvers of the draughts games (international draughts and Turkish dama)."""
