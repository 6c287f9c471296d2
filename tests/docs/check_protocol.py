#!/usr/bin/env python3
"""tests/docs/check_protocol.py: the protocol docs' example exchanges replay.

    check_protocol.py DOCS SEMAPRAX SEMAPRAXD

docs/protocol.md presents its v2 examples as one real session on the project
it shows, and its v3 example as one real session on a copy of
examples/hello; docs/transport-v1.md one real `semaprax serve` exchange. This
script writes those projects into a temporary folder, sends every request
the docs show (`> ` lines) to the real programs in the session's order (by
id; the notification where it stands; the edit on disk where the text says
it happened) and requires each response to be byte for byte the `< ` line
the docs give. The placeholders the docs define (`REVISIONS` stands for
`...`) are spelled out. The one value that cannot be the same on another
machine, a workspace revision (it covers file identities), is learned from
the responses: wherever the docs show a workspace revision, the one this run
answered at the same place is put in, in later requests and responses too
(and where an error's message cuts one short with "...", cut the same).
Exit 1 naming the first difference.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = "```"


def fail(message):
    print("check_protocol: " + message, file=sys.stderr)
    sys.exit(1)


def section(text, start, end):
    """The text from the heading line start up to the heading line end."""
    begin = text.index(start)
    return text[begin:text.index(end, begin)]


def blocks(text):
    """Every fenced block as (the paragraph before it, its lines)."""
    found = []
    lines = text.split("\n")
    i = 0
    before = []
    while i < len(lines):
        if lines[i].startswith(FENCE):
            j = i + 1
            while not lines[j].startswith(FENCE):
                j += 1
            found.append(("\n".join(before), lines[i + 1:j]))
            before = []
            i = j + 1
        else:
            before.append(lines[i])
            i += 1
    return found


def exchanges(lines):
    """The (request, response or None) pairs of a block's > and < lines."""
    pairs = []
    for line in lines:
        if line.startswith("> "):
            pairs.append([line[2:], None])
        elif line.startswith("< ") and pairs and pairs[-1][1] is None:
            pairs[-1][1] = line[2:]
    return pairs


WORKSPACE_REVISION = re.compile(r'"workspace_revision":"(sha256:[0-9a-f]{64})"')


class Session:
    """The placeholders of one docs section and the workspace revisions
    learned so far (the docs' value -> this run's)."""

    def __init__(self, section_text):
        self.placeholders = dict(
            re.findall(r"`([A-Z]+)` (?:stands )?for\s*`([^`]*)`", section_text))
        self.learned = {}

    def here(self, text):
        for name, value in self.placeholders.items():
            text = text.replace(name, value)
        for documented, actual in self.learned.items():
            text = text.replace(documented, actual)

        # An error's message repeats its detail cut at 200 bytes: a revision
        # cut there ends with "...", and this run's is cut at the same place.
        def cut(match):
            prefix = match.group(1)
            for documented, actual in self.learned.items():
                if len(prefix) > len("sha256:") and documented.startswith(prefix):
                    return actual[:len(prefix)] + "..."
            return match.group(0)

        return re.sub(r"(sha256:[0-9a-f]*)\.\.\.", cut, text)

    def learn(self, expected, answer):
        documented = WORKSPACE_REVISION.findall(self.here(expected))
        actual = WORKSPACE_REVISION.findall(answer)
        if len(documented) == len(actual):
            for doc_value, value in zip(documented, actual):
                self.learned.setdefault(doc_value, value)


def replay(argv, cwd, steps, session):
    """Run argv in cwd; steps are ("send", request, expected or None) and
    ("do", function). Check each answer as it comes."""
    process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for step in steps:
        if step[0] == "do":
            step[1]()
            continue
        _, request, expected = step
        request = session.here(request)
        process.stdin.write(request.encode("utf-8") + b"\n")
        process.stdin.flush()
        if expected is None:
            continue
        answer = process.stdout.readline().decode("utf-8")
        session.learn(expected, answer)
        expected = session.here(expected)
        if answer != expected + "\n":
            process.kill()
            fail("for the request\n  %s\nthe docs show\n  %s\nbut %s answered\n  %s"
                 % (request, expected, os.path.basename(argv[0]), answer.rstrip("\n")))
    process.stdin.close()
    rest = process.stdout.read()
    if process.wait() != 0 or rest:
        fail("%s did not end cleanly after the last request (exit %s, %r more)"
             % (argv[0], process.returncode, rest))


