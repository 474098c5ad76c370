#!/usr/bin/env python3
"""Judge every position of one side's lost gomoku games with another engine (not ours)
through its Gomocup (Piskvork) interface: `docs/strength.md`, "Gomoku: where our moves lose,
judged by Rapfi (session 14)".

Reads a records file of `boardlab match --records` (15x15 freestyle), keeps the games the
player whose name contains OURS lost on the board, and asks a fresh brain process (one
thread, --max-node nodes, as `docs/rapfi_book.py` does) for its evaluation (`MESSAGE ...
Eval E`, Rapfi's format; `+M n` / `-M n` mate scores become +/-(20000 - n)) and its move in
every position from the end of the opening book on. Prints, per game, the evaluation from
OUR point of view before each ply (our plies starred, with `(played/brain's move)` where they
differ), then a summary: where the brain first sees a forced loss for us, and whether that
came right after one of our moves from a position it judged better than --cliff. Writes the
positions and evaluations as JSON with --json.

    python3 docs/rapfi_judge.py --brain /path/to/pbrain-rapfi --records games.txt \
        --ours pbrain-boardlab --book data/openings/gomoku15-rapfi.txt --max-node 150000 --games 30
"""

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_book import SIZE, search  # noqa: E402  (the same way of asking the brain)

# Our view at or under this: the brain sees a forced loss (a mate is +/-(20000 - plies)).
LOST = -15000


def xy(name):
    """Piskvork's X,Y of our notation (column a + X, rank SIZE - Y)."""
    return ord(name[0]) - ord("a"), SIZE - int(name[1:])


def name(x, y):
    return f"{chr(ord('a') + x)}{SIZE - y}"


def judge(brain, moves, max_node):
    """The brain's evaluation (side to move's view) and move after `moves` (our notation)."""
    value, (x, y) = search(brain, [xy(m) for m in moves], max_node, 10000)
    return value, name(x, y)


def read_book(path):
    """The openings of a book file (`data/openings/*.txt`), each a list of moves."""
    return [l.split("#")[0].split() for l in open(path) if l.strip() and not l.startswith("#")]


def book_length(book, moves):
    """How many of a game's first moves are its opening from `book` (0 for none)."""
    return max((len(b) for b in book if moves[:len(b)] == b), default=0)


def records(path):
    """(header, moves) of each game of a records file."""
    header, moves = None, None
    for line in list(open(path)) + [""]:
        line = line.strip()
        if line.startswith("# game"):
            header, moves = line, []
        elif moves is not None and line and not line.startswith(("boardlab-save", "game ")):
            moves.append(line)
        elif not line and moves:
            yield header, moves
            header, moves = None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brain", required=True, help="path of the judging Gomocup brain")
    ap.add_argument("--records", required=True, help="records file of `boardlab match`")
    ap.add_argument("--ours", required=True, help="part of our player's name")
    ap.add_argument("--book", required=True, help="the match's opening book")
    ap.add_argument("--max-node", type=int, default=150000)
    ap.add_argument("--games", type=int, default=30, help="lost games to judge")
    ap.add_argument("--cliff", type=int, default=-300, help="a cliff starts above this")
    ap.add_argument("--json", help="write the judged positions here")
    a = ap.parse_args()
    book = read_book(a.book)
    judged, summary = [], []
    for header, moves in records(a.records):
        if len(judged) >= a.games or "in a row" not in header:
            continue
        us = 0 if a.ours in header.split("(first)")[0] else 1
        if (len(moves) % 2 == 1) == (us == 0):
            continue  # we won
        start = book_length(book, moves)
        evals = []
        for ply in range(start, len(moves)):
            value, best = judge(a.brain, moves[:ply], a.max_node)
            if value is not None:
                evals.append((ply, value if ply % 2 == us else -value, best, moves[ply]))
        judged.append({"game": header, "moves": moves, "us": us, "evals": evals})
        by_ply = {e[0]: e[1] for e in evals}
        lost = next((p for p, v, _, _ in evals if v <= LOST), None)
        after_ours = lost is not None and (lost - 1) % 2 == us
        cliff = after_ours and by_ply.get(lost - 1, LOST) > a.cliff
        summary.append((lost, after_ours, cliff))
        print(header.split(":")[0], "we were", "first" if us == 0 else "second",
              f"plies {len(moves)}, book {start}", flush=True)
        print("  " + " ".join(
            f"{p}{'*' if p % 2 == us else ''}:{v}"
            + (f"({m}/{b})" if p % 2 == us and b != m else "") for p, v, b, m in evals), flush=True)
    seen = [s[0] for s in summary if s[0] is not None]
    print(f"{len(summary)} lost games; forced loss seen at a median ply "
          f"{statistics.median(seen) if seen else '-'}; right after our move in "
          f"{sum(s[1] for s in summary)}, from better than {a.cliff} in {sum(s[2] for s in summary)}")
    if a.json:
        json.dump(judged, open(a.json, "w"))


if __name__ == "__main__":
    main()
