#!/usr/bin/env python3
"""tests/clients/walkthrough.py: runs the Python blocks of
examples/clients/README.md (the walk-through, and reopen on drift) exactly
as written and checks that each prints exactly the output the README shows.

    walkthrough.py REPOSITORY BINDIR

Each ```python block of the README is run with python3 from the
repository's root (it may only read there: ci/test-deb runs it in
/usr/share/semaprax), with BINDIR (where semapraxd is) first on PATH; its
standard output must equal the first ```text block after it.
"""
import os
import re
import subprocess
import sys


def main():
    repository, bindir = sys.argv[1], sys.argv[2]
    with open(os.path.join(repository, "examples/clients/README.md"), encoding="utf-8") as f:
        readme = f.read()
    blocks = re.findall(r"```(\w+)\n(.*?)```", readme, re.S)
    environment = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    checked = 0
    for index, (kind, code) in enumerate(blocks):
        if kind != "python":
            continue
        expected = next(body for kind, body in blocks[index + 1:] if kind == "text")
        run = subprocess.run([sys.executable, "-c", code], cwd=repository, env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        sys.stderr.write(run.stderr.decode("utf-8", "replace"))
        actual = run.stdout.decode("utf-8")
        if run.returncode != 0 or actual != expected:
            print("python block %d exited %d and printed:\n%s\nthe README shows:\n%s"
                  % (checked + 1, run.returncode, actual, expected))
            return 1
        checked += 1
        print("python block %d printed exactly what the README shows (%d lines)"
              % (checked, len(expected.splitlines())))
    if checked < 2:
        print("the README has %d python blocks: the walk-through and reopen on drift expected"
              % checked)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
