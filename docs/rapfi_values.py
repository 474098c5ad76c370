#!/usr/bin/env python3
"""Values positions of recorded gomoku games with another engine (not ours) through its
Gomocup (Piskvork) interface, for fitting our evaluation to a stronger engine's judgement
(`boardlab_engines::gomoku::tune::add_valued_samples`; `docs/strength.md`, session 20, says
which games were valued and what the fit to them did).

Every EVERY-th position of each game of the records files (`boardlab match --records` or
`boardlab selfplay` output, 15x15), from ply FROM, is searched by a fresh brain process on
one thread to --max-node nodes (`rapfi_book.search`); the value it reports (Rapfi's
`MESSAGE ... Eval E`, the side to move's view; a forced win in n plies is +/-(20000 - n)) is
written as the valued-positions format: one game a line, its moves, a tab, then
`ply=value` pairs. The same brain and settings give the same file.

    python3 docs/rapfi_values.py --brain /path/to/pbrain-rapfi --max-node 5000 \
        --every 3 --from 4 a.txt b.txt > values.txt

Each position takes about 0.07 s (the process's start-up); run several processes on
different files to use more cores, then concatenate their outputs.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rapfi_book import search  # noqa: E402
from rapfi_judge import records, xy  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brain", required=True, help="path of the valuing Gomocup brain")
    ap.add_argument("--max-node", type=int, default=5000, help="the brain's node limit")
    ap.add_argument("--every", type=int, default=3, help="value every N-th position")
    ap.add_argument("--from", dest="first", type=int, default=4, help="first ply valued")
    ap.add_argument("records", nargs="+", help="records files")
    a = ap.parse_args()
    print(f"# values: {os.path.basename(a.brain)}, {a.max_node} nodes, one thread; one "
          f"position in {a.every} from ply {a.first} of {' '.join(a.records)}")
    for path in a.records:
        for g, (_, moves) in enumerate(records(path)):
            # The game's index staggers which plies are valued, so that both colours'
            # positions are valued across the games; the position before the last move
            # (a five to play, or a game stopped) is left out.
            plies = [p for p in range(a.first, len(moves) - 1) if (p + g) % a.every == 0]
            values = []
            for ply in plies:
                v, _ = search(a.brain, [xy(m) for m in moves[:ply]], a.max_node, 10000)
                values.append(f"{ply}={v}")
            if values:
                print(" ".join(moves[:plies[-1]]) + "\t" + " ".join(values), flush=True)


if __name__ == "__main__":
    main()
