# tests/bench/common.sh: what the benchmark scripts share: installing a
# missing reference tool. Sourced by tests/bench/run, vm, worst and
# transport (run and vm alternate their pairs with tests/bench/pairs.py,
# worst its cases with loop by tests/bench/fuel_pairs.py, transport its
# warm requests with the cold CLI by tests/bench/transport_session.py).

need_pkg() {  # need_pkg COMMAND PACKAGE
  if ! command -v "$1" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      apt-get install -y "$2" >/dev/null || { apt-get update >/dev/null && apt-get install -y "$2" >/dev/null; }
    else
      echo "bench: '$1' is missing; install the '$2' package" >&2; exit 1
    fi
  fi
}
