"""semaprax_client.py: a small client of `semapraxd --stdio` (standard library only).

It starts the daemon on a manifest, speaks JSON-RPC 2.0 with it one line per
message, and offers one function per method of semaprax.agent-transport.v2
(and project/rename of v3, when the daemon was started with
allow_project_rename=True). Semantic methods send the revisions that
open() received, so a caller never handles them. An error response raises
SemapraxError with the code, message and data of docs/protocol.md.

    from semaprax_client import Client
    with Client("examples/hello/semaprax.toml") as client:
        client.open()
        print(client.check())

Also: ServeClient, the same for `semaprax serve SOURCE.spx` (transport v1).
"""
import json
import subprocess

__all__ = ["Client", "ServeClient", "SemapraxError"]

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
    """An error response: code, message and (for -32011, -32013, -32014) data."""

    def __init__(self, code, message, data=None):
        super().__init__("%d %s" % (code, message))
        self.code = code
        self.message = message
        self.data = data


class _Session:
    """A JSON-RPC 2.0 session over a child process's standard streams: one
    request line out, one response line in, in order."""

    def __init__(self, argv, cwd=None):
        self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         cwd=cwd)
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
            raise SemapraxError(response["error"]["code"], response["error"]["message"])
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
    allow_project_rename)."""

    def __init__(self, manifest_path="semaprax.toml", daemon="semapraxd", max_request_bytes=None,
                 max_response_bytes=None, allow_project_rename=False, cwd=None):
        argv = [daemon, "--stdio", "--manifest-path", manifest_path]
        if max_request_bytes is not None:
            argv += ["--max-request-bytes", str(max_request_bytes)]
        if max_response_bytes is not None:
            argv += ["--max-response-bytes", str(max_response_bytes)]
        if allow_project_rename:
            argv.append("--allow-project-rename")
        super().__init__(argv, cwd)
        self.revisions = None  # {"project_revision", "workspace_revision"} once open

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
        return self.request(method, dict(self.revisions, **given))

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
