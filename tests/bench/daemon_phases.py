#!/usr/bin/env python3
"""daemon_phases.py SEMAPRAXD PROJECT [MODULE]: one `semapraxd --stdio`
session on a project made by tests/bench/gen_project.py: workspace/open,
graph, context (of module MODULE, default m500, depth 2) and test, in turn.
After each answer prints the answer's bytes and the daemon's resident set
(VmRSS) and peak (VmHWM) from /proc, the peak also as a multiple of the .spx
source bytes. Linux only; Python 3 standard library only; not part of ctest
(docs/performance.md)."""
import json
import os
import subprocess
import sys


def main():
    daemon, project = sys.argv[1:3]
    module = sys.argv[3] if len(sys.argv) > 3 else "m500"
    source = sum(os.path.getsize(os.path.join(folder, name))
                 for folder, _, names in os.walk(os.path.join(project, "spx"))
                 for name in names if name.endswith(".spx"))
    process = subprocess.Popen([daemon, "--stdio", "--manifest-path",
                                os.path.join(project, "spx", "semaprax.toml"),
                                "--max-response-bytes", "1073741824"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    calls = [0]

    def call(method, params=None):
        calls[0] += 1
        request = {"jsonrpc": "2.0", "id": calls[0], "method": method}
        if params is not None:
            request["params"] = params
        process.stdin.write(json.dumps(request).encode() + b"\n")
        process.stdin.flush()
        answer = process.stdout.readline()
        response = json.loads(answer)
        if "result" not in response:
            sys.exit("daemon_phases: %s answered %s" % (method, answer[:300]))
        return len(answer), response["result"]

    def show(name, size):
        values = {}
        with open("/proc/%d/status" % process.pid, encoding="ascii") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0])
        print("%-8s %10d bytes  RSS %7d KiB  peak %7d KiB = %.2fx source" %
              (name, size, values["VmRSS"], values["VmHWM"], values["VmHWM"] * 1024 / source))

    size, opened = call("workspace/open")
    show("open", size)
    revisions = {key: opened[key] for key in ("project_revision", "workspace_revision")}
    show("graph", call("graph", revisions)[0])
    show("context", call("context", dict(revisions, target_kind="module", target=module,
                                         depth=2))[0])
    show("test", call("test", revisions)[0])
    process.stdin.close()
    process.wait()


if __name__ == "__main__":
    main()