def sends(pairs):
    """Replay steps sending each (request, response) pair in turn."""
    return [("send", request, response) for request, response in pairs]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def request_id(request):
    """The numeric id of a request as the docs write it (they are not all
    JSON: REVISIONS, the broken frame); None for a notification."""
    match = re.search(r'"id":(\d+)', request)
    return int(match.group(1)) if match else None


def check_v2(doc, semapraxd, folder):
    methods = section(doc, "## v2 methods", "## v1 methods")
    found = blocks(methods)
    manifest = next(lines for _, lines in found if lines and lines[0].startswith("manifest ="))
    source = found[[lines for _, lines in found].index(manifest) + 1][1]
    project = os.path.join(folder, "v2")
    write(os.path.join(project, "semaprax.toml"), "\n".join(manifest) + "\n")
    write(os.path.join(project, "src", "app.spx"), "\n".join(source) + "\n")

    session, unhealthy, edit_before = [], [], None
    for before, lines in found:
        pairs = exchanges(lines)
        if "An unhealthy start" in before:
            unhealthy = pairs
            continue
        if "was changed on disk" in before:
            edit_before = request_id(pairs[0][0])
        session.extend(pairs)
    if not session or not unhealthy or edit_before is None:
        fail("docs/protocol.md no longer has the session, the unhealthy start and the edit")

    # The session's order: by id, a notification right after the request
    # the docs put it after.
    ordered = []
    for index, (request, response) in enumerate(session):
        key = request_id(request)
        if key is None:
            key = request_id(session[index - 1][0]) + 0.5
        ordered.append((key, request, response))
    ordered.sort(key=lambda item: item[0])

    def append_lf():
        with open(os.path.join(project, "src", "app.spx"), "a", encoding="utf-8") as f:
            f.write("\n")

    steps = []
    for key, request, response in ordered:
        if key == edit_before:
            steps.append(("do", append_lf))
        steps.append(("send", request, response))
    replay([semapraxd, "--stdio"], project, steps, Session(methods))
    replay([semapraxd, "--stdio", "--manifest-path", "missing.toml"], project,
           sends(unhealthy), Session(methods))
    return len(ordered) + len(unhealthy)


def check_v3(doc, examples, semapraxd, folder):
    part = section(doc, "## v3: `project/rename`", "## Non-claims")
    pairs = [pair for _, lines in blocks(part) for pair in exchanges(lines)]
    if not pairs:
        fail("docs/protocol.md no longer has the v3 session")
    project = os.path.join(folder, "v3")
    shutil.copytree(os.path.join(examples, "hello"), project)
    replay([semapraxd, "--stdio", "--allow-project-rename"], project,
           sends(pairs), Session(part))
    return len(pairs)


def check_v1(doc, semaprax, folder):
    part = section(doc, "## An exchange (a real run)", "Exit status 0")
    found = blocks(part)
    name = re.search(r"`([\w.]+\.spx)`:", part).group(1)
    write(os.path.join(folder, "v1", name), "\n".join(found[0][1]) + "\n")
    pairs = exchanges(found[1][1])
    replay([semaprax, "serve", name], os.path.join(folder, "v1"),
           sends(pairs), Session(part))
    return len(pairs)


def main():
    if len(sys.argv) != 4:
        fail("usage: check_protocol.py DOCS SEMAPRAX SEMAPRAXD")
    docs, semaprax, semapraxd = (os.path.abspath(argument) for argument in sys.argv[1:])
    with open(os.path.join(docs, "protocol.md"), encoding="utf-8") as f:
        protocol = f.read()
    with open(os.path.join(docs, "transport-v1.md"), encoding="utf-8") as f:
        transport_v1 = f.read()
    with tempfile.TemporaryDirectory() as folder:
        v2 = check_v2(protocol, semapraxd, folder)
        v3 = check_v3(protocol, os.path.join(os.path.dirname(docs), "examples"), semapraxd,
                      folder)
        v1 = check_v1(transport_v1, semaprax, folder)
    print("check_protocol: %d v2, %d v3 and %d v1 requests answered as the docs show"
          % (v2, v3, v1))


if __name__ == "__main__":
    main()
