#!/usr/bin/env python3
"""tests/schema/validate.py: checks the JSON Schemas of docs/schema/ against
what the programs really say.

    validate.py SCHEMAS [--transcripts DIR --suite NAME...] [--v1-golden DIR]
                [--document FILE...]

- Every schema must itself be a valid draft 2020-12 schema.
- --transcripts: the sessions recorded by the process tests
  (tests/support/daemon.c, SPX_TRANSCRIPT_DIR), one folder per suite; every
  suite named by --suite must have recorded at least one session. Each
  response line is paired with the request frame it answers, then checked:
  the response frame (response.json and error.json for v2 and v3,
  v1/response.json and v1/error.json for v1: methods.json "responses"), the
  result against its method's schema (methods.json), the request's params
  against the params schema when it got a result, and an error code against
  the codes its method can give. Every v2 or v3 error but -32001 must carry
  data.reason, one of its code's documented reasons, and a data.detail.
  Every method of v2 must have been seen with a result, and every error
  code of v2 and v3 but -32603 (a bug; never expected) at least once.
- The reasons of error.json are the table of docs/protocol.md ("Reasons"),
  code by code.
- --v1-golden: the byte-frozen v1 transcripts (tests/golden/v1/cases/*/in
  and out), which test_serve compares with the real `semaprax serve`.
- --document: a CLI document (graph, context, envelope), by its "schema".

Exits 1 on any mismatch, printing each; prints what it checked.
Needs python3-jsonschema (Debian's 4.10 has Draft202012Validator).
"""
import argparse
import json
import os
import sys
import warnings

import jsonschema

warnings.filterwarnings("ignore", category=DeprecationWarning)

PREFIX = "urn:semaprax:schema:"
DEFAULT_MAX_REQUEST = 1048576


class Schemas:
    def __init__(self, folder):
        self.folder = folder
        self.store = {}
        for root, _dirs, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith(".json") or name == "methods.json":
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    schema = json.load(f)
                relative = os.path.relpath(path, folder).replace(os.sep, "/")
                if schema.get("$id") != PREFIX + relative:
                    raise SystemExit("%s: $id must be %s" % (path, PREFIX + relative))
                jsonschema.Draft202012Validator.check_schema(schema)
                self.store[schema["$id"]] = schema
        with open(os.path.join(folder, "methods.json"), encoding="utf-8") as f:
            self.methods = json.load(f)
        self.validators = {}
        # Each error code's documented reasons, from error.json's enums.
        self.reasons = {}
        for branch in self.store[PREFIX + "error.json"]["oneOf"]:
            code = branch["properties"]["code"]["const"]
            data = branch["properties"].get("data")
            if data:
                self.reasons[code] = data["properties"]["reason"]["enum"]

    def errors(self, relative, instance):
        validator = self.validators.get(relative)
        if validator is None:
            schema = self.store[PREFIX + relative]
            resolver = jsonschema.RefResolver.from_schema(schema, store=self.store)
            validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
            self.validators[relative] = validator
        return ["%s at /%s: %s" % (relative, "/".join(str(p) for p in e.absolute_path), e.message)
                for e in validator.iter_errors(instance)]


def strict_object(frame):
    """The frame as the daemon would decode it, or None when it would not
    (a malformed frame always gets an answer)."""
    if not frame or b"\r" in frame or b"\0" in frame:
        return None
    try:
        text = frame.decode("utf-8")
    except UnicodeDecodeError:
        return None

    def pairs(items):
        keys = [k for k, _v in items]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key")
        return dict(items)

    def no_constants(_name):
        raise ValueError("not JSON")

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=no_constants)
    except (ValueError, RecursionError):
        return None
    if "\\u0000" in text.lower():
        return None
    return value


def is_notification(frame):
    """A frame the transport neither answers nor runs: a valid request
    without id."""
    value = strict_object(frame)
    if not isinstance(value, dict) or "id" in value:
        return False
    if set(value) - {"jsonrpc", "method", "params"}:
        return False
    return (value.get("jsonrpc") == "2.0" and isinstance(value.get("method"), str)
            and ("params" not in value or isinstance(value["params"], dict)))


