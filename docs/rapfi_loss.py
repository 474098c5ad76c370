#!/usr/bin/env python3
"""How another engine (not ours) judges a build's moves in the early middle game, where our
games against it are lost little by little: `docs/strength.md`, "Gomoku: a build's moves
judged by Rapfi (session 22)".

A match of 100 games against Rapfi resolves about +/-70 Elo, and every build of sessions
16-21 scored within it. This measures each move instead of each game: the suite holds
positions where we were to move in the first moves after the book of our games against the
judge; a build plays its move in each (`boardlab analyze --time`), and the judging brain
values the position after it (from our point of view, forced results counted as
+/- --clamp). Two builds are compared position by position on the positions where their
moves differ.

    # the suite: our positions, --moves of ours after the book per game, --count drawn
    python3 docs/rapfi_loss.py collect --ours pbrain-boardlab --book data/openings/gomoku15-rapfi.txt \\
        --out positions.tsv --count 300 --seed 1 games1.txt games2.txt ...
    # a build's moves, valued (its moves are written to --moves-out)
    python3 docs/rapfi_loss.py score --brain <sparring>/rapfi-fixed/pbrain-rapfi \\
        --suite positions.tsv --boardlab target/release/boardlab --time 450 \\
        --cache judged.json --moves-out build.json
    # two builds' moves, compared where they differ
    python3 docs/rapfi_loss.py compare --brain <sparring>/rapfi-fixed/pbrain-rapfi \\
        --cache judged.json a.json b.json

The suite file has one position a line (`#` lines are comments): the moves before ours, a
tab, the move the game played. The brain is asked as `docs/rapfi_judge.py` asks it (a fresh
process a position, one thread, --max-node nodes), remembered in --cache.
"""

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_cliffs import Judge  # noqa: E402
from rapfi_judge import book_length, read_book, records  # noqa: E402


def collect(a):
    book = read_book(a.book)
    seen, positions = set(), []
    for path in a.records:
        for header, moves in records(path):
            if a.ours not in header:
                continue
            us = 0 if a.ours in header.split("(first)")[0] else 1
            start = book_length(book, moves)
            ours = [p for p in range(start, len(moves)) if p % 2 == us][:a.moves]
            for ply in ours:
                key = " ".join(moves[:ply])
                if key not in seen:
                    seen.add(key)
                    positions.append(f"{key}\t{moves[ply]}")
    random.Random(a.seed).shuffle(positions)
    kept = positions[:a.count]
    header = (f"# {len(kept)} of {len(positions)} positions: our first {a.moves} moves after "
              f"the book, seed {a.seed}\n")
    open(a.out, "w").write(header + "".join(p + "\n" for p in kept))
    print(f"{len(kept)} positions of {len(positions)}")


def value_after(asked, before, move, clamp):
    """Our view of the position after our `move`, by the judge (forced results clamped)."""
    theirs = asked(before.split() + [move])[0]
    return max(-clamp, min(clamp, -theirs))


def score(a, asked):
    suite = [l.rstrip("\n").split("\t") for l in open(a.suite)
             if l.strip() and not l.startswith("#")]
    played = {}
    for before, _ in suite:
        out = subprocess.run(
            [a.boardlab, "analyze", "gomoku", "--moves", before, "--time", str(a.time)],
            capture_output=True, text=True, check=True).stdout
        played[before] = re.findall(r"^bestmove (\S+)", out, re.M)[-1]
    if a.moves_out:
        json.dump(played, open(a.moves_out, "w"), indent=0)
    # What our move loses: the judge's value of the position (its best move) less its value
    # after ours, both from our point of view and clamped.
    before = {b: max(-a.clamp, min(a.clamp, asked(b.split())[0])) for b in played}
    losses = [before[b] - value_after(asked, b, m, a.clamp) for b, m in played.items()]
    into = sum(1 for b, m in played.items()
               if before[b] > -a.clamp and value_after(asked, b, m, a.clamp) <= -a.clamp)
    same = sum(1 for b, g in suite if played[b] == g)
    print(f"{len(losses)} positions: mean loss {statistics.mean(losses):.1f}, median "
          f"{statistics.median(losses):.0f}, into a forced loss {into}, the game's move {same}")


def compare(a, asked):
    x, y = (json.load(open(p)) for p in a.builds)
    diffs = [value_after(asked, b, x[b], a.clamp) - value_after(asked, b, y[b], a.clamp)
             for b in x if b in y and x[b] != y[b]]
    common = sum(1 for b in x if b in y)
    if len(diffs) < 2:
        print(f"{common} common positions, {len(diffs)} with different moves")
        return
    mean, sd = statistics.mean(diffs), statistics.stdev(diffs)
    half = 1.96 * sd / math.sqrt(len(diffs))
    print(f"{common} common positions, {len(diffs)} with different moves: A - B mean "
          f"{mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}], A better in "
          f"{sum(d > 0 for d in diffs)}, worse in {sum(d < 0 for d in diffs)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--ours", required=True, help="part of our player's name in the records")
    c.add_argument("--book", required=True, help="the matches' opening book")
    c.add_argument("--moves", type=int, default=6, help="our moves after the book, per game")
    c.add_argument("--count", type=int, default=300)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", required=True)
    c.add_argument("records", nargs="+", help="records files of `boardlab match`")
    for name in ("score", "compare"):
        p = sub.add_parser(name)
        p.add_argument("--brain", required=True, help="path of the judging Gomocup brain")
        p.add_argument("--max-node", type=int, default=300000)
        p.add_argument("--cache", help="JSON file of the brain's answers, kept between runs")
        p.add_argument("--clamp", type=int, default=2000,
                       help="a forced result counts as this much (the judge's evaluations "
                            "of open positions stay within a few hundred)")
    s = sub.choices["score"]
    s.add_argument("--suite", required=True)
    s.add_argument("--boardlab", required=True, help="the boardlab binary to score")
    s.add_argument("--time", type=int, default=450, help="milliseconds a position")
    s.add_argument("--moves-out", help="JSON file of the build's move per position")
    sub.choices["compare"].add_argument("builds", nargs=2, help="two --moves-out files: A B")
    a = ap.parse_args()
    if a.cmd == "collect":
        collect(a)
    else:
        asked = Judge(a.brain, a.max_node, a.cache)
        (score if a.cmd == "score" else compare)(a, asked)


if __name__ == "__main__":
    main()
