#!/usr/bin/env python3
"""memory_returned.py ROOT SEMAPRAXD [LINES]: a daemon gives the memory of a large
answer back to the system before it waits for the next request
(docs/performance.md, "Memory after an answer").

On a generated project of about LINES lines (default 30000;
tests/bench/gen_project.py), a `semapraxd --stdio` session (with
--max-response-bytes 1073741824, room for a 1M-line graph) opens, answers `graph` (about 0.9 MB) and then
`ping`; the daemon's resident set (/proc/PID/status) is read after the open
(R0, and its peak so far H0), and after the graph: its peak (HWM) and what it
keeps (RSS). The graph is streamed (counted, then written in chunks), so
what it takes above the open (HWM - max(R0, H0)) is at most a quarter of its
own bytes; and of that at most a quarter, or 4 MiB, may stay (RSS - R0):
without the giving back nearly all of it stays. Exit 77 (skipped) where the
measure means nothing: no /proc, or a daemon not linked against glibc (musl
gives freed memory back by itself; the sanitizers bring their own
allocator). Python 3 standard library only."""
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77


def status_kib(pid):
    values = {}
    with open("/proc/%d/status" % pid, encoding="ascii") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def main():
    root, daemon = sys.argv[1:3]
    lines = sys.argv[3] if len(sys.argv) > 3 else "30000"
    if not os.path.exists("/proc/self/status"):
        print("memory_returned: no /proc: skipped")
        return SKIP
    with open(daemon, "rb") as binary:
        image = binary.read()
    if b"libc.so.6" not in image or b"__asan" in image:
        print("memory_returned: the daemon's C library is not glibc's (or it is sanitized): skipped")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="spx-memory-returned.") as work:
        subprocess.run([sys.executable, os.path.join(root, "tests/bench/gen_project.py"), work,
                        "--lines", lines], check=True, stdout=subprocess.DEVNULL)
        manifest = os.path.join(work, "spx", "semaprax.toml")
        process = subprocess.Popen([daemon, "--stdio", "--manifest-path", manifest,
                                    "--max-response-bytes", "1073741824"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)

        def call(method, params=None):
            request = {"jsonrpc": "2.0", "id": 1, "method": method}
            if params is not None:
                request["params"] = params
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            answer = process.stdout.readline()
            response = json.loads(answer)
            if "result" not in response:
                sys.exit("memory_returned: %s answered %s" % (method, answer[:300]))
            return len(answer), response["result"]

        _, opened = call("workspace/open")
        opened_rss, opened_peak = status_kib(process.pid)
        revisions = {k: opened[k] for k in ("project_revision", "workspace_revision")}
        graph_bytes, _ = call("graph", revisions)
        call("ping")
        kept_rss, peak = status_kib(process.pid)
        process.stdin.close()
        process.wait()
    taken, kept = peak - max(opened_rss, opened_peak), kept_rss - opened_rss
    print("memory_returned: graph of %d bytes; after open %d KiB, peak %d KiB, kept %d KiB "
          "(%d of %d KiB taken stay)" % (graph_bytes, opened_rss, peak, kept_rss, kept, taken))
    if taken * 1024 * 4 > graph_bytes:
        sys.exit("memory_returned: the graph took %d KiB, over a quarter of its %d bytes" %
                 (taken, graph_bytes))
    if kept * 4 > max(taken, 4 * 4096):
        sys.exit("memory_returned: more than a quarter of the graph's memory stayed")
    print("memory_returned: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
