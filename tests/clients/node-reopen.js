// tests/clients/node-reopen.js: the Node.js client's reopen on drift and
// error text against the real daemon. run-node copies it next to client.js
// (and json-rpc-2.0) and runs it on a copy of examples/hello that it may
// edit:
//
//   node node-reopen.js PROJECT SEMAPRAXD
//
// With reopenOnDrift, a check after a source was edited is answered by a
// new daemon with new revisions, and the reopen is reported (reopens, the
// "reopen" event, onReopen) while the old daemon exits 0; without it the
// check rejects with -32013, its drift, and a text that says to start a
// new session; a rename is not sent again. Error text: data.detail, else
// data.reason, else the code and message. Prints one line per check;
// exits 1 at the first that fails.
"use strict";

const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { SemapraxClient, SemapraxError, describeError } = require("./client.js");

const EDITED = [{ path: "src/math.spx", reason: "content_changed" }];

function edit(project, line) {
  fs.appendFileSync(path.join(project, "src", "math.spx"), `// ${line}\n`);
}

async function reopensWhenAsked(project, semapraxd) {
  const callbacks = [];
  const events = [];
  const client = new SemapraxClient(path.join(project, "semaprax.toml"), {
    daemon: semapraxd,
    reopenOnDrift: true,
    onReopen: (reopen) => callbacks.push(reopen),
  });
  client.on("reopen", (reopen) => events.push(reopen));
  const before = await client.open();
  assert.deepEqual(await client.check(), { admitted: true, diagnostics: [] });
  const firstDaemon = client.exited;
  edit(project, "one more line");
  assert.deepEqual(await client.check(), { admitted: true, diagnostics: [] });
  assert.equal(await firstDaemon, 0, "the invalidated daemon exits 0");
  assert.equal(client.reopens.length, 1);
  assert.deepEqual(callbacks, client.reopens);
  assert.deepEqual(events, client.reopens);
  const reopen = client.reopens[0];
  assert.equal(reopen.method, "check");
  assert.deepEqual(reopen.oldRevisions, before);
  assert.deepEqual(reopen.newRevisions, client.revisions);
  assert.notEqual(reopen.newRevisions.workspace_revision, before.workspace_revision);
  assert.deepEqual(reopen.drift, EDITED);
  // The new session goes on without another reopen.
  const graph = await client.graph();
  assert.ok(graph.nodes.length > 0);
  assert.equal(client.reopens.length, 1);
  assert.deepEqual(await client.shutdown(), { state: "shutdown" });
  console.log("reopen on drift: the check was answered by a new daemon, reopen reported:",
              `${before.workspace_revision} -> ${reopen.newRevisions.workspace_revision}`);
}

async function refusesWithoutTheOption(project, semapraxd) {
  const client = new SemapraxClient(path.join(project, "semaprax.toml"), { daemon: semapraxd });
  await client.open();
  edit(project, "and another");
  const error = await client.check().then(
    () => assert.fail("a check after an edit must be refused"),
    (refusal) => refusal,
  );
  assert.ok(error instanceof SemapraxError);
  assert.equal(error.code, -32013);
  assert.match(error.message, /^session invalidated: /);
  assert.deepEqual(error.data.drift, EDITED);
  assert.match(String(error), /^-32013 session invalidated.* \(drift: src\/math\.spx content_changed\); .*start a new session/);
  assert.match(error.stack, /^SemapraxError: -32013 session invalidated.*start a new session/);
  assert.match(error.advice, /start a new session/);
  assert.equal(client.reopens.length, 0);
  // Later semantic requests are refused the same way; the daemon still ends 0.
  await assert.rejects(client.graph(), (again) => again.code === -32013);
  assert.equal(await client.close(), 0);
  console.log("without reopenOnDrift:", String(error));
}

// A rename is never sent again: it would change files the caller has not seen.
async function renameIsNotRetried(project, semapraxd) {
  const client = new SemapraxClient(path.join(project, "semaprax.toml"), {
    daemon: semapraxd,
    args: ["--allow-project-rename"],
    reopenOnDrift: true,
  });
  await client.open();
  edit(project, "before a rename");
  await assert.rejects(
    client.semantic("project/rename", { function: "math.fib", new_name: "fibonacci" }),
    (error) => error.code === -32013 && /start a new session/.test(String(error)),
  );
  assert.equal(client.reopens.length, 0);
  assert.equal(await client.close(), 0);
  const source = fs.readFileSync(path.join(project, "src", "math.spx"), "utf8");
  assert.ok(source.includes("fn fib(") && !source.includes("fibonacci"));
  console.log("reopenOnDrift: a rename refused on drift is not sent again");
}

async function errorText(project, semapraxd) {
  assert.equal(describeError(-32602, "invalid params", undefined), "-32602 invalid params");
  assert.equal(describeError(-32602, "invalid params", { reason: "unknown_target" }),
               "-32602 invalid params: unknown_target");
  assert.equal(describeError(-32602, "invalid params", { reason: "unknown_target", detail: "no such function" }),
               "-32602 invalid params: no such function");
  const client = new SemapraxClient(path.join(project, "semaprax.toml"), { daemon: semapraxd });
  await client.open();
  const error = await client.context("function", "math.nope").then(
    () => assert.fail("an unknown target must be refused"),
    (refusal) => refusal,
  );
  assert.equal(error.code, -32602);
  assert.match(error.message, /^invalid params: /);
  // Today's daemon sends no data for -32602; one that does says why.
  const why = error.data && (error.data.detail || error.data.reason);
  assert.equal(String(error), why ? `-32602 invalid params: ${why}` : "-32602 invalid params");
  assert.equal(error.advice, undefined);
  assert.equal(await client.close(), 0);
  console.log("error text:", String(error));
}

async function main() {
  const [project, semapraxd] = process.argv.slice(2);
  await reopensWhenAsked(project, semapraxd);
  await refusesWithoutTheOption(project, semapraxd);
  await renameIsNotRetried(project, semapraxd);
  await errorText(project, semapraxd);
  console.log("node-reopen: every check passed");
}

main().catch((error) => {
  console.error("node-reopen:", error.stack || error);
  process.exit(1);
});
