#!/usr/bin/env python3
"""A suite of cliffs judged by another engine (not ours), and how many of them a build of
ours avoids: `docs/strength.md`, "Gomoku: cliffs, widths and reductions against Rapfi
(session 21)".

A cliff is the first of our moves in a lost game after which the judging brain sees a forced
win for the opponent (a mate score), from a position it did not already see lost.

    # the suite: every cliff of our lost games in these records, once per position
    python3 docs/rapfi_cliffs.py collect --brain <sparring>/rapfi-fixed/pbrain-rapfi \\
        --theirs pbrain-rapfi --book data/openings/gomoku15-rapfi.txt --out cliffs.tsv \\
        --cache judged.json games1.txt games2.txt ...
    # a build's score: its move in each cliff's position (`boardlab analyze --time`), judged
    python3 docs/rapfi_cliffs.py score --brain <sparring>/rapfi-fixed/pbrain-rapfi \\
        --suite cliffs.tsv --boardlab target/release/boardlab --time 450 --cache judged.json

The suite file has one cliff a line (lines starting with `#` are comments): the moves
before our move, a tab, the move played, a tab, the brain's evaluation before it (our point
of view). The brain is asked as
`docs/rapfi_judge.py` asks it (a fresh process a position, one thread, --max-node nodes);
--cache keeps its answers in a JSON file between runs.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_judge import LOST, book_length, judge, read_book, records  # noqa: E402


class Judge:
    """The brain's evaluation and move per position (our notation), remembered."""

    def __init__(self, brain, max_node, path):
        self.brain, self.max_node, self.path = brain, max_node, path
        self.known = json.load(open(path)) if path and os.path.exists(path) else {}

    def __call__(self, moves):
        key = " ".join(moves)
        if key not in self.known:
            self.known[key] = list(judge(self.brain, list(moves), self.max_node))
            if self.path:
                json.dump(self.known, open(self.path, "w"))
        return self.known[key]


def collect(a, asked):
    book = read_book(a.book)
    seen, cliffs = set(), []
    for path in a.records:
        for header, moves in records(path):
            if "in a row" not in header:
                continue
            us = 1 if a.theirs in header.split("(first)")[0] else 0
            if (len(moves) % 2 == 1) == (us == 0):
                continue  # we won
            start = book_length(book, moves)
            for ply in range(start, len(moves)):
                if ply % 2 != us:
                    continue
                # The opponent's view after our move: a mate for it is a forced loss for us.
                if -asked(moves[:ply + 1])[0] > LOST:
                    continue
                before = asked(moves[:ply])[0]
                key = " ".join(moves[:ply])
                if before > LOST and key not in seen:
                    seen.add(key)
                    cliffs.append(f"{key}\t{moves[ply]}\t{before}")
                break
        print(f"{path}: {len(cliffs)} cliffs so far", flush=True)
    open(a.out, "w").write("".join(c + "\n" for c in cliffs))


def score(a, asked):
    suite = [l.rstrip("\n").split("\t") for l in open(a.suite)
             if l.strip() and not l.startswith("#")]
    avoided = same = 0
    for before, played, _ in suite:
        out = subprocess.run(
            [a.boardlab, "analyze", "gomoku", "--moves", before, "--time", str(a.time)],
            capture_output=True, text=True, check=True).stdout
        ours = re.findall(r"^bestmove (\S+)", out, re.M)[-1]
        if ours == played:
            same += 1
        elif -asked(before.split() + [ours])[0] > LOST:
            avoided += 1
    print(f"{len(suite)} cliffs: avoided {avoided}, the game's move again {same}, "
          f"another move into a forced loss {len(suite) - avoided - same}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("collect", "score"):
        p = sub.add_parser(name)
        p.add_argument("--brain", required=True, help="path of the judging Gomocup brain")
        p.add_argument("--max-node", type=int, default=300000)
        p.add_argument("--cache", help="JSON file of the brain's answers, kept between runs")
    c = sub.choices["collect"]
    c.add_argument("--theirs", required=True, help="part of the opponent's name (the other is ours)")
    c.add_argument("--book", required=True, help="the matches' opening book")
    c.add_argument("--out", required=True, help="the suite file to write")
    c.add_argument("records", nargs="+", help="records files of `boardlab match`")
    s = sub.choices["score"]
    s.add_argument("--suite", required=True)
    s.add_argument("--boardlab", required=True, help="the boardlab binary to score")
    s.add_argument("--time", type=int, default=450, help="milliseconds a position")
    a = ap.parse_args()
    asked = Judge(a.brain, a.max_node, a.cache)
    (collect if a.cmd == "collect" else score)(a, asked)


if __name__ == "__main__":
    main()
