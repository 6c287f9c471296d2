// client.js: drives `semapraxd --stdio` with the JSONRPCClient of the
// json-rpc-2.0 library. The library builds the requests and matches each
// response to its request by id; this file gives it the daemon's framing:
// one JSON text and an LF per message, on the child's stdin and stdout.
//
// As a module: SemapraxClient (one method per request of
// semaprax.agent-transport.v2, revisions sent for the caller, errors as
// SemapraxError with code, message and data, and an opt-in reopen on drift)
// and SemapraxError. As a program:
//
//   node client.js MANIFEST [SEMAPRAXD]
//
// prints the protocol's schema, the check, the graph's size, one context
// query, the test summary and a refused request; exits 0 when every test
// passed.
"use strict";

const { spawn } = require("node:child_process");
const { EventEmitter } = require("node:events");
const readline = require("node:readline");
const { JSONRPCClient } = require("json-rpc-2.0");

// The error code of a session that found a changed input (docs/protocol.md).
const SESSION_INVALIDATED = -32013;

// What to do about -32013: the daemon never accepts a semantic request again.
const INVALIDATED_ADVICE =
  "this daemon refuses every later semantic request: start a new session " +
  "(a new SemapraxClient) to see the files as they are now, or pass reopenOnDrift: true";

// "CODE MESSAGE", then ": " and data.detail when there is one, else
// data.reason; for -32013 also the drift and what to do. The message is the
// code's fixed text, then ": " and the detail cut short: the whole detail
// follows the fixed text here.
function describeError(code, message, data) {
  let text = `${code} ${message}`;
  if (data && typeof data === "object") {
    const why = [data.detail, data.reason].find((value) => typeof value === "string" && value);
    if (why) text = `${code} ${message.split(": ")[0]}: ${why}`;
  }
  if (code === SESSION_INVALIDATED) {
    const drift = data && Array.isArray(data.drift) ? data.drift : [];
    if (drift.length > 0) {
      const changes = drift.map((change) => `${change.path || "the project's folder"} ${change.reason}`);
      text += ` (drift: ${changes.join(", ")})`;
    }
    text += `; ${INVALIDATED_ADVICE}`;
  }
  return text;
}

// An error response. code, message (the daemon's, e.g. "invalid params")
// and data (undefined when the daemon sent none) are the response's;
// String(error) and the stack's first line add data.detail or data.reason
// (describeError); advice says what to do about -32013.
class SemapraxError extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = "SemapraxError";
    this.code = code;
    this.data = data;
    this.advice = code === SESSION_INVALIDATED ? INVALIDATED_ADVICE : undefined;
    this.text = describeError(code, message, data);
    this.stack = `${this.name}: ${this.text}${this.stack.slice(this.stack.indexOf("\n"))}`;
  }

  toString() {
    return this.text;
  }
}

// A client of one daemon at a time on one manifest. Options: daemon (the
// program, default "semapraxd"), args (more options for it), verbose
// (--verbose: its stderr also says why each request was refused),
// reopenOnDrift (default false) and onReopen.
//
// With reopenOnDrift, a semantic request answered -32013 (an input changed
// on disk) closes this daemon, starts a new one with the same command line,
// opens it and sends the request again, once, with the new revisions. Each
// reopen ({method, oldRevisions, newRevisions, drift}) is pushed on
// client.reopens, emitted as the event "reopen" and given to onReopen. A
// rename is never sent again. Without it, -32013 rejects with a
// SemapraxError that says to start a new session.
class SemapraxClient extends EventEmitter {
  constructor(manifest, options = {}) {
    super();
    this.program = options.daemon || "semapraxd";
    this.argv = ["--stdio", "--manifest-path", manifest, ...(options.args || [])];
    if (options.verbose) this.argv.push("--verbose");
    this.reopenOnDrift = Boolean(options.reopenOnDrift);
    if (options.onReopen) this.on("reopen", options.onReopen);
    this.revisions = null; // {project_revision, workspace_revision} once open
    this.reopens = [];
    this.start();
  }

  // Start a daemon: its stdin and stdout are the session, stderr is ours.
  start() {
    const daemon = spawn(this.program, this.argv, { stdio: ["pipe", "pipe", "inherit"] });
    this.daemon = daemon;
    this.exited = new Promise((resolve, reject) => {
      daemon.on("exit", (code) => resolve(code));
      daemon.on("error", reject); // not started: the program is missing
    });
    this.exited.catch(() => {}); // the request that meets it says why
    // A write to a daemon that has exited fails (EPIPE): its requests are
    // rejected by the exit handler below, not by a crash of this process.
    daemon.stdin.on("error", () => {});
    // Outgoing: one line per request. Incoming: each line is a response.
    const rpc = new JSONRPCClient((request) => {
      daemon.stdin.write(JSON.stringify(request) + "\n");
    });
    this.rpc = rpc;
    readline.createInterface({ input: daemon.stdout }).on("line", (line) => rpc.receive(JSON.parse(line)));
    this.ended = null; // why this daemon can answer no more, once it cannot
    const end = (why) => {
      this.ended = this.ended || why;
      rpc.rejectAllPendingRequests(why);
    };
    daemon.on("exit", (code, signal) => end(`semapraxd exited (${signal || `status ${code}`})`));
    daemon.on("error", (error) => end(`semapraxd: ${error.message}`));
  }

