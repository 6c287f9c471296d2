#!/usr/bin/env python3
"""tests/examples/roundtrip.py: a language v3 project with a data file and
per-test limits (a copy of examples/wordfreq) through every front end, as a
user would drive them: the CLI's check, graph, context, run (arguments,
--envelope), test, verify (of both envelopes, and after the data changed),
fmt; then `semapraxd --stdio` (open, graph, context, test, then drift on the
data file) and `semapraxd --mcp` (test, then an edit to the data file
noticed and re-opened). Each step prints what it checked; the first
mismatch exits 1.

    roundtrip.py REPOSITORY SEMAPRAX SEMAPRAXD
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

DATA = "data/passage.txt"


class Mismatch(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise Mismatch(what)
    print("ok: " + what)


def cli(semaprax, project, *arguments):
    """Runs semaprax ARGUMENTS... --manifest-path PROJECT/semaprax.toml (its
    arguments after -- kept last): (exit status, stdout, stderr)."""
    arguments = list(arguments)
    tail = []
    if "--" in arguments:
        at = arguments.index("--")
        arguments, tail = arguments[:at], arguments[at:]
    command = [semaprax] + arguments + ["--manifest-path", os.path.join(project, "semaprax.toml")]
    run = subprocess.run(command + tail, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         timeout=120)
    return run.returncode, run.stdout.decode("utf-8"), run.stderr.decode("utf-8")


def check_cli(semaprax, project, work):
    status, out, err = cli(semaprax, project, "check")
    expect(status == 0, "check admits the project (%s)" % (out + err).strip())

    status, out, _ = cli(semaprax, project, "graph")
    graph = json.loads(out)
    data = [n for n in graph["nodes"] if n["id"] == "data:passage"]
    expect(status == 0 and data and data[0]["path"] == DATA, "graph has the node data:passage")
    readers = sorted(e["from"] for e in graph["edges"]
                     if e["kind"] == "reads" and e["to"] == "data:passage")
    expect(readers == ["function:app.main", "function:app.test_passage"],
           "graph: app.main and app.test_passage read data:passage")

    status, out, _ = cli(semaprax, project, "context", "--kind", "data", "--target", "passage")
    context = json.loads(out)
    expect(status == 0 and "function:app.main" in out and "data:passage" in out,
           "context of the data file reaches its reader (%d nodes)" % len(context["nodes"]))

    run_envelope = os.path.join(work, "run.json")
    status, plain, _ = cli(semaprax, project, "run", "--", "3")
    expect(status == 0 and plain.count("\n   ") >= 2, "run -- 3 prints a report")
    status, out, _ = cli(semaprax, project, "run", "--envelope", run_envelope, "--", "3")
    with open(run_envelope, encoding="utf-8") as f:
        envelope = json.load(f)
    expect(status == 0 and out == plain, "run --envelope prints the same report")
    expect(envelope["schema"] == "semaprax.project-run.v1" and envelope["run"]["args"] == ["3"]
           and envelope["run"]["limits"]["max_steps"] == 50000000
           and envelope["run"]["output"] == plain,
           "the run envelope records the arguments, [limits]' max_steps and the output")
    status, out, err = cli(semaprax, project, "verify", run_envelope)
    expect(status == 0, "verify re-runs the run envelope (%s)" % (out + err).strip())

    test_envelope = os.path.join(work, "test.json")
    status, out, err = cli(semaprax, project, "test", "--envelope", test_envelope)
    with open(test_envelope, encoding="utf-8") as f:
        tests = {t["name"]: t for t in json.load(f)["tests"]}
    expect(status == 0 and all(t["outcome"] == "passed" for t in tests.values())
           and len(tests) == 7, "test: the 7 tests pass")
    expect(tests["generated"]["limits"]["max_steps"] == 5000000
           and tests["count"]["limits"]["max_steps"] == 50000000,
           "each test runs under its effective limits (its own key, else [limits])")
    status, out, err = cli(semaprax, project, "verify", test_envelope)
    expect(status == 0, "verify re-runs the test envelope")

    path = os.path.join(project, DATA)
    with open(path, "rb") as f:
        original = f.read()
    with open(path, "ab") as f:
        f.write(b"one more line\n")
    status, out, err = cli(semaprax, project, "verify", run_envelope)
    expect(status != 0 and DATA in out + err,
           "verify refuses the run envelope once the data file changed, naming it")
    with open(path, "wb") as f:
        f.write(original)

    status, out, err = cli(semaprax, project, "fmt", "--check")
    expect(status == 0, "fmt --check: the example is in canonical form")
    source = os.path.join(project, "src/report.spx")
    with open(source, "rb") as f:
        canonical = f.read()
    with open(source, "wb") as f:
        f.write(canonical.replace(b"\n    ", b"\n  "))
    status, out, err = cli(semaprax, project, "fmt", "--check")
    expect(status != 0 and "src/report.spx" in out + err, "fmt --check names the reindented file")
    status, out, err = cli(semaprax, project, "fmt")
    with open(source, "rb") as f:
        expect(status == 0 and f.read() == canonical, "fmt writes it back in canonical form")


class Session:
    """One semapraxd over pipes, a JSON-RPC message per line."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, message):
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def call(self, method, params=None):
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.next_id += 1
        self.send(request)
        line = self.process.stdout.readline()
        if not line:
            raise Mismatch("%s: the daemon ended without answering" % method)
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def check_daemon(semapraxd, project):
    session = Session([semapraxd, "--stdio", "--manifest-path",
                       os.path.join(project, "semaprax.toml")])
    session.call("protocol")
    opened = session.call("workspace/open")["result"]
    revisions = {"project_revision": opened["project_revision"],
                 "workspace_revision": opened["workspace_revision"]}
    graph = session.call("graph", revisions)["result"]
    expect(any(n["id"] == "data:passage" for n in graph["nodes"]),
           "semapraxd --stdio: graph has data:passage")
    context = session.call("context", dict(revisions, target_kind="data", target="passage",
                                           direction="both", depth=1))["result"]
    expect(any(n["id"] == "function:app.main" for n in context["nodes"]),
           "semapraxd --stdio: context of the data file")
    envelope = session.call("test", revisions)["result"]["envelope"]
    expect(envelope["summary"]["passed"] == 7
           and envelope["subject"]["data"][0]["path"] == DATA,
           "semapraxd --stdio: the 7 tests pass; the envelope's subject lists the data file")
    with open(os.path.join(project, DATA), "ab") as f:
        f.write(b"changed behind the session's back\n")
    answer = session.call("graph", revisions)
    expect("error" in answer and DATA in json.dumps(answer["error"]),
           "semapraxd --stdio: drift on the data file ends the session, naming it")
    session.close()


