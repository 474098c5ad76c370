#!/usr/bin/env python3
"""Near-even gomoku openings as judged by another engine (not ours) through its Gomocup
(Piskvork) interface: `docs/strength.md`, session 9, says how `data/openings/` was made.

Draws openings of 3 to 5 stones on random points within RADIUS of the centre (h8 on
15x15), as `boardlab book gomoku` does, keeps one per class of the board's 8 symmetries,
asks a fresh brain process for its move with `INFO max_node` and one thread (or a time per move) and keeps the opening
when the evaluation the brain reports (`MESSAGE ... Eval E ...`, Rapfi's format, from the
side to move's point of view) is within --max-eval of even. Prints a book for `boardlab
match --openings book:FILE` (one opening a line, `#` comments) on stdout, with its settings
and counts in the header and last line.

    python3 docs/rapfi_book.py --brain /path/to/pbrain-rapfi --count 100 --seed 1 \
        --max-node 400000 --max-eval 40 > data/openings/gomoku15-rapfi.txt

The same brain, settings and seed give the same file (the brain searches on one thread to
--max-node nodes; a time limit alone would depend on the machine's speed).
"""

import argparse
import random
import re
import subprocess
import sys

SIZE = 15
EVAL = re.compile(r"\bEval\s+([-+]?M?[-+]?\d+)")
# A mate in n plies, as an evaluation.
MATE = 20000
MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


def name(x, y):
    """Our notation of Piskvork's X,Y: column a + X, rank SIZE - Y."""
    return f"{chr(ord('a') + x)}{SIZE - y}"


def canonical(moves):
    """The smallest of the 8 symmetric images of the stones of each colour."""
    c = SIZE - 1
    maps = [
        lambda x, y: (x, y), lambda x, y: (c - x, y), lambda x, y: (x, c - y),
        lambda x, y: (c - x, c - y), lambda x, y: (y, x), lambda x, y: (c - y, x),
        lambda x, y: (y, c - x), lambda x, y: (c - y, c - x),
    ]
    images = []
    for m in maps:
        black = tuple(sorted(m(*p) for p in moves[0::2]))
        white = tuple(sorted(m(*p) for p in moves[1::2]))
        images.append((black, white))
    return min(images)


def search(command, moves, max_node, time_ms):
    """The brain's evaluation of the position after `moves` (Piskvork X,Y pairs), for the
    side to move (a mate `+M n` / `-M n` as +/-(MATE - n)), and its move as X,Y, from a
    fresh brain process (Rapfi stopped answering RESTART, or took the stones after a
    second BOARD for commands, after some searches: a process per position avoids that,
    and it starts in about 0.15 s)."""
    proc = subprocess.Popen(
        [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    own = len(moves) % 2  # the side to move's stones: Black's after an even count
    lines = [f"START {SIZE}", "INFO rule 0", f"INFO timeout_turn {time_ms}",
             "INFO timeout_match 0"]
    if max_node:
        lines.append(f"INFO max_node {max_node}")
    # One search thread: with several, the same node limit gave other evaluations.
    lines.append("INFO thread_num 1")
    lines.append("BOARD")
    lines += [f"{x},{y},{1 if i % 2 == own else 2}" for i, (x, y) in enumerate(moves)]
    lines.append("DONE")
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    last = None
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"brain: exited during the search of {moves}")
        m = EVAL.search(line)
        if m:
            text = m.group(1)
            if "M" in text:
                sign = -1 if text.startswith("-") else 1
                last = sign * (MATE - int(text.strip("+-M")))
            else:
                last = int(text)
        m = MOVE.match(line)
        if m:
            break
    proc.stdin.write("END\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    return last, (int(m.group(1)), int(m.group(2)))


def evaluate(command, moves, max_node, time_ms):
    """The brain's evaluation of the position after `moves`, for the side to move."""
    return search(command, moves, max_node, time_ms)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brain", required=True, help="path of the Gomocup brain")
    ap.add_argument("--count", type=int, default=100, help="openings to keep")
    ap.add_argument("--stones", default="3-5", help="stones per opening, MIN-MAX")
    ap.add_argument("--radius", type=int, default=3, help="Chebyshev radius around h8")
    ap.add_argument("--max-eval", type=int, default=40, help="largest |Eval| kept")
    ap.add_argument("--max-node", type=int, default=400000, help="the brain's node limit")
    ap.add_argument("--time", type=int, default=1000, help="the brain's ms per move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-drawn", type=int, default=5000, help="give up after this many")
    a = ap.parse_args()
    lo, hi = (int(v) for v in a.stones.split("-"))
    if not (1 <= lo <= hi <= 8) or a.radius < 1 or a.radius > SIZE // 2 or a.count < 1:
        sys.exit("rapfi_book: --stones MIN-MAX within 1-8, --radius 1-7, --count >= 1")
    rng = random.Random(a.seed)
    centre = SIZE // 2
    points = [(x, y) for x in range(centre - a.radius, centre + a.radius + 1)
              for y in range(centre - a.radius, centre + a.radius + 1)]
    seen, kept, drawn, uneven, evals = set(), [], 0, 0, []
    while len(kept) < a.count and drawn < a.max_drawn:
        moves = rng.sample(points, rng.randint(lo, hi))
        key = canonical(moves)
        if key in seen:
            continue
        seen.add(key)
        drawn += 1
        ev = evaluate(a.brain, moves, a.max_node, a.time)
        if ev is None or abs(ev) > a.max_eval:
            uneven += 1
            continue
        kept.append(" ".join(name(x, y) for x, y in moves))
        evals.append(ev)
    print(f"# gomoku 15x15 freestyle openings judged near even by {a.brain.split('/')[-1]}")
    print(f"# rapfi_book.py --count {a.count} --stones {a.stones} --radius {a.radius} "
          f"--max-eval {a.max_eval} --max-node {a.max_node} --time {a.time} --seed {a.seed}")
    print("# each line: the opening's moves (Black first); the side to move's Eval was within "
          f"{a.max_eval}")
    for line, ev in zip(kept, evals):
        print(f"{line}  # Eval {ev}")
    print(f"# kept {len(kept)} of {drawn} drawn ({uneven} beyond {a.max_eval} or unscored)")


if __name__ == "__main__":
    main()
