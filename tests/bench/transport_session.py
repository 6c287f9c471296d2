#!/usr/bin/env python3
# transport_session.py DAEMON CLI MANIFEST TARGET REQUESTS PINGS MAX_RESPONSE_BYTES:
# the measuring half of tests/bench/transport. Starts `semapraxd --stdio` on
# MANIFEST, opens the session, then for graph, context (function TARGET,
# depth 1) and test runs REQUESTS alternating pairs: one warm request, timed
# from the write of its line to the read of its response, then the cold CLI
# doing the same work (`CLI graph`, `CLI context --kind function --target
# TARGET`, `CLI test`, its output to /dev/null), timed from its spawn to its
# reaping (wall clock, as the warm request is), so that a change in the
# machine's load falls on both halves of a pair. Then PINGS pipelined pings
# (written by a thread while the responses are read and counted); the
# daemon is given --max-response-bytes MAX_RESPONSE_BYTES (a 1M-line graph
# is larger than the default 16 MiB). Also times reading every declared
# source twice and comparing it with a copy kept in memory (in this
# process): the floor of a re-authentication by comparison, two of which
# every warm request makes. Prints one line: for graph, context and test in
# turn "warm_s cold_s ratio ratio_min ratio_max" (the medians of the warm
# and cold seconds, and the median, least and greatest of cold / warm over
# the pairs), then "ping_per_s reread2_s". Python 3 standard library only.
import json
import os
import statistics
import subprocess
import sys
import threading
import time


def sources_of(manifest):
    root = os.path.dirname(os.path.abspath(manifest))
    paths = []
    with open(manifest, encoding="utf-8") as text:
        for line in text:
            line = line.strip()
            if line.startswith("path = "):
                paths.append(os.path.join(root, json.loads(line[len("path = "):])))
    return paths


def reread_twice(paths, kept):
    start = time.perf_counter()
    for _ in range(2):
        for path, bytes_kept in zip(paths, kept):
            with open(path, "rb") as source:
                if source.read() != bytes_kept:
                    sys.exit("bench: %s changed during the benchmark" % path)
    return time.perf_counter() - start


def cold_run(command):
    """Wall-clock seconds of one run of the CLI command; exits when it fails."""
    start = time.perf_counter()
    child = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if child.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (" ".join(command), child.returncode,
                                                 child.stderr.decode()[:300]))
    return seconds


def main():
    daemon, cli, manifest, target, requests, pings, max_response = sys.argv[1:8]
    requests, pings = int(requests), int(pings)
    process = subprocess.Popen([daemon, "--stdio", "--manifest-path", manifest,
                                "--max-response-bytes", max_response],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def call(method, params=None):
        request = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            request["params"] = params
        line = json.dumps(request).encode() + b"\n"
        start = time.perf_counter()
        process.stdin.write(line)
        process.stdin.flush()
        answer = process.stdout.readline()
        seconds = time.perf_counter() - start
        response = json.loads(answer)
        if "result" not in response:
            sys.exit("bench: %s answered %s" % (method, answer[:300]))
        return seconds, response["result"]

    _, opened = call("workspace/open")
    revisions = {k: opened[k] for k in ("project_revision", "workspace_revision")}
    context = dict(revisions, target_kind="function", target=target, depth=1)
    cold = {
        "graph": [cli, "graph", "--manifest-path", manifest],
        "context": [cli, "context", "--manifest-path", manifest, "--kind", "function",
                    "--target", target],
        "test": [cli, "test", "--manifest-path", manifest],
    }
    figures = []
    for method, params in (("graph", revisions), ("context", context), ("test", revisions)):
        call(method, params)  # warm-up, of both
        cold_run(cold[method])
        warm_seconds, cold_seconds, ratios = [], [], []
        for _ in range(requests):
            warm_seconds.append(call(method, params)[0])
            cold_seconds.append(cold_run(cold[method]))
            ratios.append(cold_seconds[-1] / warm_seconds[-1])
        figures += [statistics.median(warm_seconds), statistics.median(cold_seconds),
                    statistics.median(ratios), min(ratios), max(ratios)]

    ping = b'{"jsonrpc":"2.0","id":7,"method":"ping"}\n'
    batch = ping * 1000

    def write_pings():
        for _ in range(pings // 1000):
            process.stdin.write(batch)
        process.stdin.flush()

    writer = threading.Thread(target=write_pings)
    start = time.perf_counter()
    writer.start()
    # Responses are counted by their LFs in whatever the pipe holds, so that
    # the figure is the daemon's rate rather than this reader's per-line cost.
    expected, answered = pings // 1000 * 1000, 0
    while answered < expected:
        chunk = process.stdout.read1(1 << 20)
        if not chunk:
            sys.exit("bench: the daemon ended during the pings")
        answered += chunk.count(b"\n")
    ping_seconds = time.perf_counter() - start
    writer.join()
    _, status = call("workspace/status")
    if status["counters"]["phase_a_runs"] != 1:
        sys.exit("bench: Phase A ran again")
    process.stdin.close()
    process.wait()
    paths = sources_of(manifest)
    kept = []
    for path in paths:
        with open(path, "rb") as source:
            kept.append(source.read())
    floor = statistics.median(reread_twice(paths, kept) for _ in range(max(5, requests // 4)))
    print(" ".join("%.6f" % figure for figure in figures),
          "%.0f %.6f" % ((pings // 1000 * 1000) / ping_seconds, floor))


if __name__ == "__main__":
    main()