class Checker:
    def __init__(self, schemas):
        self.schemas = schemas
        self.failures = []
        self.responses = 0
        self.results = {}
        self.codes = {}
        self.framing = set(schemas.methods["framing_errors"])
        self.seen = set()  # (transport, frame, line) already checked: long sessions repeat them
        self.explained_codes = set()  # error codes seen from v2 and v3
        self.reasons = {}  # code -> the reasons seen

    def fail(self, where, message):
        self.failures.append("%s: %s" % (where, message))

    def check_response(self, where, transport, frame, line):
        self.responses += 1
        key = (transport, frame, line)
        if key in self.seen:
            self.count_again(transport, frame, line)
            return
        self.seen.add(key)
        try:
            response = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            self.fail(where, "response is not JSON (%s): %r" % (error, line[:200]))
            return
        frame_schema = self.schemas.methods["responses"][transport]
        for message in self.schemas.errors(frame_schema, response):
            self.fail(where, message)
        if transport != "semaprax.agent-transport.v1" and isinstance(response.get("error"), dict):
            self.check_reason(where, response["error"])
        request = strict_object(frame) if frame is not None else None
        method = request.get("method") if isinstance(request, dict) else None
        if isinstance(request, dict) and "id" in request and response.get("id") is not None \
                and request["id"] != response["id"]:
            self.fail(where, "response id %r answers request id %r: pairing lost"
                      % (response.get("id"), request["id"]))
            return
        table = self.schemas.methods["transports"][transport]
        if "result" in response:
            entry = table.get(method)
            if entry is None:
                self.fail(where, "a result for %r, not a method of %s" % (method, transport))
                return
            self.results.setdefault(transport, {}).setdefault(method, 0)
            self.results[transport][method] += 1
            for message in self.schemas.errors(entry["result"], response["result"]):
                self.fail(where + " " + method, message)
            params = request.get("params", {})
            for message in self.schemas.errors(entry["params"], params):
                self.fail(where + " " + method + " params", message)
        elif "error" in response:
            code = response["error"].get("code")
            self.codes[code] = self.codes.get(code, 0) + 1
            entry = table.get(method)
            if code not in self.framing and code != -32602 and (entry is None or code not in entry["errors"]):
                self.fail(where, "error %s for method %r, which methods.json does not list" % (code, method))

    def check_reason(self, where, error):
        """A v2 or v3 error says why: data.reason from its code's set, and
        data.detail (the schema says so too; this names what is missing)."""
        code = error.get("code")
        self.explained_codes.add(code)
        if code == -32001:
            return
        data = error.get("data")
        reason = data.get("reason") if isinstance(data, dict) else None
        detail = data.get("detail") if isinstance(data, dict) else None
        allowed = self.schemas.reasons.get(code, [])
        if not isinstance(reason, str):
            self.fail(where, "error %s has no data.reason" % code)
        elif reason not in allowed:
            self.fail(where, "error %s: data.reason %r is not one of %s" % (code, reason, allowed))
        else:
            self.reasons.setdefault(code, set()).add(reason)
        if not isinstance(detail, str) or not detail:
            self.fail(where, "error %s has no data.detail" % code)

    def count_again(self, transport, frame, line):
        """Count a response already checked, as check_response did."""
        response = json.loads(line.decode("utf-8"))
        if "result" in response:
            method = strict_object(frame).get("method")
            self.results[transport][method] += 1
        else:
            code = response["error"]["code"]
            self.codes[code] += 1

    def check_exchange(self, where, transport, sent, responses, max_request):
        """Pair the response lines with the LF-terminated frames in sent."""
        frames = []
        start = 0
        while True:
            end = sent.find(b"\n", start)
            if end < 0:
                break
            frames.append(sent[start:end])
            start = end + 1
        at = 0
        for number, line in enumerate(responses):
            # Skip the frames that get no answer.
            while at < len(frames) and frames[at] is not None and \
                    len(frames[at]) <= max_request and is_notification(frames[at]):
                at += 1
            frame = frames[at] if at < len(frames) else None
            if frame is not None and len(frame) > max_request:
                frame = None
            self.check_response("%s response %d" % (where, number + 1), transport, frame, line)
            at += 1


def read_transcript(path):
    """The records of one recorded session: (kind, bytes) in order."""
    records = []
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        kind, length = data[at:end].split(b" ")
        length = int(length)
        at = end + 1
        if kind == b"X":
            records.append(("X", length))
            continue
        records.append((kind.decode(), data[at:at + length]))
        at += length + 1
    return records


