#!/usr/bin/env python3
"""pairs.py ROUNDS NAME CMD REFERENCE [NAME CMD REFERENCE ...]: for each
named pair, runs CMD then REFERENCE, ROUNDS times in turn (alternating, so a
change in the machine's load falls on both), checks both print the same
bytes, and prints a row: the median CPU seconds (user + system, from the
children's rusage in microseconds, not os.times' 10 ms clock ticks, which
are coarse for runs of a quarter second) of each, and the ratio CMD / REFERENCE as median (min..max)
over the rounds. Commands are split on spaces. Python 3 standard library
only; used by tests/bench/trials and tests/bench/vm."""
import resource
import statistics
import subprocess
import sys


def timed(command):
    """CPU seconds of one run of command, and its output; exits when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.run(command.split(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if child.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (command, child.returncode, child.stderr.decode()))
    out = child.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, out


def main():
    rounds = int(sys.argv[1])
    rest = sys.argv[2:]
    print("%-12s %10s %12s  %s" % ("program", "semaprax_s", "reference_s", "ratio median (min..max)"))
    for k in range(0, len(rest), 3):
        name, command, reference = rest[k:k + 3]
        mine, theirs, ratios = [], [], []
        for _ in range(rounds):
            a, out_a = timed(command)
            b, out_b = timed(reference)
            if out_a != out_b:
                sys.exit("bench: %s: the outputs differ:\n%s\n---\n%s" %
                         (name, out_a.decode()[-400:], out_b.decode()[-400:]))
            mine.append(a)
            theirs.append(b)
            ratios.append(a / b)
        print("%-12s %10.3f %12.3f  %.2fx (%.2f..%.2f)" %
              (name, statistics.median(mine), statistics.median(theirs),
               statistics.median(ratios), min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
