"""semaprax_client.py: a small client of `semapraxd --stdio` (standard library only).

It starts the daemon on a manifest, speaks JSON-RPC 2.0 with it one line per
message, and offers one function per method of semaprax.agent-transport.v2
(and project/rename of v3, when the daemon was started with
allow_project_rename=True). Semantic methods send the revisions that
open() received, so a caller never handles them. An error response raises
SemapraxError with the code, message and data of docs/protocol.md; its text
says data.detail (or data.reason) when the daemon gave one.

    from semaprax_client import Client
    with Client("examples/hello/semaprax.toml") as client:
        client.open()
        print(client.check())

A daemon that found a source changed on disk (drift) refuses every later
semantic request (-32013, session invalidated). With
Client(..., reopen_on_drift=True) the client then starts a new daemon with
the same command line, opens it, and retries the request once; each reopen
is kept in client.reopens (a Reopen: the method, the old and new revisions,
the drift) and passed to on_reopen(reopen) when given.

Also: ServeClient, the same for `semaprax serve SOURCE.spx` (transport v1).
"""
import json
import subprocess

__all__ = ["Client", "ServeClient", "SemapraxError", "Reopen"]

# The error codes of docs/protocol.md, by name.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESPONSE_TOO_LARGE = -32001
REQUEST_TOO_LARGE = -32002
SESSION_NOT_OPEN = -32010
WORKSPACE_UNAVAILABLE = -32011
REVISION_MISMATCH = -32012
SESSION_INVALIDATED = -32013
PROJECT_NOT_ADMITTED = -32014


class SemapraxError(Exception):
    """An error response: code, message and data (docs/protocol.md: a dict
    that may say a "reason" in snake_case and a "detail" sentence, and for
    -32011, -32013, -32014 the diagnostics or the drift). str(error) is
    "CODE MESSAGE: DETAIL", DETAIL being data["detail"], else data["reason"],
    else nothing; for -32013 it also names the drift and says what to do
    (advice, None for the other codes)."""

    def __init__(self, code, message, data=None):
        super().__init__(describe_error(code, message, data))
        self.code = code
        self.message = message
        self.data = data
        self.advice = INVALIDATED_ADVICE if code == SESSION_INVALIDATED else None


# What to do about -32013: the daemon never accepts a request again.
INVALIDATED_ADVICE = ("this daemon refuses every later semantic request: start a new session"
                      " (a new Client) to see the files as they are now, or pass"
                      " reopen_on_drift=True")


def describe_error(code, message, data=None):
    """The text of an error response, as SemapraxError says it. The message
    is the code's fixed text, then ": " and the detail cut short; the whole
    detail follows the fixed text here."""
    text = "%d %s" % (code, message)
    if isinstance(data, dict):
        for key in ("detail", "reason"):
            if isinstance(data.get(key), str) and data[key]:
                text = "%d %s: %s" % (code, message.split(": ", 1)[0], data[key])
                break
    if code == SESSION_INVALIDATED:
        drift = data.get("drift") if isinstance(data, dict) else None
        if isinstance(drift, list) and drift:
            text += " (drift: %s)" % ", ".join(
                "%s %s" % (change.get("path") or "the project's folder", change.get("reason"))
                for change in drift if isinstance(change, dict))
        text += "; " + INVALIDATED_ADVICE
    return text


class Reopen:
    """One reopen on drift: the request that met -32013 (method), the
    revisions it was sent with (old_revisions), those of the new session
    that answered it (new_revisions), and data["drift"] of the refusal."""

    def __init__(self, method, old_revisions, new_revisions, drift):
        self.method = method
        self.old_revisions = old_revisions
        self.new_revisions = new_revisions
        self.drift = drift

    def __repr__(self):
        return "Reopen(%r, old_revisions=%r, new_revisions=%r, drift=%r)" % (
            self.method, self.old_revisions, self.new_revisions, self.drift)


class _Session:
    """A JSON-RPC 2.0 session over a child process's standard streams: one
    request line out, one response line in, in order."""

    def __init__(self, argv, cwd=None):
        self._argv = argv
        self._cwd = cwd
        self._start()

    def _start(self):
        """Start the server: a new process, ids from 1."""
        self._process = subprocess.Popen(self._argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, cwd=self._cwd)
        self._next_id = 1

    def request(self, method, params=None):
        """Send a request and return its result, or raise SemapraxError."""
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        self._next_id += 1
        if params:
            message["params"] = params
        self._write(message)
        line = self._process.stdout.readline()
        if not line:
            raise EOFError("the server ended (exit status %s)" % self._process.wait())
        response = json.loads(line)
        if response.get("id") != message["id"]:
            # Only an error about an unreadable frame has id null.
            error = response["error"]
            raise SemapraxError(error["code"], error["message"], error.get("data"))
        if "error" in response:
            error = response["error"]
            raise SemapraxError(error["code"], error["message"], error.get("data"))
        return response["result"]

    def notify(self, method, params=None):
        """Send a notification: no answer, and nothing runs (but a shutdown
        notification ends the session)."""
        message = {"jsonrpc": "2.0", "method": method}
        if params:
            message["params"] = params
        self._write(message)

    def _write(self, message):
        # Compact and ASCII-safe; any valid JSON is accepted, one line each.
        line = json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"
        self._process.stdin.write(line)
        self._process.stdin.flush()

    def close(self):
        """Close the server's input and wait: its exit status."""
        if self._process.stdin and not self._process.stdin.closed:
            self._process.stdin.close()
        status = self._process.wait()
        self._process.stdout.close()
        return status

    def __enter__(self):
        return self

    def __exit__(self, *_exception):
        self.close()


