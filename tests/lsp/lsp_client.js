// tests/lsp/lsp_client.js: what the language server's Node suites
// (lsp_session.js, lsp_navigation.js) share: copies of the example project,
// file URIs, and a real `semapraxd --lsp` over pipes with
// vscode-languageserver-protocol's connection (diagnostics collected by
// URI, log messages kept, a wait for what has arrived), its initialize and
// its orderly shutdown.
'use strict';
const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');

// The helpers for one suite: semapraxd the server's path, example the
// project copied, workdir where the copies go.
function lspClient(semapraxd, example, workdir) {
  function copyProject(name) {
    const root = path.join(workdir, name);
    fs.rmSync(root, { recursive: true, force: true });
    fs.cpSync(example, root, { recursive: true });
    return root;
  }

  const uriOf = (root, relative) => pathToFileURL(path.join(root, relative)).href;

  // A server over pipes with a connection; diagnostics collected by URI.
  function start(args = []) {
    const child = cp.spawn(semapraxd, ['--lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = rpc.createProtocolConnection(
      new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
    const diagnostics = new Map();
    const published = new Map(); // uri -> how many times
    const logs = [];
    const waiters = [];
    connection.onNotification(rpc.PublishDiagnosticsNotification.type, (params) => {
      diagnostics.set(params.uri, params.diagnostics);
      published.set(params.uri, (published.get(params.uri) || 0) + 1);
      for (const waiter of waiters.splice(0)) waiter();
    });
    connection.onNotification(rpc.LogMessageNotification.type, (params) => {
      logs.push(params.message);
      for (const waiter of waiters.splice(0)) waiter();
    });
    connection.onNotification(rpc.ShowMessageNotification.type, (params) => logs.push(params.message));
    connection.listen();
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until check() holds of what has arrived (at most seconds).
    async function until(check, what, seconds = 10) {
      const deadline = Date.now() + seconds * 1000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => { waiters.push(resolve); setTimeout(resolve, 100); });
      }
    }
    return { child, connection, diagnostics, published, logs, exited, until };
  }

  // initialize with root as the workspace folder and rootUri, then initialized.
  async function initialize(server, root, capabilities = {}) {
    const result = await server.connection.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid, rootUri: pathToFileURL(root).href, capabilities,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'hello' }],
    });
    await server.connection.sendNotification(rpc.InitializedNotification.type, {});
    return result;
  }

  // shutdown (answered null), exit, and the exit status expected.
  async function finish(server, expectedCode = 0) {
    assert.equal(await server.connection.sendRequest(rpc.ShutdownRequest.type), null);
    await server.connection.sendNotification(rpc.ExitNotification.type);
    assert.equal(await server.exited, expectedCode);
    server.connection.dispose();
  }

  return { copyProject, uriOf, start, initialize, finish };
}

module.exports = { lspClient };
