"""Balanced chess openings for matches: each is played once with each colour.

Main lines of common openings, a few moves deep, that theory rates as roughly equal, so that a
match between two engines does not replay one game and does not start from a lost position. Each
entry is a name and the moves in SAN from the initial position.
"""

from __future__ import annotations

from typing import Final

import chess

__all__ = ["OPENINGS", "opening_board"]

OPENINGS: Final[tuple[tuple[str, str], ...]] = (
    ("Ruy Lopez, Morphy Defence", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"),
    ("Ruy Lopez, Berlin Defence", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4"),
    ("Italian Game, Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6"),
    ("Two Knights Defence", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7"),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6"),
    ("Four Knights Game", "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4"),
    ("Petrov Defence", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    ("Vienna Game", "e4 e5 Nc3 Nf6 Bc4 Nc6 d3 Bc5"),
    ("King's Gambit Declined", "e4 e5 f4 Bc5 Nf3 d6 c3 Nf6"),
    ("Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("Sicilian, Classical", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 Nc6"),
    ("Sicilian, Scheveningen", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 d6"),
    ("Sicilian, Taimanov", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7"),
    ("Sicilian, Sveshnikov", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5"),
    ("Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4"),
    ("Sicilian, Closed", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5"),
    ("French, Classical", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7"),
    ("French, Tarrasch", "e4 e6 d4 d5 Nd2 c5 exd5 exd5"),
    ("French, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"),
    ("Caro-Kann, Classical", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5"),
    ("Caro-Kann, Advance", "e4 c6 d4 d5 e5 Bf5 Nf3 e6"),
    ("Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7"),
    ("Scandinavian Defence", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6"),
    ("Alekhine Defence", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7"),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6"),
    ("Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4"),
    ("Semi-Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6"),
    ("Tarrasch Defence", "d4 d5 c4 e6 Nc3 c5 cxd5 exd5"),
    ("Nimzo-Indian, Rubinstein", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O"),
    ("Nimzo-Indian, Classical", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O"),
    ("Queen's Indian Defence", "d4 Nf6 c4 e6 Nf3 b6 g3 Bb7"),
    ("Bogo-Indian Defence", "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7"),
    ("Catalan Opening", "d4 Nf6 c4 e6 g3 d5 Bg2 Be7"),
    ("King's Indian, Classical", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O"),
    ("Grünfeld Defence", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5"),
    ("Benoni Defence", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5"),
    ("Dutch, Stonewall", "d4 f5 g3 Nf6 Bg2 e6 Nf3 d5"),
    ("London System", "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6"),
    ("Trompowsky Attack", "d4 Nf6 Bg5 e6 e4 h6 Bxf6 Qxf6"),
    ("English, Symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("English, Reversed Sicilian", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5"),
    ("English, Anglo-Indian", "c4 Nf6 Nc3 e6 Nf3 d5 d4 Be7"),
    ("Réti Opening", "Nf3 d5 c4 e6 g3 Nf6 Bg2 Be7"),
    ("King's Indian Attack", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4"),
    ("Bird Opening", "f4 d5 Nf3 Nf6 e3 g6 b3 Bg7"),
    ("Larsen Opening", "b3 e5 Bb2 Nc6 e3 Nf6 Bb5 d6"),
    ("Philidor Defence", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"),
    ("Modern Defence", "e4 g6 d4 Bg7 Nc3 d6 Be3 a6"),
)
"""(name, moves in SAN): 50 openings."""


def opening_board(moves: str) -> chess.Board:
    """The board after an opening's moves (SAN, separated by spaces)."""
    board = chess.Board()
    for san in moves.split():
        board.push_san(san)
    return board
