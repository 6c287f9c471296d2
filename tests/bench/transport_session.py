#!/usr/bin/env python3
# transport_session.py: the measuring half of tests/bench/transport. For one
# generated project it prints one line of figures (milliseconds, medians of
# RUNS): warm graph, context and test requests in one `semapraxd --stdio`
# session; the cold CLI doing the same work (`semaprax graph`, `context`,
# `test`, each a new process); the re-hash floor (reading and hashing every
# input twice, which is what the daemon's two authentications per request
# must at least do); and the pipelined ping rate.
#
#   transport_session.py SEMAPRAXD SEMAPRAX MANIFEST TARGET RUNS PINGS
#
# Python 3 standard library only; not part of ctest.
import hashlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time


class Session:
    """A running semapraxd --stdio, one request at a time."""

    def __init__(self, daemon, manifest):
        self.process = subprocess.Popen([daemon, "--stdio", "--manifest-path", manifest],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        response = json.loads(self.process.stdout.readline())
        if "error" in response:
            sys.exit("bench: %s answered %s" % (method, response["error"]))
        return response["result"]

    def timed(self, method, params, runs):
        """Median milliseconds of runs requests, from writing to the whole answer."""
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            self.call(method, params)
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    def ping_rate(self, count):
        """Pings answered per second, all written at once (pipelined)."""
        frames = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i
                          for i in range(count))
        writer = threading.Thread(target=self._write_all, args=(frames,))
        start = time.perf_counter()
        writer.start()
        for _ in range(count):
            if not self.process.stdout.readline():
                sys.exit("bench: the daemon stopped during the pings")
        seconds = time.perf_counter() - start
        writer.join()
        return count / seconds

    def _write_all(self, frames):
        self.process.stdin.write(frames)
        self.process.stdin.flush()

    def close(self):
        self.call("shutdown")
        self.process.wait()


def cold(command, runs):
    """Median milliseconds of runs of command, each a new process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def rehash_floor(manifest, runs):
    """Median milliseconds of reading and hashing the manifest and every source twice."""
    root = os.path.dirname(os.path.abspath(manifest))
    paths = [manifest] + [os.path.join(root, "src", name)
                          for name in sorted(os.listdir(os.path.join(root, "src")))]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(2):
            for path in paths:
                with open(path, "rb") as f:
                    hashlib.sha256(f.read()).hexdigest()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    daemon, cli, manifest, target, runs, pings = sys.argv[1:7]
    runs, pings = int(runs), int(pings)
    session = Session(daemon, manifest)
    revisions = session.call("workspace/open")
    context = dict(revisions, target_kind="function", target=target)
    warm = [session.timed("graph", revisions, runs),
            session.timed("context", context, runs),
            session.timed("test", revisions, runs)]
    rate = session.ping_rate(pings)
    counters = session.call("workspace/status")["counters"]
    session.close()
    if counters["phase_a_runs"] != 1:
        sys.exit("bench: the session ran Phase A %d times" % counters["phase_a_runs"])
    base = ["--manifest-path", manifest]
    cold_times = [cold([cli, "graph"] + base, runs),
                  cold([cli, "context", "--kind", "function", "--target", target] + base, runs),
                  cold([cli, "test"] + base, runs)]
    floor = rehash_floor(manifest, runs)
    print(" ".join("%.3f" % v for v in warm + cold_times + [floor, rate]))


if __name__ == "__main__":
    main()
