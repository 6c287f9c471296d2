#!/usr/bin/env python3
"""fuel_pairs.py ROUNDS CASE F1 D REFERENCE REF_F1 REF_D SEMAPRAX [ARG ...]:
time per step of a case against a reference, for tests/bench/worst, in
alternating rounds. CASE and REFERENCE are manifests of programs that loop
forever; each run is `SEMAPRAX run --max-steps N ARG... --manifest-path M`,
which must end by running out of fuel (exit status 1 and "error[R0509]: fuel
exhausted: max_steps N reached"), or this stops with exit status 1 and the
run's output. A round runs the case to F1 and to F1 + D steps, then the
reference to REF_F1 and to REF_F1 + REF_D, so a change in the machine's load
falls on both (all four on one CPU, the rounds taking the CPUs in turn:
pinning.py); the round's time per step is (t(F1 + D) - t(F1)) / D for
each (the process start, Phase A and the setup cancel out), and its ratio is
the case's over the reference's. REFERENCE "-" runs the case alone (the
reference itself). Prints one line of space-separated numbers: the medians
of t(F1), t(F1 + D) and the case's seconds per step; the ratio's median, min
and max (0 without a reference); the reference's median seconds per step;
and the case's peak RSS in KiB, from /usr/bin/time -f %M of one more run to
F1 + D. Times are the child's CPU seconds (user + system, from its rusage),
or the wall clock with BENCH_CLOCK=wall. Python 3 standard library only."""
import os
import pinning
import statistics
import subprocess
import sys
import time

WALL = os.environ.get("BENCH_CLOCK", "cpu") == "wall"


def command(semaprax, args, manifest, steps):
    return [semaprax, "run", "--max-steps", str(steps)] + args + ["--manifest-path", manifest]


def to_fuel(argv, steps, prefix=()):
    """Seconds of one run of argv to its fuel limit, and its output."""
    start = time.perf_counter()
    child = subprocess.Popen(list(prefix) + argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start if WALL else usage.ru_utime + usage.ru_stime
    text = out.decode("utf-8", "replace")
    if (os.waitstatus_to_exitcode(status) != 1 or
            "error[R0509]: fuel exhausted: max_steps %d reached" % steps not in text):
        sys.stderr.write("bench: %s did not end by running out of fuel at %d steps:\n%s\n"
                         % (" ".join(argv), steps, text[:2000]))
        sys.exit(1)
    return seconds, text


def per_step(semaprax, args, manifest, f1, d):
    """(t(F1), t(F1 + D), seconds per step) of one pair of runs."""
    t1, _ = to_fuel(command(semaprax, args, manifest, f1), f1)
    t2, _ = to_fuel(command(semaprax, args, manifest, f1 + d), f1 + d)
    return t1, t2, (t2 - t1) / d


def main():
    if len(sys.argv) < 9:
        sys.exit(__doc__.split(":", 1)[0])
    rounds, case, f1, d = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    reference, ref_f1, ref_d = sys.argv[5], int(sys.argv[6]), int(sys.argv[7])
    semaprax, args = sys.argv[8], sys.argv[9:]
    firsts, seconds, steps, ratios, ref_steps = [], [], [], [], []
    for round_number in range(rounds):
        with pinning.one_cpu(round_number):
            t1, t2, p = per_step(semaprax, args, case, f1, d)
            firsts.append(t1)
            seconds.append(t2)
            steps.append(p)
            if reference != "-":
                _, _, r = per_step(semaprax, args, reference, ref_f1, ref_d)
                ref_steps.append(r)
                ratios.append(p / r if r > 0 else float("nan"))
    rss_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "fuel_pairs.%d.rss" % os.getpid())
    try:
        to_fuel(command(semaprax, args, case, f1 + d), f1 + d,
                prefix=("/usr/bin/time", "-f", "%M", "-o", rss_path))
        with open(rss_path) as rss:
            peak = int(rss.read().split()[-1])
    finally:
        if os.path.exists(rss_path):
            os.remove(rss_path)
    print("%.6f %.6f %.6e %.4f %.4f %.4f %.6e %d" %
          (statistics.median(firsts), statistics.median(seconds), statistics.median(steps),
           statistics.median(ratios) if ratios else 0, min(ratios) if ratios else 0,
           max(ratios) if ratios else 0,
           statistics.median(ref_steps) if ref_steps else statistics.median(steps), peak))


if __name__ == "__main__":
    main()
