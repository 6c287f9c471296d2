#!/usr/bin/env python3
# best_of.py RUNS OUT CMD...: runs CMD RUNS times with its output in OUT and
# prints "seconds peak_rss_kib": the fastest run's seconds, and the peak RSS
# of one more run under /usr/bin/time. The clock (time.perf_counter) starts
# just before the child is spawned and stops when it is reaped, so neither a
# timing tool's nor a shell's start is counted (at 10k lines they took longer
# than the check itself). The RSS comes from /usr/bin/time, not from this
# process's wait4(): a forked child's peak RSS counts the Python process it
# was forked from. Exits 1, showing the output, when a run fails: when its
# exit status is not $BEST_OF_STATUS (default 0; a program run to its fuel
# limit ends `semaprax run` with status 1).
# BEST_OF_CLOCK=cpu times the child's user + system CPU time (its rusage
# from wait4) instead of the wall clock: steadier on a machine shared with
# other work, the same on an idle one. Python 3 standard library only; used
# by tests/bench/common.sh (best_of, for tests/bench/transport).
import os
import subprocess
import sys
import time

EXPECTED_STATUS = int(os.environ.get("BEST_OF_STATUS", "0"))
CPU_CLOCK = os.environ.get("BEST_OF_CLOCK", "wall") == "cpu"


def run(command, out_path):
    """Seconds of one run of command; exits when it fails."""
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, wait_status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = status = os.waitstatus_to_exitcode(wait_status)
    if CPU_CLOCK:
        seconds = usage.ru_utime + usage.ru_stime
    if status != EXPECTED_STATUS:
        sys.stderr.write("bench: command ended with exit status %d, not %d: %s\n"
                         % (status, EXPECTED_STATUS, " ".join(command)))
        with open(out_path, "rb") as out:
            sys.stderr.write(out.read().decode("utf-8", "replace"))
        sys.exit(1)
    return seconds


def main():
    runs, out_path, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    best = min(run(command, out_path) for _ in range(runs))
    rss_path = out_path + ".rss"
    run(["/usr/bin/time", "-f", "%M", "-o", rss_path] + command, out_path)
    with open(rss_path) as rss:
        peak_kib = int(rss.read().split()[-1])
    print("%.4f %d" % (best, peak_kib))


if __name__ == "__main__":
    main()