class Client(_Session):
    """`semapraxd --stdio` on one manifest (transport v2; v3 with
    allow_project_rename). The daemon's standard error is this process's
    (verbose=True: it also says why each request was refused).

    reopen_on_drift=True: when a semantic request (not a rename) is refused
    with -32013 because the files changed, close this daemon, start a new
    one with the same command line, open it and send the request again,
    once, with the new revisions; the reopen is appended to self.reopens
    and given to on_reopen. Without it, -32013 raises SemapraxError (whose
    text says to start a new session)."""

    def __init__(self, manifest_path="semaprax.toml", daemon="semapraxd", max_request_bytes=None,
                 max_response_bytes=None, allow_project_rename=False, cwd=None,
                 reopen_on_drift=False, on_reopen=None, verbose=False):
        argv = [daemon, "--stdio", "--manifest-path", manifest_path]
        if max_request_bytes is not None:
            argv += ["--max-request-bytes", str(max_request_bytes)]
        if max_response_bytes is not None:
            argv += ["--max-response-bytes", str(max_response_bytes)]
        if allow_project_rename:
            argv.append("--allow-project-rename")
        if verbose:
            argv.append("--verbose")  # stderr: also why each request was refused
        super().__init__(argv, cwd)
        self.revisions = None  # {"project_revision", "workspace_revision"} once open
        self.reopen_on_drift = reopen_on_drift
        self.on_reopen = on_reopen
        self.reopens = []  # a Reopen per new session started on drift

    # Lifecycle methods: any state.
    def protocol(self):
        return self.request("protocol")

    def ping(self):
        return self.request("ping")

    def status(self):
        return self.request("workspace/status")

    def shutdown(self):
        result = self.request("shutdown")
        self.close()
        return result

    def open(self):
        """workspace/open; keeps the revisions for the semantic methods."""
        self.revisions = self.request("workspace/open")
        return self.revisions

    # Semantic methods: after open(), with the revisions it returned.
    def _semantic(self, method, **params):
        if self.revisions is None:
            raise SemapraxError(SESSION_NOT_OPEN, "session not open (call open() first)")
        given = {key: value for key, value in params.items() if value is not None}
        try:
            return self.request(method, dict(self.revisions, **given))
        except SemapraxError as error:
            # A rename is never sent again: it would change files the
            # caller has not seen.
            if (error.code != SESSION_INVALIDATED or not self.reopen_on_drift
                    or method == "project/rename"):
                raise
            self._reopen(method, error.data)
        return self.request(method, dict(self.revisions, **given))

    def _reopen(self, method, data):
        """The daemon is invalidated for good: end it, start a new one on
        the same command line, open it, and record the reopen."""
        old_revisions = self.revisions
        self.close()
        self._start()
        self.open()
        drift = data.get("drift") if isinstance(data, dict) else None
        reopen = Reopen(method, old_revisions, self.revisions, drift)
        self.reopens.append(reopen)
        if self.on_reopen:
            self.on_reopen(reopen)

    def snapshot(self):
        return self._semantic("workspace/snapshot")

    def check(self):
        return self._semantic("check")

    def graph(self):
        return self._semantic("graph")

    def context(self, target_kind, target, direction=None, depth=None, max_nodes=None,
                max_bytes=None):
        return self._semantic("context", target_kind=target_kind, target=target,
                              direction=direction, depth=depth, max_nodes=max_nodes,
                              max_bytes=max_bytes)

    def test(self, max_steps=None, max_bytes=None, max_memory=None):
        return self._semantic("test", max_steps=max_steps, max_bytes=max_bytes,
                              max_memory=max_memory)

    def rename(self, function, new_name, dry_run=None):
        """project/rename (v3 only: the daemon must have been started with
        allow_project_rename=True). A committed rename changes the
        revisions: the client takes the new ones."""
        result = self._semantic("project/rename", function=function, new_name=new_name,
                                dry_run=dry_run)
        if result.get("committed"):
            self.revisions = {"project_revision": result["project_revision"],
                              "workspace_revision": result["workspace_revision"]}
        return result


class ServeClient(_Session):
    """`semaprax serve SOURCE.spx`: one source file, transport v1."""

    def __init__(self, source, semaprax="semaprax", cwd=None):
        super().__init__([semaprax, "serve", source], cwd)

    def protocol(self):
        return self.request("protocol")

    def ping(self):
        return self.request("ping")

    def check(self):
        return self.request("check")

    def graph(self):
        return self.request("graph")

    def shutdown(self):
        result = self.request("shutdown")
        self.close()
        return result
