#!/usr/bin/env python3
# soak_session.py DAEMON MANIFEST REQUESTS: the client of tests/bench/soak.
# Starts `semapraxd --stdio` on MANIFEST, opens the session, then sends
# REQUESTS mixed requests in one session, pipelined by a writer thread while
# the responses are read: ping, check, context (module app, depth 2) and
# test (max_steps 2000), plus one request in 100 that asks for an error on
# purpose (an unknown method, -32601, or wrong revisions, -32012). Every
# response is checked against the request of its id: a result where one was
# asked for, exactly the error asked for otherwise. The daemon's VmRSS is
# read from /proc right after open, after a warm-up of 10,000 requests,
# every 100,000 after, and at the end; the growth is measured from the
# warm-up (the first requests fill caches: the graph's text, pools). Prints a report; exits 1 on any unexpected response or
# RSS growth of 1 MiB or more. Python 3 standard library only.
import json
import os
import subprocess
import sys
import threading
import time

WARMUP = 10000
SAMPLE = 100000


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def main():
    daemon, manifest, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
    process = subprocess.Popen([daemon, "--stdio", "--manifest-path", manifest],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 20)
    process.stdin.write(b'{"id":0,"jsonrpc":"2.0","method":"workspace/open"}\n')
    process.stdin.flush()
    opened = json.loads(process.stdout.readline())["result"]
    opened_rss = rss_kib(process.pid)
    revisions = '"project_revision":"%s","workspace_revision":"%s"' % (
        opened["project_revision"], opened["workspace_revision"])
    kinds = [
        ("ping", '"method":"ping"', None),
        ("check", '"method":"check","params":{%s}' % revisions, None),
        ("context", '"method":"context","params":{%s,"target_kind":"module","target":"app",'
                    '"depth":2}' % revisions, None),
        ("test", '"method":"test","params":{%s,"max_steps":2000}' % revisions, None),
    ]
    unknown = ("unknown method", '"method":"no/such"', -32601)
    mismatch = ("wrong revisions", '"method":"check","params":{"project_revision":"0",'
                '"workspace_revision":"0"}', -32012)

    def request_kind(n):
        if n % 100 == 99:
            return mismatch if n % 200 == 199 else unknown
        return kinds[n % 4]

    def writer():
        batch = []
        for n in range(1, total + 1):
            _, body, _ = request_kind(n)
            batch.append(b'{"id":%d,"jsonrpc":"2.0",%s}\n' % (n, body.encode()))
            if len(batch) == 256:
                process.stdin.write(b"".join(batch))
                batch = []
        process.stdin.write(b"".join(batch))
        process.stdin.write(b'{"id":0,"jsonrpc":"2.0","method":"shutdown"}\n')
        process.stdin.flush()

    thread = threading.Thread(target=writer, daemon=True)
    samples = []
    counts = {}
    unexpected = []
    start = time.perf_counter()
    thread.start()
    warm_start = None
    for n in range(1, total + 1):
        line = process.stdout.readline()
        if not line:
            unexpected.append("the daemon stopped answering after %d responses" % (n - 1))
            break
        name, _, wanted = request_kind(n)
        counts[name] = counts.get(name, 0) + 1
        if wanted is None:
            ok = line.startswith(b'{"id":%d,"jsonrpc":"2.0","result":' % n)
        else:
            ok = line.startswith(b'{"error":{"code":%d,' % wanted) and \
                b'"id":%d,' % n in line
        if not ok and len(unexpected) < 10:
            unexpected.append("request %d (%s): %s" % (n, name, line[:300]))
        if n == WARMUP:
            warm_start = (time.perf_counter(), rss_kib(process.pid))
            samples.append((n, warm_start[1]))
        elif n > WARMUP and n % SAMPLE == 0:
            samples.append((n, rss_kib(process.pid)))
    end = time.perf_counter()
    final_rss = rss_kib(process.pid)
    thread.join()
    last = process.stdout.readline()
    process.stdin.close()
    status = process.wait()
    if not last.startswith(b'{"id":0,"jsonrpc":"2.0","result":{"state":"shutdown"}}'):
        unexpected.append("shutdown answered %r" % last[:200])
    if status != 0:
        unexpected.append("exit status %d" % status)

    elapsed = end - start
    print("requests: %d in %.1f s, %.0f requests/s (%s)" % (
        total, elapsed, total / elapsed,
        ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items()))))
    print("RSS (KiB) after open: %d; by request: " % opened_rss +
          ", ".join("%d: %d" % s for s in samples) +
          ", end: %d" % final_rss)
    growth = final_rss - samples[0][1] if samples else 0
    print("RSS growth after the warm-up: %d KiB (target: under 1024)" % growth)
    for problem in unexpected:
        print("unexpected: " + problem)
    print("unexpected responses: %d" % len(unexpected))
    sys.exit(1 if unexpected or growth >= 1024 else 0)


if __name__ == "__main__":
    main()
