"""Exact Connect Four solver."""

from zermelo.solvers.connect4.solver import Connect4Result, Connect4Solver, default_solver

__all__ = ["Connect4Result", "Connect4Solver", "default_solver"]