  // Send a request: its result, or a rejection with a SemapraxError.
  async request(method, params) {
    if (this.ended) throw new Error(this.ended);
    try {
      return await this.rpc.request(method, params);
    } catch (error) {
      // The library rejects an error response with a JSONRPCErrorException
      // (code, message, data); its own failures (the daemon exited) have
      // code 0 and are thrown as they are.
      if (typeof error.code === "number" && error.code !== 0) {
        throw new SemapraxError(error.code, error.message, error.data);
      }
      throw error;
    }
  }

  protocol() {
    return this.request("protocol");
  }

  ping() {
    return this.request("ping");
  }

  status() {
    return this.request("workspace/status");
  }

  // workspace/open; keeps the revisions for the semantic methods.
  async open() {
    this.revisions = await this.request("workspace/open");
    return this.revisions;
  }

  // A semantic request with the revisions of open(), and the reopen on drift.
  async semantic(method, params = {}) {
    if (!this.revisions) throw new SemapraxError(-32010, "session not open (call open() first)");
    try {
      return await this.request(method, { ...this.revisions, ...params });
    } catch (error) {
      if (!(error instanceof SemapraxError) || error.code !== SESSION_INVALIDATED) throw error;
      if (!this.reopenOnDrift || method === "project/rename") throw error;
      await this.reopen(method, error.data);
    }
    return this.request(method, { ...this.revisions, ...params });
  }

  // The daemon is invalidated for good: end it, start a new one on the same
  // command line, open it, and tell.
  async reopen(method, data) {
    const oldRevisions = this.revisions;
    await this.close();
    this.start();
    await this.open();
    const reopen = {
      method,
      oldRevisions,
      newRevisions: this.revisions,
      drift: data && Array.isArray(data.drift) ? data.drift : [],
    };
    this.reopens.push(reopen);
    this.emit("reopen", reopen);
  }

  snapshot() {
    return this.semantic("workspace/snapshot");
  }

  check() {
    return this.semantic("check");
  }

  graph() {
    return this.semantic("graph");
  }

  // options: direction, depth, max_nodes, max_bytes.
  context(targetKind, target, options = {}) {
    return this.semantic("context", { target_kind: targetKind, target, ...options });
  }

  // options: max_steps, max_bytes, max_memory.
  test(options = {}) {
    return this.semantic("test", options);
  }

  async shutdown() {
    const result = await this.request("shutdown");
    await this.close();
    return result;
  }

  // Close the daemon's input and wait: its exit status.
  close() {
    this.daemon.stdin.end();
    return this.exited;
  }
}

async function main() {
  const manifest = process.argv[2];
  const program = process.argv[3] || "semapraxd";
  if (!manifest) {
    console.error("usage: node client.js MANIFEST [SEMAPRAXD]");
    return 2;
  }
  const client = new SemapraxClient(manifest, { daemon: program });
  const protocol = await client.protocol();
  console.log("protocol:", protocol.schema, protocol.state);
  await client.open();
  const check = await client.check();
  console.log("check:", JSON.stringify(check));
  const graph = await client.graph();
  console.log(`graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges`);
  const context = await client.context("function", "math.fib", { direction: "in" });
  console.log("context:", context.nodes.map((node) => node.id).join(" "));
  const run = await client.test();
  console.log("test:", JSON.stringify(run.envelope.summary));

  // An error response rejects the promise with a SemapraxError.
  try {
    await client.context("function", "x.y");
  } catch (error) {
    console.log("error:", error.code, error.message);
    console.log("error text:", String(error));
  }

  const shutdown = await client.request("shutdown");
  console.log("shutdown:", shutdown.state);
  const status = await client.close();
  console.log("semapraxd exited with status", status);
  return run.command_succeeded && status === 0 ? 0 : 1;
}

module.exports = { SemapraxClient, SemapraxError, describeError, SESSION_INVALIDATED };

if (require.main === module) {
  main().then(
    (status) => process.exit(status),
    (error) => {
      console.error("client.js:", String(error));
      process.exit(1);
    },
  );
}
