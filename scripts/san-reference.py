#!/usr/bin/env python3
"""Reference data for Triskel's SAN: random games of classical chess played
by python-chess, one line per recorded move: FEN, UCI move and python-chess's
SAN, tab-separated.

    pip install chess
    python3 scripts/san-reference.py > tests/data/san.txt

The games are seeded, so the output is the same on every run of one
python-chess version. Moves whose SAN needs more than the piece letter and
the target (disambiguation, captures, promotions, castling, en passant,
checks, mates) are all kept; of the other moves only every fifth. Every
legal move of each starting position is written too.
"""

import random
import sys

import chess

SEED = 20240611
GAMES_PER_POSITION = 30
MAX_PLIES = 160
PLAIN_MOVE_SAMPLE = 5
MAX_LINES_PER_GAME = 12

POSITIONS = [
    # The start position.
    chess.STARTING_FEN,
    # Kiwipete: castling both ways, pins, en passant.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Promotions and under-promotions of both sides, with captures.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    # En passant and checks in a rook ending.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    # Four queens and four knights: disambiguation by file, rank and both.
    "k7/8/8/2Q1Q3/8/2Q1Q3/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/1N3N2/N3K2N w - - 0 1",
    "1r2k2r/8/8/R6R/8/8/8/R3K3 b - - 0 1",
    # En passant: by either of two pawns, and while other moves are open.
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 3",
]


def interesting(board: chess.Board, move: chess.Move, san: str) -> bool:
    """Whether the SAN of `move` is more than a piece letter and a cell."""
    plain = san.lstrip("NBRQK")
    return len(plain) != 2 or board.is_castling(move) or board.is_en_passant(move)


def main() -> None:
    rng = random.Random(SEED)
    out = sys.stdout
    for fen in POSITIONS:
        board = chess.Board(fen)
        for move in board.legal_moves:
            out.write(f"{board.fen()}\t{move.uci()}\t{board.san(move)}\n")
        for _ in range(GAMES_PER_POSITION):
            board = chess.Board(fen)
            lines = 0
            for _ in range(MAX_PLIES):
                if board.is_game_over() or lines >= MAX_LINES_PER_GAME:
                    break
                move = rng.choice(list(board.legal_moves))
                san = board.san(move)
                if interesting(board, move, san) or rng.randrange(PLAIN_MOVE_SAMPLE) == 0:
                    out.write(f"{board.fen()}\t{move.uci()}\t{san}\n")
                    lines += 1
                board.push(move)


if __name__ == "__main__":
    main()
