"""pinning.py: the CPU one round of a benchmark's alternating commands runs
on. On a virtual machine the CPUs need not be equally fast (on the 2-CPU
machine this project is measured on, one ran a check 1.7x slower than the
other for minutes at a time), so a pair whose two commands landed on
different CPUs compared the CPUs, not the commands. Within a round every
command runs on one CPU; the rounds take the CPUs in turn, so each CPU's
speed falls on both sides of the ratio. BENCH_PIN=0 leaves the scheduler
free. Used by pairs.py, phase_a_pairs.py and fuel_pairs.py; Python 3 standard library
only (without sched_setaffinity, as on macOS, nothing is pinned)."""
import contextlib
import os


@contextlib.contextmanager
def one_cpu(round_number):
    """Commands started inside run on one CPU: the next in turn for each round."""
    if not hasattr(os, "sched_setaffinity") or os.environ.get("BENCH_PIN") == "0":
        yield
        return
    allowed = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {allowed[round_number % len(allowed)]})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)