def check_transcripts(checker, folder, suites):
    sessions = 0
    for suite in suites:
        directory = os.path.join(folder, suite)
        names = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
        if not names:
            checker.fail(suite, "no session recorded in %s (run the suite first)" % directory)
        for name in names:
            sessions += 1
            records = read_transcript(os.path.join(directory, name))
            arguments = records[0][1].decode().split("\n")[:-1] if records and records[0][0] == "A" else []
            transport = "semaprax.agent-transport.v3" if "--allow-project-rename" in arguments \
                else "semaprax.agent-transport.v2"
            max_request = DEFAULT_MAX_REQUEST
            if "--max-request-bytes" in arguments:
                max_request = int(arguments[arguments.index("--max-request-bytes") + 1])
            sent = bytearray()
            responses = []
            for kind, value in records[1:]:
                if kind == "S":
                    sent += value
                elif kind == "X":
                    sent += b"\0" * value  # far over any bound, never a request
                elif kind == "R":
                    responses.append(value)
                elif kind == "T":
                    responses.extend(value.split(b"\n")[:-1] if value.endswith(b"\n") else
                                     [l for l in value.split(b"\n") if l])
            checker.check_exchange("%s/%s" % (suite, name), transport, bytes(sent), responses, max_request)
    return sessions


def check_v1_golden(checker, folder):
    cases = 0
    for case in sorted(os.listdir(folder)):
        directory = os.path.join(folder, case)
        with open(os.path.join(directory, "in"), "rb") as f:
            sent = f.read()
        with open(os.path.join(directory, "out"), "rb") as f:
            out = f.read()
        with open(os.path.join(directory, "args"), encoding="utf-8") as f:
            arguments = f.read().split("\n")
        max_request = DEFAULT_MAX_REQUEST
        if "--max-request-bytes" in arguments:
            max_request = int(arguments[arguments.index("--max-request-bytes") + 1])
        responses = out.split(b"\n")[:-1]
        checker.check_exchange("v1 " + case, "semaprax.agent-transport.v1", sent, responses, max_request)
        cases += 1
    return cases


