#!/usr/bin/env python3
"""phase_a_pairs.py ROUNDS PROJECT BASE NEW: Phase A of two builds against
`luac5.4 -p`, in alternating rounds (BASE check, NEW check, luac -p, so a
change in the machine's load falls on all three; a round's three on one
CPU, the rounds taking the CPUs in turn: pinning.py). PROJECT is a folder made by
tests/bench/gen_project.py; BASE and NEW are `semaprax` binaries. Prints, for
each command, the median CPU seconds (user + system, from the child's rusage)
with min..max and the median peak RSS (ru_maxrss) as KiB and as a multiple of
the .spx source bytes; then each build's ratio to luac -p per round, as median
(min..max). Every check must be admitted (exit 0). Python 3 standard library
only; not part of ctest (docs/performance.md)."""
import os
import pinning
import statistics
import subprocess
import sys


def run(command):
    """CPU seconds and peak RSS (KiB) of one run of command."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit("bench: %s failed (status %d)" % (" ".join(command), status))
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main():
    rounds, project, base, new = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    manifest = os.path.join(project, "spx", "semaprax.toml")
    commands = {"base": [base, "check", "--manifest-path", manifest],
                "new": [new, "check", "--manifest-path", manifest],
                "luac": ["luac5.4", "-p", os.path.join(project, "lua", "all.lua")]}
    source = sum(os.path.getsize(os.path.join(folder, name))
                 for folder, _, names in os.walk(os.path.join(project, "spx"))
                 for name in names if name.endswith(".spx"))
    seconds = {name: [] for name in commands}
    peaks = {name: [] for name in commands}
    ratios = {"base": [], "new": []}
    for round_number in range(rounds):
        with pinning.one_cpu(round_number):
            for name, command in commands.items():
                cpu, peak = run(command)
                seconds[name].append(cpu)
                peaks[name].append(peak)
        for name in ratios:
            ratios[name].append(seconds[name][-1] / seconds["luac"][-1])
    print("%s: %d rounds, .spx source %d bytes" % (project, rounds, source))
    for name in commands:
        peak = statistics.median(peaks[name])
        print("  %-4s CPU %.3f s (%.3f..%.3f)  peak RSS %d KiB = %.2fx source" %
              (name, statistics.median(seconds[name]), min(seconds[name]), max(seconds[name]),
               peak, peak * 1024 / source))
    for name in ratios:
        print("  %-4s / luac -p: %.2fx (%.2f..%.2f)" %
              (name, statistics.median(ratios[name]), min(ratios[name]), max(ratios[name])))


if __name__ == "__main__":
    main()
