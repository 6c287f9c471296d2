# tests/bench/common.sh: what the benchmark scripts share: installing a
# missing reference tool, and timing a command as the best of $RUNS runs.
# Sourced by tests/bench/run, vm, worst and transport; best_of (which needs
# $RUNS and $WORK set) is used by tests/bench/transport alone (run and vm
# alternate their pairs with tests/bench/pairs.py, worst its cases with
# loop by tests/bench/fuel_pairs.py).

need_pkg() {  # need_pkg COMMAND PACKAGE
  if ! command -v "$1" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      apt-get install -y "$2" >/dev/null || { apt-get update >/dev/null && apt-get install -y "$2" >/dev/null; }
    else
      echo "bench: '$1' is missing; install the '$2' package" >&2; exit 1
    fi
  fi
}
# best_of CMD...: runs CMD $RUNS times; prints "seconds rss_kib" of the
# fastest run, timed and measured by best_of.py (the child alone: no shell or
# timing tool start counted).
best_of() {
  python3 "$(dirname "${BASH_SOURCE[0]}")/best_of.py" "$RUNS" "$WORK/cmd.out" "$@" || exit 1
}