def reasons_table(path):
    """The reason table of docs/protocol.md: {code: [reasons]}, from its rows
    "| `-32602` | `unknown_param` | ... |" under the heading "### Reasons"."""
    table = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    inside = False
    for line in lines:
        if line.startswith("#"):
            inside = line.strip() == "### Reasons"
            continue
        if not inside or not line.startswith("| `-"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        code = int(cells[0].strip("`"))
        table.setdefault(code, []).append(cells[1].strip("`"))
    return table


def check_reasons_documented(schemas, doc):
    """error.json's reasons are exactly the documented table, in its order."""
    table = reasons_table(doc)
    ok = True
    for code in sorted(set(table) | set(schemas.reasons)):
        if table.get(code) != schemas.reasons.get(code):
            print("REASONS: code %s: error.json says %s, %s says %s"
                  % (code, schemas.reasons.get(code), doc, table.get(code)))
            ok = False
    return ok


def self_test(schemas):
    """The schemas refuse what they must (a few wrong instances) and accept
    what they must (a few right ones)."""
    digest = "sha256:" + "0" * 64
    wrong = [
        ("response.json", {"jsonrpc": "2.0", "id": 1}),
        ("response.json", {"jsonrpc": "2.0", "id": None, "result": {}}),
        ("error.json", {"code": -32013, "message": "session invalidated"}),
        ("error.json", {"code": -32602, "message": "invalid params", "data": {}}),
        # the message is the fixed text, then ": " and a sentence of at most 200 bytes
        ("error.json", {"code": -32602, "message": "invalid params: ",
                        "data": {"reason": "unknown_target", "detail": "x"}}),
        ("error.json", {"code": -32602, "message": "invalid parameters: no tool 'x'",
                        "data": {"reason": "unknown_target", "detail": "no tool 'x'"}}),
        ("error.json", {"code": -32602, "message": "invalid params: " + "x" * 201,
                        "data": {"reason": "unknown_target", "detail": "x" * 201}}),
        ("error.json", {"code": -32001, "message": "response too large: the answer is too long"}),
        # v2 and v3 errors say why; v1's are frozen without data
        ("error.json", {"code": -32602, "message": "invalid params"}),
        ("error.json", {"code": -32602, "message": "invalid params",
                        "data": {"reason": "no_such_reason", "detail": "x"}}),
        ("error.json", {"code": -32602, "message": "invalid params",
                        "data": {"reason": "unknown_param"}}),
        ("error.json", {"code": -32015, "message": "rename refused",
                        "data": {"reason": "'while' is a keyword", "step": "plan"}}),
        ("error.json", {"code": -32001, "message": "response too large",
                        "data": {"reason": "response_too_large", "detail": "x"}}),
        ("error.json", {"code": -32013, "message": "session invalidated",
                        "data": {"drift": [{"path": "", "reason": "missing"}]}}),
        ("v1/error.json", {"code": -32602, "message": "invalid params",
                           "data": {"reason": "unknown_param", "detail": "x"}}),
        ("v2/ping.result.json", {"state": "closed"}),
        ("graph.json", {"schema": "semaprax.project-semantic-graph.v1", "project_revision": digest,
                        "project": {"name": "a", "version": "0.1.0"}, "nodes": [], "edges": [],
                        "extra": 1}),
        ("v2/test.params.json", {"project_revision": digest, "workspace_revision": digest,
                                 "max_steps": -1}),
        ("v2/test.params.json", {"project_revision": digest, "workspace_revision": digest,
                                 "max_memory": 1073741825}),
    ]
    # Language v2's items: each kind's members are required, and only its own.
    position = {"line": 1, "column": 1, "offset": 0}
    span = {"start": position, "end": position}
    point = {"id": "struct:a.P", "kind": "struct", "module": "a", "name": "P", "exported": True,
             "fields": [{"name": "x", "type": "int"}], "path": "a.spx", "span": span}
    limit = {"id": "const:a.N", "kind": "const", "module": "a", "name": "N", "exported": False,
             "type": "int", "value": "1", "path": "a.spx", "span": span}

    def graph(nodes, edges=()):
        return {"schema": "semaprax.project-semantic-graph.v1", "project_revision": digest,
                "project": {"name": "a", "version": "0.1.0"}, "nodes": nodes, "edges": list(edges)}

    def context(node):
        return {"schema": "semaprax.project-semantic-context.v1", "project_revision": digest,
                "target": node["id"], "direction": "both", "depth": 1,
                "nodes": [dict(node, distance=0)], "edges": [], "truncated": False,
                "omitted_nodes": 0, "limits": {"max_bytes": 1, "max_nodes": 1}}

    def without(node, key):
        return {k: v for k, v in node.items() if k != key}

    right = [
        ("error.json", {"code": -32602, "message": "invalid params",
                        "data": {"reason": "unknown_target", "detail": "no function 'a.b' in this project"}}),
        ("error.json", {"code": -32602,
                        "message": "invalid params: no function 'a.b' in this project",
                        "data": {"reason": "unknown_target", "detail": "no function 'a.b' in this project"}}),
        ("error.json", {"code": -32602, "message": "invalid params: " + "x" * 197 + "...",
                        "data": {"reason": "unknown_target", "detail": "x" * 300}}),
        ("error.json", {"code": -32001, "message": "response too large"}),
        ("error.json", {"code": -32015, "message": "rename refused",
                        "data": {"reason": "name_is_keyword", "detail": "'while' is a keyword",
                                 "step": "plan"}}),
        ("v1/error.json", {"code": -32602, "message": "invalid params"}),
        ("v2/context.params.json", {"project_revision": digest, "workspace_revision": digest,
                                    "target": "function:a.b"}),
        ("graph.json", graph([point, limit], [{"from": "struct:a.P", "kind": "uses", "to": "struct:a.P",
                                              "sites": 1},
                                             {"from": "const:a.N", "kind": "reads", "to": "const:a.N",
                                              "sites": 2}])),
        ("context.json", context(dict(point, text="struct P { x: int }"))),
        ("context.json", context(dict(limit, text="const N: int = 1;"))),
        ("context.json", dict(context(dict(limit, text="const N: int = 1;")), truncated=True,
                              omitted_nodes=3, frontier=["function:a.f"],
                              omitted_by_tie={"calls": 1, "uses": 0, "tests": 2, "module": 0})),
    ]
    cut = dict(context(dict(limit, text="const N: int = 1;")), truncated=True, omitted_nodes=1,
               frontier=["function:a.f"])
    wrong += [
        ("context.json", cut),  # a cut context says what it dropped by tie
        ("context.json", dict(cut, omitted_by_tie={"calls": 1, "uses": 0, "tests": 0})),
        ("context.json", dict(cut, omitted_by_tie={"calls": 1, "uses": 0, "tests": 0, "module": 0,
                                                   "reads": 0})),
        ("context.json", dict(context(dict(limit, text="const N: int = 1;")),
                              omitted_by_tie={"calls": 0, "uses": 0, "tests": 0, "module": 0})),
        ("graph.json", graph([without(point, "fields")])),
        ("graph.json", graph([dict(point, fields=[])])),
        ("graph.json", graph([dict(point, fields=[{"name": "x"}])])),
        ("graph.json", graph([dict(point, value="1")])),
        ("graph.json", graph([without(limit, "value")])),
        ("graph.json", graph([dict(limit, type="[int]")])),
        ("graph.json", graph([dict(limit, fields=[{"name": "x", "type": "int"}])])),
        ("graph.json", graph([], [{"from": "struct:a.P", "kind": "uses", "to": "struct:a.P"}])),
        ("graph.json", graph([], [{"from": "const:a.N", "kind": "reads", "to": "const:a.N"}])),
        ("context.json", context(point)),
        ("context.json", context(limit)),
        ("v2/context.params.json", {"project_revision": digest, "workspace_revision": digest,
                                    "target_kind": "field", "target": "a.P"}),
    ]
    ok = True
    # The checker itself fails a v2 or v3 error without its reason or detail.
    probe = Checker(schemas)
    probe.check_reason("probe", {"code": -32602, "message": "invalid params"})
    probe.check_reason("probe", {"code": -32012, "message": "revision mismatch",
                                 "data": {"reason": "unknown_param", "detail": "x"}})
    probe.check_reason("probe", {"code": -32010, "message": "session not open",
                                 "data": {"reason": "session_not_open"}})
    probe.check_reason("probe", {"code": -32001, "message": "response too large"})
    if len(probe.failures) != 4:
        print("SELF-TEST: the reason check found %r" % probe.failures)
        ok = False
    for name, instance in right:
        for message in schemas.errors(name, instance):
            print("SELF-TEST: %s refuses %s: %s" % (name, json.dumps(instance), message))
            ok = False
    for name, instance in wrong:
        if not schemas.errors(name, instance):
            print("SELF-TEST: %s accepts %s" % (name, json.dumps(instance)))
            ok = False
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("schemas")
    parser.add_argument("--transcripts")
    parser.add_argument("--suite", action="append", default=[])
    parser.add_argument("--v1-golden")
    parser.add_argument("--document", action="append", default=[])
    options = parser.parse_args()

    schemas = Schemas(options.schemas)
    checker = Checker(schemas)
    print("schemas: %d valid draft 2020-12 schemas" % len(schemas.store))
    if not self_test(schemas):
        return 1
    protocol_doc = os.path.join(options.schemas, os.pardir, "protocol.md")
    if not check_reasons_documented(schemas, protocol_doc):
        return 1
    if options.transcripts:
        sessions = check_transcripts(checker, options.transcripts, options.suite)
        print("process tests: %d sessions" % sessions)
        seen = checker.results.get("semaprax.agent-transport.v2", {})
        for method in schemas.methods["transports"]["semaprax.agent-transport.v2"]:
            if not seen.get(method):
                checker.fail("coverage", "no result of v2 method %r was seen" % method)
        # Every error code of v2 and v3 provoked, but -32603: a bug, never expected.
        for code in sorted(schemas.reasons):
            if code != -32603 and code not in checker.explained_codes:
                checker.fail("coverage", "no v2 or v3 error %s was seen" % code)
        if -32001 not in checker.explained_codes:
            checker.fail("coverage", "no v2 or v3 error -32001 was seen")
        print("reasons seen: %s" % "; ".join(
            "%d %s" % (c, ",".join(sorted(r))) for c, r in sorted(checker.reasons.items())))
    if options.v1_golden:
        print("v1 golden cases: %d" % check_v1_golden(checker, options.v1_golden))
    document_names = schemas.methods["documents"]
    for path in options.document:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        name = document_names.get(document.get("schema"))
        if not name:
            checker.fail(path, "no schema for %r" % document.get("schema"))
            continue
        for message in schemas.errors(name, document):
            checker.fail(path, message)
    print("responses: %d (results by method: %s; error codes: %s)" % (
        checker.responses,
        ", ".join("%s %s=%d" % (t.rsplit(".", 1)[1], m, n) for t, ms in sorted(checker.results.items())
                  for m, n in sorted(ms.items())),
        ", ".join("%d x%d" % (c, n) for c, n in sorted(checker.codes.items()))))
    print("documents: %d" % len(options.document))
    for failure in checker.failures[:200]:
        print("MISMATCH " + failure)
    if checker.failures:
        print("%d mismatches" % len(checker.failures))
        return 1
    print("every response and document validates against its schema")
    return 0


if __name__ == "__main__":
    sys.exit(main())
