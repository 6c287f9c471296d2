#!/usr/bin/env python3
"""tests/docs/check_protocol.py: the protocol docs' example exchanges replay.

    check_protocol.py DOCS SEMAPRAX SEMAPRAXD

docs/protocol.md presents its v2 examples as one real session on the project
it shows; docs/transport-v1.md one real `semaprax serve` exchange. This
script writes those projects into a temporary folder, sends every request
the docs show (`> ` lines) to the real programs in the session's order (by
id; the notification where it stands; the edit on disk where the text says
it happened) and requires each response to be byte for byte the `< ` line
the docs give. The one value that cannot be the same on another machine,
the workspace revision (it covers file identities), is put in where the docs
have theirs, and `REVISIONS` is spelled out as the docs define it. The v3
example is shortened in the docs and is not replayed here (the rename
process tests check that transaction). Exit 1 naming the first difference.
"""
import json
import os
import re
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


def replay(argv, cwd, steps):
    """Run argv in cwd; steps are ("send", request, expected or None) and
    ("do", function). Check each answer as it comes."""
    process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for step in steps:
        if step[0] == "do":
            step[1]()
            continue
        _, request, expected = step
        process.stdin.write(request.encode("utf-8") + b"\n")
        process.stdin.flush()
        if expected is None:
            continue
        answer = process.stdout.readline().decode("utf-8")
        if answer != expected + "\n":
            process.kill()
            fail("for the request\n  %s\nthe docs show\n  %s\nbut %s answered\n  %s"
                 % (request, expected, os.path.basename(argv[0]), answer.rstrip("\n")))
    process.stdin.close()
    rest = process.stdout.read()
    if process.wait() != 0 or rest:
        fail("%s did not end cleanly after the last request (exit %s, %r more)"
             % (argv[0], process.returncode, rest))


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

    definition = re.search(r"`REVISIONS` stands for\s*`([^`]*)`", methods).group(1)
    documented_workspace = re.search(r'"workspace_revision":"([^"]*)"', definition).group(1)

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

    # The workspace revision of this run, from its own workspace/open.
    probe = subprocess.run(
        [semapraxd, "--stdio"], cwd=project, stdout=subprocess.PIPE, check=True,
        input=b'{"jsonrpc":"2.0","id":1,"method":"workspace/open"}\n')
    actual_workspace = json.loads(probe.stdout)["result"]["workspace_revision"]

    def here(text):
        return text.replace("REVISIONS", definition).replace(documented_workspace,
                                                             actual_workspace)

    def append_lf():
        with open(os.path.join(project, "src", "app.spx"), "a", encoding="utf-8") as f:
            f.write("\n")

    steps = []
    for key, request, response in ordered:
        if key == edit_before:
            steps.append(("do", append_lf))
        steps.append(("send", here(request), here(response) if response else None))
    replay([semapraxd, "--stdio"], project, steps)
    replay([semapraxd, "--stdio", "--manifest-path", "missing.toml"], project,
           [("send", request, response) for request, response in unhealthy])
    return len(ordered) + len(unhealthy)


def check_v1(doc, semaprax, folder):
    part = section(doc, "## An exchange (a real run)", "Exit status 0")
    found = blocks(part)
    name = re.search(r"`([\w.]+\.spx)`:", part).group(1)
    write(os.path.join(folder, "v1", name), "\n".join(found[0][1]) + "\n")
    pairs = exchanges(found[1][1])
    replay([semaprax, "serve", name], os.path.join(folder, "v1"),
           [("send", request, response) for request, response in pairs])
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
        v1 = check_v1(transport_v1, semaprax, folder)
    print("check_protocol: %d v2 and %d v1 requests answered as the docs show" % (v2, v1))


if __name__ == "__main__":
    main()
