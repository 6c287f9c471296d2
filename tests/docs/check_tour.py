#!/usr/bin/env python3
"""tests/docs/check_tour.py: the tour's program runs as written.

    check_tour.py TOUR_MD SEMAPRAX

docs/tour.md builds one project step by step. Its HTML comments
`<!-- tour: ACTION ... -->` say what each following code block does, and
this script replays them in a temporary folder:

    new NAME              semaprax new NAME, then work inside NAME
    file PATH             the next code block is the whole of PATH
    append PATH           the next code block is added at the end of PATH
    replace PATH fn NAME  the next code block replaces function NAME in PATH
    delete PATH           PATH is removed
    succeeds ARGS...      semaprax ARGS exits 0
    expect ARGS...        semaprax ARGS exits 0 and prints the next code block

Exit 1 naming the first step whose command fails or prints something else.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

ACTION = re.compile(r"<!-- tour: (.*?) -->")
FENCE = re.compile(r"^```")


def steps(text):
    """(action words, the code block after it or None), in order."""
    lines = text.splitlines(keepends=True)
    out = []
    i = 0
    while i < len(lines):
        match = ACTION.search(lines[i])
        i += 1
        if not match:
            continue
        words = shlex.split(match.group(1))
        block = None
        if words[0] in ("file", "append", "replace", "expect"):
            while not FENCE.match(lines[i]):
                i += 1
            i += 1
            start = i
            while not FENCE.match(lines[i]):
                i += 1
            block = "".join(lines[start:i])
            i += 1
        out.append((words, block))
    return out


def replace_function(source, name, block):
    """source with the top-level function `name` (from its `fn` line, and
    the comment lines right above it, to its closing brace at column 0)
    replaced by block."""
    lines = source.splitlines(keepends=True)
    head = re.compile(r"^(export )?fn " + re.escape(name) + r"\(")
    start = next(i for i, line in enumerate(lines) if head.match(line))
    while start > 0 and lines[start - 1].startswith("//"):
        start -= 1
    end = next(i for i in range(start, len(lines)) if lines[i].rstrip("\r\n") == "}")
    return "".join(lines[:start]) + block + "".join(lines[end + 1:])


def main():
    tour, semaprax = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(tour, encoding="utf-8") as f:
        plan = steps(f.read())
    if not plan:
        sys.exit("check_tour: %s has no tour steps" % tour)
    with tempfile.TemporaryDirectory(prefix="spx-tour-") as top:
        folder = top
        for number, (words, block) in enumerate(plan, 1):
            what = "step %d (%s)" % (number, " ".join(words))
            action, rest = words[0], words[1:]
            path = os.path.join(folder, rest[0]) if rest else None
            if action == "new":
                subprocess.run([semaprax, "new", rest[0]], cwd=folder, check=True,
                               stdout=subprocess.DEVNULL)
                folder = os.path.join(folder, rest[0])
            elif action == "file":
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(block)
            elif action == "append":
                with open(path, "a", encoding="utf-8", newline="\n") as f:
                    f.write("\n" + block)
            elif action == "replace":
                with open(path, encoding="utf-8") as f:
                    source = f.read()
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(replace_function(source, rest[2], block))
            elif action == "delete":
                os.remove(path)
            elif action in ("succeeds", "expect"):
                done = subprocess.run([semaprax] + rest, cwd=folder, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
                out = done.stdout.decode("utf-8").replace("\r\n", "\n")
                if done.returncode != 0:
                    sys.exit("check_tour: %s exited %d:\n%s%s" % (what, done.returncode, out,
                                                                   done.stderr.decode("utf-8")))
                if action == "expect" and out != block:
                    sys.exit("check_tour: %s printed:\n%s\nnot:\n%s" % (what, out, block))
            else:
                sys.exit("check_tour: %s: unknown action %r" % (what, action))
        print("check_tour: %d steps replayed" % len(plan))


if __name__ == "__main__":
    main()
