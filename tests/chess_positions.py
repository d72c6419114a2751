"""The six perft positions of the Chess Programming Wiki with their published leaf counts."""

from __future__ import annotations

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

COUNTS: dict[str, tuple[int, ...]] = {
    # leaves at depth 1, 2, 3, ...
    START: (20, 400, 8_902, 197_281, 4_865_609, 119_060_324),
    KIWIPETE: (48, 2_039, 97_862, 4_085_603, 193_690_690),
    POSITION_3: (14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661),
    POSITION_4: (6, 264, 9_467, 422_333, 15_833_292),
    POSITION_5: (44, 1_486, 62_379, 2_103_487, 89_941_194),
    POSITION_6: (46, 2_079, 89_890, 3_894_594, 164_075_551),
}
NAMES = {
    START: "start",
    KIWIPETE: "kiwipete",
    POSITION_3: "position 3",
    POSITION_4: "position 4",
    POSITION_5: "position 5",
    POSITION_6: "position 6",
}
ISSUE_DEPTHS = {START: 5, KIWIPETE: 4, POSITION_3: 5, POSITION_4: 4, POSITION_5: 4, POSITION_6: 4}
"""The depths the issue asks for."""
