#!/usr/bin/env python3
"""Reads Triskel's PGN of classical chess with python-chess and checks it:
every game parses without errors, every move is legal, the tags are
there, PlyCount and Result agree with the moves, and python-chess writes
the same SAN.

    pip install chess
    TRISKEL_PGN_SAMPLE=/tmp/sample.pgn cargo test --release --test pgn
    python3 scripts/pgn-check.py /tmp/sample.pgn

Prints one line per game and a summary; exits non-zero on a problem.
"""

import io
import re
import sys

import chess
import chess.pgn

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def check(game: chess.pgn.Game, raw: str) -> list:
    """The problems of one game read by python-chess."""
    problems = [f"python-chess: {e}" for e in game.errors]
    tags = list(game.headers.keys())
    if tags[: len(ROSTER)] != ROSTER:
        problems.append(f"roster {tags[:len(ROSTER)]}")
    board = game.board()
    sans = []
    for node in game.mainline():
        if node.move not in board.legal_moves:
            problems.append(f"illegal move {node.move} in {board.fen()}")
            break
        sans.append(board.san(node.move))
        board.push(node.move)
    plies = int(game.headers.get("PlyCount", "-1"))
    if plies != len(sans):
        problems.append(f"PlyCount {plies}, {len(sans)} moves")
    outcome = board.outcome()
    result = game.headers["Result"]
    if outcome is not None and outcome.termination == chess.Termination.CHECKMATE:
        if outcome.result() != result:
            problems.append(f"checkmate gives {outcome.result()}, Result {result}")
    movetext = re.sub(r"\{[^}]*\}", " ", raw.split("\n\n", 1)[-1])
    written = [w for w in movetext.split() if not re.fullmatch(r"\d+\.+", w)][:-1]
    if written != sans:
        first = next(i for i, (a, b) in enumerate(zip(written + [""], sans + [""])) if a != b)
        problems.append(f"SAN of ply {first + 1}: written {written[first:first + 1]}, "
                        f"python-chess {sans[first:first + 1]}")
    return problems


def main() -> None:
    text = open(sys.argv[1], encoding="utf-8").read()
    raws = re.split(r"\n\n(?=\[)", text.strip())
    stream = io.StringIO(text)
    games = 0
    failed = 0
    moves = 0
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        raw = raws[games] if games < len(raws) else ""
        games += 1
        problems = check(game, raw)
        moves += sum(1 for _ in game.mainline())
        status = "ok" if not problems else "; ".join(problems)
        print(f"game {games}: {game.headers['Result']} "
              f"{game.headers.get('Termination', '?')}, "
              f"{sum(1 for _ in game.mainline())} plies: {status}")
        failed += bool(problems)
    print(f"{games} games, {moves} moves, {failed} with problems")
    sys.exit(1 if failed or games == 0 else 0)


if __name__ == "__main__":
    main()
