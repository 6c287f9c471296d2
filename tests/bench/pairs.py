#!/usr/bin/env python3
"""pairs.py [--any-output] [--rss] [--fields] ROUNDS NAME CMD REFERENCE
[NAME CMD REFERENCE ...]: for each named pair, runs CMD then REFERENCE,
ROUNDS times in turn (alternating, so a change in the machine's load falls
on both; a round's two on one CPU, the rounds taking the CPUs in turn:
pinning.py), checks both print the same bytes, and prints a row: the median CPU
seconds (user + system, from the children's rusage in microseconds, not
os.times' 10 ms clock ticks, which are coarse for runs of a quarter second)
of each, and the ratio CMD / REFERENCE as median (min..max) over the rounds.
Commands are split on spaces. Either failing (exit status not 0) stops it.
Options (before ROUNDS):
  --any-output  the outputs are not compared (tests/bench/run: `semaprax
                check` prints a line, `luac5.4 -p` nothing); they are
                discarded.
  --rss         after the rounds, CMD runs once more under /usr/bin/time -f
                %M and the row ends with its peak RSS in KiB (not the
                child's ru_maxrss, which counts the Python process the child
                was forked from: Linux keeps the larger of the two).
  --fields      each row is space-separated numbers without the table's
                header, for a script to read: NAME CMD_S REF_S RATIO_MEDIAN
                RATIO_MIN RATIO_MAX [PEAK_KIB], seconds to 6 places.
Python 3 standard library only; used by tests/bench/trials, tests/bench/vm
and tests/bench/run."""
import pinning
import resource
import statistics
import subprocess
import sys


def timed(command, keep_output):
    """CPU seconds of one run of command, and its output; exits when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.run(command.split(),
                           stdout=subprocess.PIPE if keep_output else subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    if child.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (command, child.returncode, child.stderr.decode()))
    out = child.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, out


def peak_kib(command):
    """Peak RSS in KiB of one more run of command, by /usr/bin/time."""
    child = subprocess.run(["/usr/bin/time", "-f", "%M"] + command.split(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if child.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (command, child.returncode, child.stderr.decode()))
    return int(child.stderr.split()[-1])


def main():
    args = sys.argv[1:]
    options = set()
    while args and args[0] in ("--any-output", "--rss", "--fields"):
        options.add(args.pop(0))
    if len(args) < 4 or (len(args) - 1) % 3 != 0:
        sys.exit(__doc__.split(":", 1)[0] + ": ROUNDS, then NAME CMD REFERENCE triples")
    rounds = int(args[0])
    rest = args[1:]
    compare = "--any-output" not in options
    fields = "--fields" in options
    if not fields:
        print("%-12s %10s %12s  %s%s" % ("program", "semaprax_s", "reference_s", "ratio median (min..max)",
                                          "  peak_KiB" if "--rss" in options else ""))
    for k in range(0, len(rest), 3):
        name, command, reference = rest[k:k + 3]
        mine, theirs, ratios = [], [], []
        for round_number in range(rounds):
            with pinning.one_cpu(round_number):
                a, out_a = timed(command, compare)
                b, out_b = timed(reference, compare)
            if compare and out_a != out_b:
                sys.exit("bench: %s: the outputs differ:\n%s\n---\n%s" %
                         (name, out_a.decode()[-400:], out_b.decode()[-400:]))
            mine.append(a)
            theirs.append(b)
            ratios.append(a / b if b > 0 else float("inf"))
        peak = " %d" % peak_kib(command) if "--rss" in options else ""
        if fields:
            print("%s %.6f %.6f %.4f %.4f %.4f%s" %
                  (name, statistics.median(mine), statistics.median(theirs),
                   statistics.median(ratios), min(ratios), max(ratios), peak))
        else:
            print("%-12s %10.3f %12.3f  %.2fx (%.2f..%.2f)%s" %
                  (name, statistics.median(mine), statistics.median(theirs),
                   statistics.median(ratios), min(ratios), max(ratios),
                   "  " + peak.strip() if peak else ""))


if __name__ == "__main__":
    main()
