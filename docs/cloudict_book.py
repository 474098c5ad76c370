#!/usr/bin/env python3
"""Near-even connect6 openings as judged by Cloudict (lang010/cloudict), an ICGA
gold-medal engine, through its own text protocol (`new white`, `black XX`, `white XXXX`,
`next`; it prints `Score : S` for the side to move after its alpha-beta search).

Draws openings: Black's first stone within --radius0 of the centre (j10), then --pairs
pairs alternately (White first), each stone on a random empty point within --radius of the
first stone; keeps one opening per class of the board's 8 symmetries; asks a fresh
Cloudict game (VCF on, fixed --depth) for its score of the position, from the side to
move's point of view, and keeps the opening when |score - --even| <= --max-score and Cloudict
found no VCF win for the side to move. Prints a book for `boardlab match --openings
book:FILE` (one opening a line, `#` comments) with its settings in the header.

    python3 docs/cloudict_book.py --engine CLOUDICT/gameEngine --count 40 --depth 4 \
        --max-score 50 --seed 1 > data/openings/connect6-cloudict.txt

CLOUDICT is a build of Cloudict made outside the repository (`docs/strength.md`, connect6,
session 11, says which); it reads `patterns.in` and writes `engine.log` in its own folder.

The same engine, settings and seed give the same file (Cloudict searches to a fixed depth).
"""
import argparse, os, random, re, subprocess, sys

SIZE = 19
C = SIZE // 2
SCORE = re.compile(r"^Score\s*:\s*(-?[\d.]+)")


def name(x, y):
    return f"{chr(ord('a') + x)}{y + 1}"


def c6(x, y):
    return chr(ord("A") + x) + chr(ord("A") + y)


def canonical(stones):
    c = SIZE - 1
    maps = [lambda x, y: (x, y), lambda x, y: (c - x, y), lambda x, y: (x, c - y),
            lambda x, y: (c - x, c - y), lambda x, y: (y, x), lambda x, y: (c - y, x),
            lambda x, y: (y, c - x), lambda x, y: (c - y, c - x)]
    images = []
    for m in maps:
        images.append(tuple(tuple(sorted(m(*p) for p in turn)) for turn in stones))
    return min(images)


class Engine:
    def __init__(self, path, depth):
        self.p = subprocess.Popen([path], cwd=os.path.dirname(os.path.abspath(path)),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(f"depth {depth}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def judge(self, turns):
        """(score for the side to move, VCF win found, the move) after `turns`."""
        self.send("new white")
        for i, turn in enumerate(turns):
            colour = "black" if i % 2 == 0 else "white"
            self.send(colour + " " + "".join(c6(x, y) for x, y in turn))
        self.send("next")
        vcf, score = False, None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("cloudict exited")
            line = line.strip()
            if line.startswith("Win by VCF"):
                vcf = True
            m = SCORE.match(line)
            if m:
                score = float(m.group(1))
            if line.startswith("move "):
                return score, vcf, line.split()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--pairs", default="1-2", help="pairs after the first stone, e.g. 1-2")
    ap.add_argument("--radius0", type=int, default=2)
    ap.add_argument("--radius", type=int, default=3)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--even", type=float, default=1000,
                    help="Cloudict's score of an even position: it adds MAXINT/2 = 10000 and divides by 10")
    ap.add_argument("--max-score", type=float, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-tries", type=int, default=2000)
    a = ap.parse_args()
    lo, hi = (int(v) for v in a.pairs.split("-"))
    rng = random.Random(a.seed)
    eng = Engine(a.engine, a.depth)
    seen, kept, tried = set(), [], 0
    while len(kept) < a.count and tried < a.max_tries:
        x0, y0 = C + rng.randint(-a.radius0, a.radius0), C + rng.randint(-a.radius0, a.radius0)
        taken = {(x0, y0)}
        turns = [[(x0, y0)]]
        for _ in range(rng.randint(lo, hi)):
            turn = []
            while len(turn) < 2:
                p = (x0 + rng.randint(-a.radius, a.radius), y0 + rng.randint(-a.radius, a.radius))
                if 0 <= p[0] < SIZE and 0 <= p[1] < SIZE and p not in taken:
                    taken.add(p)
                    turn.append(p)
            turns.append(turn)
        key = canonical(turns)
        if key in seen:
            continue
        seen.add(key)
        tried += 1
        score, vcf, _ = eng.judge(turns)
        if score is None or vcf or abs(score - a.even) > a.max_score:
            continue
        text = " ".join(",".join(name(*p) for p in turn) for turn in turns)
        kept.append(f"{text}  # Score {score:g}")
        print(f"kept {len(kept)}/{tried}: {kept[-1]}", file=sys.stderr)
    eng.send("exit")
    print("# connect6 19x19 openings judged near even by Cloudict (lang010/cloudict, 11fabe3)")
    print(f"# cloudict_book.py --count {a.count} --pairs {a.pairs} --radius0 {a.radius0} "
          f"--radius {a.radius} --depth {a.depth} --even {a.even:g} --max-score {a.max_score:g} --seed {a.seed}")
    print("# each line: the opening's moves (Black's first stone, then pairs); Cloudict's "
          f"depth-{a.depth} alpha-beta score for the side to move was within "
          f"{a.max_score:g} of even ({a.even:g}: Cloudict adds MAXINT/2 = 10000 to its evaluation and divides "
          "by 10) and its VCF found no win")
    for line in kept:
        print(line)
    print(f"# kept {len(kept)} of {tried} distinct openings judged")


if __name__ == "__main__":
    main()
