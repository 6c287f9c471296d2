#!/usr/bin/env python3
# lsp_session.py DAEMON CLI MANIFEST MODULE_PATH PAIRS: the measuring half of
# tests/bench/lsp. Starts `DAEMON --lsp --manifest-path MANIFEST` over pipes
# (LSP's Content-Length framing), initializes it with the manifest's folder
# as rootUri, sends initialized, opens MODULE_PATH (a source of the project,
# relative to the manifest's folder) and waits for everything this causes
# (a documentSymbol request after it is answered only when the publishes
# before it are written). Then runs PAIRS alternating pairs: one edit, a
# didChange sending the module's full text, with an unknown function's call
# appended (odd edits) or the original text again (even edits), timed from
# the write of the didChange to the read of the publishDiagnostics for that
# document which reflects it (a diagnostic naming the unknown function, or
# an empty list); then the cold CLI, `CLI check --manifest-path MANIFEST`,
# timed from its spawn to its reaping (wall clock, as the edit is), so that
# a change in the machine's load falls on both halves of a pair. Prints one
# line: "edit_median edit_min edit_max check_median ratio_median ratio_min
# ratio_max" in seconds, ratio being check / edit per pair. Python 3
# standard library only.
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse

from transport_session import cold_run  # the cold CLI run, timed the same way

UNKNOWN = "bench_nosuch"


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            sys.exit("bench: semapraxd --lsp closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length is None:
        sys.exit("bench: a message without Content-Length")
    return json.loads(stream.read(length))


def main():
    daemon, cli, manifest, module_path, pairs = sys.argv[1:6]
    pairs = int(pairs)
    root = os.path.dirname(os.path.abspath(manifest))
    root_uri = "file://" + urllib.parse.quote(root)
    path = os.path.join(root, module_path)
    uri = "file://" + urllib.parse.quote(path)
    with open(path, encoding="utf-8") as source:
        clean = source.read()
    broken = clean + "\nfn bench_edit() -> int {\n    return %s(1);\n}\n" % UNKNOWN
    process = subprocess.Popen([daemon, "--lsp", "--manifest-path", manifest],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    next_id = [0]

    def send(message):
        process.stdin.write(frame(message))
        process.stdin.flush()

    def request(method, params):
        next_id[0] += 1
        message = {"jsonrpc": "2.0", "id": next_id[0], "method": method}
        if params is not None:
            message["params"] = params
        send(message)
        while True:
            message = read_message(process.stdout)
            if message.get("id") == next_id[0] and "method" not in message:
                if "result" not in message:
                    sys.exit("bench: %s answered %s" % (method, json.dumps(message)[:300]))
                return message["result"]

    def notify(method, params):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        send(message)

    request("initialize", {"processId": os.getpid(), "rootUri": root_uri, "capabilities": {}})
    notify("initialized", {})
    notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "semaprax",
                                                     "version": 1, "text": clean}})
    request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})

    edits, ratios, checks = [], [], []
    version = 1
    for pair in range(pairs):
        introduce = pair % 2 == 0
        version += 1
        start = time.perf_counter()
        notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": broken if introduce else clean}]})
        while True:
            message = read_message(process.stdout)
            if message.get("method") != "textDocument/publishDiagnostics":
                continue
            params = message["params"]
            if params["uri"] != uri:
                continue
            named = any(UNKNOWN in d["message"] for d in params["diagnostics"])
            if named if introduce else not params["diagnostics"]:
                break
            sys.exit("bench: edit %d published %s" % (pair, json.dumps(params)[:300]))
        edit = time.perf_counter() - start
        check = cold_run([cli, "check", "--manifest-path", manifest])
        edits.append(edit)
        checks.append(check)
        ratios.append(check / edit)

    request("shutdown", None)
    notify("exit", None)
    process.stdin.close()
    if process.wait() != 0:
        sys.exit("bench: semapraxd --lsp exited %d" % process.returncode)
    print("%.6f %.6f %.6f %.6f %.3f %.3f %.3f" % (
        statistics.median(edits), min(edits), max(edits), statistics.median(checks),
        statistics.median(ratios), min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
