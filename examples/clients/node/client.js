// client.js: drives `semapraxd --stdio` with the JSONRPCClient of the
// json-rpc-2.0 library. The library builds the requests and matches each
// response to its request by id; this file gives it the daemon's framing:
// one JSON text and an LF per message, on the child's stdin and stdout.
//
//   node client.js MANIFEST [SEMAPRAXD]
//
// Prints the protocol's schema, the check, the graph's size, one context
// query and the test summary; exits 0 when every test passed.
"use strict";

const { spawn } = require("node:child_process");
const readline = require("node:readline");
const { JSONRPCClient } = require("json-rpc-2.0");

async function main() {
  const manifest = process.argv[2];
  const program = process.argv[3] || "semapraxd";
  if (!manifest) {
    console.error("usage: node client.js MANIFEST [SEMAPRAXD]");
    return 2;
  }
  const daemon = spawn(program, ["--stdio", "--manifest-path", manifest], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => daemon.on("exit", (code) => resolve(code)));

  // Outgoing: one line per request. Incoming: each line is a response.
  const client = new JSONRPCClient((request) => {
    daemon.stdin.write(JSON.stringify(request) + "\n");
  });
  const lines = readline.createInterface({ input: daemon.stdout });
  lines.on("line", (line) => client.receive(JSON.parse(line)));
  daemon.on("exit", () => client.rejectAllPendingRequests("semapraxd exited"));

  const protocol = await client.request("protocol");
  console.log("protocol:", protocol.schema, protocol.state);
  const revisions = await client.request("workspace/open");
  const check = await client.request("check", revisions);
  console.log("check:", JSON.stringify(check));
  const graph = await client.request("graph", revisions);
  console.log(`graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges`);
  const context = await client.request("context", {
    ...revisions,
    target_kind: "function",
    target: "math.fib",
    direction: "in",
  });
  console.log("context:", context.nodes.map((node) => node.id).join(" "));
  const run = await client.request("test", revisions);
  console.log("test:", JSON.stringify(run.envelope.summary));

  // An error response rejects the promise with a JSONRPCErrorException.
  try {
    await client.request("context", { ...revisions, target_kind: "function", target: "x.y" });
  } catch (error) {
    console.log("error:", error.code, error.message);
  }

  const shutdown = await client.request("shutdown");
  console.log("shutdown:", shutdown.state);
  daemon.stdin.end();
  const status = await exited;
  console.log("semapraxd exited with status", status);
  return run.command_succeeded && status === 0 ? 0 : 1;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error("client.js:", error.message || error);
    process.exit(1);
  },
);