def check_mcp(semapraxd, project):
    session = Session([semapraxd, "--mcp", "--manifest-path",
                       os.path.join(project, "semaprax.toml")])
    session.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "roundtrip", "version": "1"}})
    session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    result = session.call("tools/call", {"name": "test", "arguments": {}})["result"]
    tests = result["structuredContent"]
    expect(not result.get("isError") and tests["envelope"]["summary"]["passed"] == 7
           and result["content"][0]["text"].startswith("Tests: 7 of 7 passed"),
           "semapraxd --mcp: the test tool passes the 7 tests")
    first = tests["project_revision"]
    with open(os.path.join(project, DATA), "ab") as f:
        f.write(b"and one more edit\n")
    result = session.call("tools/call", {"name": "check", "arguments": {}})["result"]
    checked = result["structuredContent"]
    expect(checked["revision_changed"] and checked["project_revision"] != first,
           "semapraxd --mcp: an edit to the data file is noticed and the project re-opened")
    expect(session.close() == 0, "semapraxd --mcp exits 0 at the end of its input")


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    repository, semaprax, semapraxd = sys.argv[1:]
    work = tempfile.mkdtemp(prefix="spx-roundtrip-")
    try:
        project = os.path.join(work, "wordfreq")
        shutil.copytree(os.path.join(repository, "examples/wordfreq"), project)
        check_cli(semaprax, project, work)
        check_daemon(semapraxd, project)
        shutil.rmtree(project)
        shutil.copytree(os.path.join(repository, "examples/wordfreq"), project)
        check_mcp(semapraxd, project)
    except Mismatch as mismatch:
        print("FAILED: %s" % mismatch)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
