#!/usr/bin/env python3
"""compare.py: run benchmarks on a base revision and on the working tree, in
turns, in one command, and print every figure of both side by side with the
ratio working/base. A change meant to keep performance (a refactoring) is
judged by these ratios against the noise of the base's own rounds, which the
table also shows (base min..max).

Usage: python3 tests/bench/compare.py --base REV [--rounds N] [BENCH ...]
  BENCH: run (Phase A), vm (execution), transport (the daemon); default all.
  The environment of the benchmarks applies to both (BENCH_SIZES,
  BENCH_RUNS, BENCH_REQUESTS). Not part of ctest; docs/performance.md.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
# A ratio's range as tests/bench/pairs.py prints it after the median, "(0.91..1.12)":
# left out of the fields, and the median's "x" taken off.
RANGE = re.compile(r"^\(-?[0-9.]+\.\.-?[0-9.]+\)$")


def run_bench(tree, bench):
    """The bench's table: {row key: [(column, value)]}, header from its last
    line of column names before the rows."""
    output = subprocess.run(["bash", os.path.join(tree, "tests", "bench", bench)],
                            check=True, capture_output=True, text=True).stdout
    header, rows = None, {}
    for line in output.splitlines():
        fields = [f[:-1] if f.endswith("x") and NUMBER.match(f[:-1]) else f
                  for f in line.split() if not RANGE.match(f)]
        if len(fields) < 2:
            continue
        if all(NUMBER.match(f) for f in fields[1:]):
            if header:
                rows[fields[0]] = list(zip(header[1:], (float(f) for f in fields[1:])))
        elif not any(NUMBER.match(f) for f in fields[1:]):
            header = fields
    if not rows:
        sys.exit(f"compare: {bench} in {tree} printed no table:\n{output}")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the revision to compare against")
    parser.add_argument("--rounds", type=int, default=3, help="turns of base then working tree")
    parser.add_argument("benches", nargs="*", default=["run", "vm", "transport"])
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="spx-compare.") as work:
        base = os.path.join(work, "base")
        subprocess.run(["git", "clone", "-q", ROOT, base], check=True)
        subprocess.run(["git", "-C", base, "checkout", "-q", options.base], check=True)
        for bench in options.benches:
            samples = {"base": [], "work": []}
            for round_number in range(options.rounds):
                print(f"== {bench}: round {round_number + 1} of {options.rounds}", file=sys.stderr)
                samples["base"].append(run_bench(base, bench))
                samples["work"].append(run_bench(ROOT, bench))
            print(f"\n{bench}: median of {options.rounds} rounds; base {options.base}")
            print(f"{'row':<8} {'column':<14} {'base':>11} {'work':>11} {'work/base':>9}"
                  f" {'base min..max':>23}")
            for key, cells in samples["base"][0].items():
                for index, (column, _) in enumerate(cells):
                    before = [rows[key][index][1] for rows in samples["base"] if key in rows]
                    after = [rows[key][index][1] for rows in samples["work"] if key in rows]
                    b, a = statistics.median(before), statistics.median(after)
                    ratio = f"{a / b:9.3f}" if b else f"{'-':>9}"
                    spread = f"{min(before):.4g}..{max(before):.4g}"
                    print(f"{key:<8} {column:<14} {b:11.4g} {a:11.4g} {ratio} {spread:>23}")


if __name__ == "__main__":
    main()
