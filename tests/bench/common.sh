# tests/bench/common.sh: what the benchmark scripts share: installing a
# missing reference tool, and timing a command as the best of $RUNS runs.
# Sourced by tests/bench/run and tests/bench/vm; needs $RUNS and $WORK set.

need_pkg() {  # need_pkg COMMAND PACKAGE
  if ! command -v "$1" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      apt-get install -y "$2" >/dev/null || { apt-get update >/dev/null && apt-get install -y "$2" >/dev/null; }
    else
      echo "bench: '$1' is missing; install the '$2' package" >&2; exit 1
    fi
  fi
}
# best_of CMD...: runs CMD $RUNS times; prints "seconds rss_kib" of the fastest
# run. Seconds come from a nanosecond clock around /usr/bin/time (its own %e
# has 10 ms resolution, too coarse for the 10k size); peak RSS is its %M.
best_of() {
  local best="" best_rss="" i t0 t1 s
  for ((i = 0; i < RUNS; i++)); do
    t0=$(date +%s%N)
    if ! /usr/bin/time -f '%e %M' -o "$WORK/time.out" "$@" >"$WORK/cmd.out" 2>&1; then
      echo "bench: command failed: $*" >&2; cat "$WORK/cmd.out" >&2; exit 1
    fi
    t1=$(date +%s%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
    if [ -z "$best" ] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }'; then
      best="$s"; best_rss=$(awk '{ print $2 }' "$WORK/time.out")
    fi
  done
  echo "$best $best_rss"
}

