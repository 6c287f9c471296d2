#!/usr/bin/env python3
"""tests/clients/walkthrough.py: runs the Python walk-through of
examples/clients/README.md exactly as written and checks that it prints
exactly the output the README shows.

    walkthrough.py REPOSITORY BINDIR

The first ```python block of the README is run with python3 from the
repository's root, with BINDIR (where semapraxd is) first on PATH; its
standard output must equal the ```text block that follows it.
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
    code = next(body for kind, body in blocks if kind == "python")
    index = [body for _kind, body in blocks].index(code)
    expected = next(body for kind, body in blocks[index + 1:] if kind == "text")
    environment = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    run = subprocess.run([sys.executable, "-c", code], cwd=repository, env=environment,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    sys.stderr.write(run.stderr.decode("utf-8", "replace"))
    actual = run.stdout.decode("utf-8")
    if run.returncode != 0 or actual != expected:
        print("the walk-through exited %d and printed:\n%s\nthe README shows:\n%s"
              % (run.returncode, actual, expected))
        return 1
    print("the walk-through printed exactly what the README shows (%d lines)"
          % len(expected.splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
