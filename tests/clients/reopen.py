#!/usr/bin/env python3
"""tests/clients/reopen.py: the Python client's reopen on drift and error
text against the real daemon, on a copy of examples/hello in a temporary
folder that it edits between requests.

    reopen.py REPOSITORY BINDIR

- reopen_on_drift=True: a check after a source was edited is answered by a
  new daemon (the old one exits 0) with new revisions, the reopen is in
  client.reopens and given to on_reopen, the next request needs none; two
  edits make two reopens.
- A rename refused on drift is not sent again, even with the option.
- Without it: SemapraxError -32013 with data.drift, whose text and advice
  say to start a new session; later requests are refused the same way.
- The text of an error: data.detail, else data.reason, else code and
  message (today's daemon sends no data for -32602: both are accepted).
Exits 1 at the first check that fails.
"""
import os
import shutil
import sys
import tempfile


def main():
    repository, bindir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(repository, "examples/clients/python"))
    from semaprax_client import Client, SemapraxError, describe_error

    daemon = os.path.join(bindir, "semapraxd")
    folder = tempfile.mkdtemp()
    try:
        project = shutil.copytree(os.path.join(repository, "examples/hello"),
                                  os.path.join(folder, "hello"))
        manifest = os.path.join(project, "semaprax.toml")
        drift = [{"path": "src/math.spx", "reason": "content_changed"}]

        def edit(line):
            with open(os.path.join(project, "src/math.spx"), "a", encoding="utf-8") as source:
                source.write("// %s\n" % line)

        # With the option.
        told = []
        with Client(manifest, daemon=daemon, reopen_on_drift=True, on_reopen=told.append) as client:
            before = client.open()
            assert client.check() == {"admitted": True, "diagnostics": []}
            first_daemon = client._process
            edit("one more line")
            assert client.check() == {"admitted": True, "diagnostics": []}
            assert first_daemon.wait(timeout=30) == 0, "the invalidated daemon exits 0"
            assert client._process is not first_daemon
            assert told == client.reopens and len(told) == 1, told
            reopen = told[0]
            assert reopen.method == "check"
            assert reopen.old_revisions == before
            assert reopen.new_revisions == client.revisions
            assert reopen.new_revisions["workspace_revision"] != before["workspace_revision"]
            assert reopen.drift == drift
            assert client.graph()["nodes"] and len(client.reopens) == 1
            edit("and one more")
            near = client.context("function", "math.fib", direction="out")
            assert [node["id"] for node in near["nodes"]][0] == "function:math.fib"
            assert len(client.reopens) == 2 and client.reopens[1].method == "context"
            assert client.reopens[1].old_revisions == reopen.new_revisions
            assert client.shutdown() == {"state": "shutdown"}
        print("reopen_on_drift: answered by a new daemon each time, reopens reported:",
              before["workspace_revision"], "->", client.revisions["workspace_revision"])

        # Without it.
        with Client(manifest, daemon=daemon) as client:
            client.open()
            edit("and another")
            try:
                client.check()
                raise AssertionError("a check after an edit must be refused")
            except SemapraxError as error:
                refusal = error
            assert refusal.code == -32013 and refusal.message.startswith("session invalidated: ")
            assert refusal.data["drift"] == drift
            assert "(drift: src/math.spx content_changed); " in str(refusal), str(refusal)
            assert "start a new session" in str(refusal) and "start a new session" in refusal.advice
            try:
                client.graph()
                raise AssertionError("an invalidated session must refuse every later request")
            except SemapraxError as error:
                assert error.code == -32013
            assert client.reopens == []
        assert client._process.returncode == 0
        print("without reopen_on_drift:", refusal)

        # A rename is never sent again, even with the option.
        with Client(manifest, daemon=daemon, reopen_on_drift=True,
                    allow_project_rename=True) as client:
            client.open()
            edit("before a rename")
            try:
                client.rename("math.fib", "fibonacci")
                raise AssertionError("a rename after an edit must be refused")
            except SemapraxError as error:
                assert error.code == -32013 and "start a new session" in str(error)
            assert client.reopens == []
        with open(os.path.join(project, "src/math.spx"), encoding="utf-8") as source:
            text = source.read()
        assert "fn fib(" in text and "fibonacci" not in text
        print("reopen_on_drift: a rename refused on drift is not sent again")

        # The error's text.
        assert describe_error(-32602, "invalid params") == "-32602 invalid params"
        assert describe_error(-32602, "invalid params", {"reason": "unknown_target"}) == \
            "-32602 invalid params: unknown_target"
        assert describe_error(-32602, "invalid params",
                              {"reason": "unknown_target", "detail": "no such function"}) == \
            "-32602 invalid params: no such function"
        assert describe_error(-32602, "invalid params", ["not", "a", "dict"]) == \
            "-32602 invalid params"
        with Client(manifest, daemon=daemon) as client:
            client.open()
            try:
                client.context("function", "math.nope")
                raise AssertionError("an unknown target must be refused")
            except SemapraxError as error:
                unknown = error
        assert unknown.code == -32602 and unknown.message.startswith("invalid params: ")
        assert unknown.advice is None
        why = isinstance(unknown.data, dict) and (unknown.data.get("detail")
                                                  or unknown.data.get("reason"))
        assert str(unknown) == ("-32602 invalid params: %s" % why if why
                                else "-32602 invalid params"), str(unknown)
        print("error text:", unknown)
    finally:
        shutil.rmtree(folder)
    print("reopen.py: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
