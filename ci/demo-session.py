#!/usr/bin/env python3
"""ci/demo-session.py: the scripted daemon session of ci/demo.

Starts `semapraxd --stdio` on a manifest, sends protocol, workspace/open,
check, graph, a context query, test and shutdown one line at a time, and
prints each request and its response, indented. Exits 1 if the daemon
answers any of them with an error or does not exit 0 after shutdown.

    python3 ci/demo-session.py DAEMON MANIFEST
"""
import json
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    daemon, manifest = sys.argv[1], sys.argv[2]
    process = subprocess.Popen([daemon, "--stdio", "--manifest-path", manifest],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    failed = False
    next_id = 1

    def call(method, params=None):
        nonlocal next_id, failed
        request = {"jsonrpc": "2.0", "id": next_id, "method": method}
        if params is not None:
            request["params"] = params
        next_id += 1
        line = json.dumps(request, separators=(",", ":"))
        print("\n--> " + line)
        process.stdin.write(line.encode() + b"\n")
        process.stdin.flush()
        answer = process.stdout.readline()
        if not answer:
            print("<-- (no response: the daemon ended)")
            failed = True
            return {}
        response = json.loads(answer)
        print("<-- " + json.dumps(response, indent=2, ensure_ascii=False))
        if "error" in response:
            failed = True
        return response.get("result", {})

    call("protocol")
    opened = call("workspace/open")
    revisions = {"project_revision": opened.get("project_revision", ""),
                 "workspace_revision": opened.get("workspace_revision", "")}
    call("check", revisions)
    call("graph", revisions)
    call("context", dict(revisions, target_kind="function", target="math.fib",
                         direction="both", depth=1))
    call("test", revisions)
    call("workspace/status")
    call("shutdown")
    process.stdin.close()
    status = process.wait()
    print("\nsemapraxd exited with status %d" % status)
    return 1 if failed or status != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
