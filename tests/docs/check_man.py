#!/usr/bin/env python3
"""tests/docs/check_man.py: the man pages say what the programs' help says.

    check_man.py MANDIR SEMAPRAX SEMAPRAXD

For each program: every option (--name, -h) and every command that its help
texts name (`semaprax --help`, `semaprax help COMMAND` for each command,
`semapraxd --help`) appears in its man page, and the page's title line names
the version that --version prints. Exit 1, naming what is missing.
"""
import os
import re
import subprocess
import sys


def run(*argv):
    return subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")


def page_text(path):
    """The roff source with its escapes for - undone."""
    with open(path, encoding="utf-8") as f:
        return f.read().replace("\\-", "-")


def words(text):
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*[a-z]|-h)(?![\w-])", text))


def check(name, page, helps, version, problems):
    text = page_text(page)
    for option in sorted(set().union(*(words(h) for h in helps))):
        if not re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text):
            problems.append("%s: the help names %s, the man page does not" % (name, option))
    title = next(line for line in text.splitlines() if line.startswith(".TH "))
    if '"%s"' % version not in title:
        problems.append("%s: the man page's title %r does not name %r" % (name, title, version))


def main():
    mandir, semaprax, semapraxd = sys.argv[1:4]
    problems = []
    usage = run(semaprax, "--help")
    commands = re.findall(r"^  ([a-z]+) {2,}", usage.split("commands:")[1].split("\n\n")[0], re.M)
    if len(commands) < 7:
        problems.append("semaprax --help lists only %r" % commands)
    helps = [usage] + [run(semaprax, "help", command) for command in commands if command != "help"]
    page = os.path.join(mandir, "semaprax.1")
    for command in commands:
        if not re.search(r"^\.B %s\b" % command, page_text(page), re.M):
            problems.append("semaprax: command %r has no .B entry in the man page" % command)
    check("semaprax", page, helps, run(semaprax, "--version").strip(), problems)
    check("semapraxd", os.path.join(mandir, "semapraxd.1"), [run(semapraxd, "--help")],
          run(semapraxd, "--version").strip().replace("semapraxd", "semaprax"), problems)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("the man pages name every command and option of the help texts (%d commands)"
          % len(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
