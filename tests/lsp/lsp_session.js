// tests/lsp/lsp_session.js: drives the real `semapraxd --lsp` over pipes
// with vscode-languageserver-protocol's connection (vscode-jsonrpc's
// Content-Length reader and writer), on copies of examples/hello, and
// checks: the lifecycle and exit codes, diagnostics after an edit and after
// its fix, the overlay rules (an unsaved edit is seen; a disk edit to an
// open file is not until it is closed; a disk edit to a closed file is),
// quick fixes, notes as relatedInformation, bytes that are not UTF-8,
// a manifest change, document symbols, formatting, position encodings with non-ASCII text, and the
// error paths, some of them over raw bytes (a malformed header, a bad JSON
// body).
//
//   node lsp_session.js SEMAPRAXD EXAMPLE WORKDIR
'use strict';
const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const rpc = require('vscode-languageserver-protocol/node');
const { lspClient } = require('./lsp_client.js');

const [semapraxd, example, workdir] = process.argv.slice(2);

const { copyProject, uriOf, start, initialize, finish } = lspClient(semapraxd, example, workdir);
// initialize offering these position encodings (none: the default).
const initializeWith = (server, root, encodings) =>
  initialize(server, root, encodings ? { general: { positionEncodings: encodings } } : {});

const codes = (list) => (list || []).map((d) => d.code);

async function lifecycleAndDiagnostics() {
  const root = copyProject('edits é dir'); // a URI with escapes
  const server = start();
  const math = uriOf(root, 'src/math.spx'), app = uriOf(root, 'src/app.spx');
  const init = await initialize(server, root);
  assert.equal(init.capabilities.positionEncoding, 'utf-16');
  assert.equal(init.capabilities.textDocumentSync.change, rpc.TextDocumentSyncKind.Incremental);
  assert.equal(init.capabilities.documentFormattingProvider, true);
  assert.equal(init.capabilities.documentSymbolProvider, true);
  assert.equal(init.serverInfo.name, 'semapraxd');
  await server.until(() => server.diagnostics.has(math) && server.diagnostics.has(app),
                     'the first diagnostics');
  assert.deepEqual(server.diagnostics.get(math), []);
  assert.ok(server.diagnostics.has(uriOf(root, 'semaprax.toml')));

  // A second initialize, and an unknown method.
  await assert.rejects(server.connection.sendRequest('initialize', { capabilities: {} }),
                       (e) => e.code === -32600);
  await assert.rejects(server.connection.sendRequest('semaprax/unknown', {}),
                       (e) => e.code === -32601 && /unknown method/.test(e.message));
  // Unknown notifications and $/ ones are ignored; the server goes on.
  await server.connection.sendNotification('semaprax/whatever', {});
  await server.connection.sendNotification('$/setTrace', { value: 'off' });
  await server.connection.sendNotification('$/cancelRequest', { id: 12345 });

  // An unsaved edit that breaks a call: the error comes, with a suggestion.
  const text = fs.readFileSync(path.join(root, 'src/math.spx'), 'utf8');
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: math, languageId: 'semaprax', version: 1, text },
  });
  const line = text.split('\n').findIndex((l) => l.includes('assert(fib(10) == 55)'));
  const column = text.split('\n')[line].indexOf('fib(10)');
  server.diagnostics.delete(math);
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 2 },
    contentChanges: [{ range: { start: { line, character: column },
                                end: { line, character: column + 3 } }, text: 'fibb' }],
  });
  const appPublished = server.published.get(app);
  await server.until(() => codes(server.diagnostics.get(math)).includes('E0309'), 'E0309');
  // Only what changed is published again: app.spx's list did not.
  assert.equal(server.published.get(app), appPublished);
  const error = server.diagnostics.get(math).find((d) => d.code === 'E0309');
  assert.equal(error.source, 'semaprax');
  assert.equal(error.severity, 1);
  assert.deepEqual(error.range, { start: { line, character: column },
                                  end: { line, character: column + 4 } });
  assert.match(error.message, /did you mean 'fib'/);
  // The disk is untouched: the server never writes.
  assert.equal(fs.readFileSync(path.join(root, 'src/math.spx'), 'utf8'), text);

  // The quick fix replaces the unknown name with the suggestion.
  const actions = await server.connection.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: math }, range: error.range, context: { diagnostics: [error] },
  });
  const fix = actions.find((a) => a.title === "Replace 'fibb' with 'fib'");
  assert.ok(fix, JSON.stringify(actions));
  assert.equal(fix.kind, 'quickfix');
  assert.deepEqual(fix.edit.changes[math], [{ range: error.range, newText: 'fib' }]);

  // Two changes in one notification, applied in order: the second's range
  // is in the text the first made ("fibb" -> "fibbb" -> "fib").
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 3 },
    contentChanges: [
      { range: { start: { line, character: column + 4 }, end: { line, character: column + 4 } },
        text: 'b' },
      { range: { start: { line, character: column + 3 }, end: { line, character: column + 5 } },
        text: '' },
    ],
  });
  await server.until(() => codes(server.diagnostics.get(math)).length === 0, 'the edits');

  // The fix, as a full-text change: the error is cleared.
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 4 }, contentChanges: [{ text: text.replace('fib(10)', 'fibb(10)') }],
  });
  await server.until(() => codes(server.diagnostics.get(math)).length === 1, 'the error again');
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 5 }, contentChanges: [{ text }],
  });
  await server.until(() => codes(server.diagnostics.get(math)).length === 0, 'the error cleared');

  // A changed exported header reaches the modules that import it, closed
  // or not (the server re-checks only what an edit can reach): app.spx,
  // which calls math.fact, gets the error; undone, the error goes.
  assert.ok(text.includes('export fn fact('));
  assert.deepEqual(codes(server.diagnostics.get(app)), []);
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 6 },
    contentChanges: [{ text: text.replace('export fn fact(', 'export fn factorial(') }],
  });
  await server.until(() => codes(server.diagnostics.get(app)).includes('E0309'), 'app reached');
  assert.match(server.diagnostics.get(app).find((d) => d.code === 'E0309').message,
               /unknown function 'fact' in module 'math'/);
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 7 }, contentChanges: [{ text }],
  });
  await server.until(() => codes(server.diagnostics.get(app)).length === 0, 'app cleared');

  // A change to a document never opened, and a version gap: logged, no crash.
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: uriOf(root, 'src/nothing.spx'), version: 2 },
    contentChanges: [{ text: 'x' }],
  });
  await server.until(() => server.logs.some((l) => /not open: ignored/.test(l)), 'the log');
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 9 }, contentChanges: [{ text }],
  });
  await server.until(() => server.logs.some((l) => /version 9 after 7/.test(l)), 'the gap');

  await finish(server, 0);
}

async function overlayRules() {
  const root = copyProject('overlay');
  const server = start();
  const math = uriOf(root, 'src/math.spx'), text = uriOf(root, 'src/text.spx');
  await initialize(server, root);
  await server.until(() => server.diagnostics.has(math), 'the first diagnostics');
  const mathText = fs.readFileSync(path.join(root, 'src/math.spx'), 'utf8');
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: math, languageId: 'semaprax', version: 1, text: mathText },
  });
  // A disk edit to the open file is not seen: the buffer is the truth.
  fs.writeFileSync(path.join(root, 'src/math.spx'), mathText.replace('return fib(1) - 1;',
                                                                      'return nope(1);'));
  await server.connection.sendNotification(rpc.DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: math, type: 2 }],
  });
  const answer = await server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: math }, options: { tabSize: 4, insertSpaces: true },
  });
  assert.deepEqual(answer, []);
  assert.deepEqual(codes(server.diagnostics.get(math)), []);
  // Closed, the file on disk is what counts.
  server.diagnostics.delete(math);
  await server.connection.sendNotification(rpc.DidCloseTextDocumentNotification.type, {
    textDocument: { uri: math },
  });
  await server.until(() => codes(server.diagnostics.get(math)).length > 0, 'the disk error');
  // A disk edit to a closed file is seen at the next request.
  fs.writeFileSync(path.join(root, 'src/math.spx'), mathText);
  const textSource = fs.readFileSync(path.join(root, 'src/text.spx'), 'utf8');
  fs.writeFileSync(path.join(root, 'src/text.spx'), textSource + '\nfn broken() -> int { return "s"; }\n');
  await server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: math }, options: { tabSize: 4, insertSpaces: true },
  });
  await server.until(() => codes(server.diagnostics.get(math)).length === 0 &&
                           codes(server.diagnostics.get(text)).length > 0, 'the disk edits');
  await finish(server, 0);
}

async function formatting() {
  const root = copyProject('format');
  const server = start();
  const math = uriOf(root, 'src/math.spx');
  await initialize(server, root);
  const messy = 'export fn   one( )->int{\n  return 1 ;}\n\nfn test_fib() -> int { return one(); }\n';
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: math, languageId: 'semaprax', version: 1, text: messy },
  });
  const edits = await server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: math }, options: { tabSize: 4, insertSpaces: true },
  });
  // One edit per changed run of lines; the blank line between the two
  // items, which the layout keeps, is not touched.
  assert.equal(edits.length, 2, JSON.stringify(edits));
  assert.deepEqual(edits[0].range, { start: { line: 0, character: 0 },
                                     end: { line: 2, character: 0 } });
  assert.deepEqual(edits[1].range.start, { line: 3, character: 0 });
  // Applied from the last to the first, they give the canonical layout.
  const lines = messy.split('\n');
  const offset = (p) => lines.slice(0, p.line).join('\n').length + (p.line ? 1 : 0) + p.character;
  let formatted = messy;
  for (const edit of [...edits].reverse())
    formatted = formatted.slice(0, offset(edit.range.start)) + edit.newText +
      formatted.slice(offset(edit.range.end));
  assert.equal(formatted, 'export fn one() -> int {\n    return 1;\n}\n\n' +
                          'fn test_fib() -> int {\n    return one();\n}\n');
  // Formatting it again changes nothing.
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 2 }, contentChanges: [{ text: formatted }],
  });
  assert.deepEqual(await server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: math }, options: { tabSize: 4, insertSpaces: true },
  }), []);
  // A document that does not parse: an error saying why, nothing changed.
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 3 }, contentChanges: [{ text: 'fn (' }],
  });
  await assert.rejects(server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: math }, options: { tabSize: 4, insertSpaces: true },
  }), (e) => e.code === -32803 && /does not parse/.test(e.message));
  await finish(server, 0);
}

async function encodings() {
  for (const [offered, expected, unit] of [[undefined, 'utf-16', (s) => s.length],
                                           [['utf-8', 'utf-16'], 'utf-8',
                                            (s) => Buffer.byteLength(s, 'utf8')]]) {
    const root = copyProject(`encoding-${expected}`);
    const server = start();
    const math = uriOf(root, 'src/math.spx');
    const init = await initializeWith(server, root, offered);
    assert.equal(init.capabilities.positionEncoding, expected);
    // An unknown name after a string with a character outside the BMP and
    // an accented one: the range counts in the agreed unit.
    const prefix = '    let s = "é😀€"; return nope';
    const text = `export fn f() -> int {\n${prefix}(1);\n}\n\r\nfn g(x: int) -> int { return x; }\n` +
      'fn test_fib() -> int { return 0; }\n';
    await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
      textDocument: { uri: math, languageId: 'semaprax', version: 1, text },
    });
    await server.until(() => codes(server.diagnostics.get(math)).length > 0, 'the error');
    const error = server.diagnostics.get(math)[0];
    const column = unit(prefix.slice(0, prefix.length - 4));
    assert.deepEqual(error.range, { start: { line: 1, character: column },
                                    end: { line: 1, character: column + 4 } }, expected);
    // An incremental edit placed in the same unit: nope -> g (known).
    await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri: math, version: 2 },
      contentChanges: [{ range: error.range, text: 'g' }],
    });
    await server.until(() => (server.diagnostics.get(math) || []).length > 0 &&
                             !server.diagnostics.get(math).some((d) => d.severity === 1) ||
                             server.diagnostics.get(math)?.length === 0, 'the fix');
    await finish(server, 0);
  }
}

async function filesOnDisk() {
  const root = copyProject('disk #1');
  const mathPath = path.join(root, 'src/math.spx'), textPath = path.join(root, 'src/text.spx');
  const mathText = fs.readFileSync(mathPath, 'utf8'), textText = fs.readFileSync(textPath);
  fs.appendFileSync(mathPath, '\nfn add(x: int, y: int) -> int {\n    return x;\n}\n');
  // Bytes that are not UTF-8 in a closed file: diagnostics, not a crash.
  fs.appendFileSync(textPath, Buffer.from([0x2f, 0x2f, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x20, 0xff,
                                           0x0a]));
  const server = start();
  const math = uriOf(root, 'src/math.spx'), text = uriOf(root, 'src/text.spx');
  const app = uriOf(root, 'src/app.spx'), manifest = uriOf(root, 'semaprax.toml');
  await initialize(server, root);
  await server.until(() => codes(server.diagnostics.get(math)).length > 0 &&
                           codes(server.diagnostics.get(text)).length > 0, 'the disk errors');
  // The engine's note is relatedInformation, in the same file.
  const duplicate = server.diagnostics.get(math).find((d) => d.code === 'E0305');
  const addLine = mathText.split('\n').findIndex((l) => l.startsWith('fn add('));
  assert.deepEqual(duplicate.relatedInformation, [{
    location: { uri: math, range: { start: { line: addLine, character: 3 },
                                    end: { line: addLine, character: 6 } } },
    message: 'first declared here',
  }]);
  const lastLine = textText.toString('utf8').split('\n').length - 1;
  assert.deepEqual(server.diagnostics.get(text).map((d) => [d.code, d.range.start]), [
    ['E0203', { line: lastLine, character: 6 }],
    ['E0203', { line: lastLine, character: 8 }], // the first bad byte is one U+FFFD
  ]);
  // Fixed on disk, announced by the client: both cleared.
  fs.writeFileSync(mathPath, mathText);
  fs.writeFileSync(textPath, textText);
  await server.connection.sendNotification(rpc.DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: math, type: 2 }, { uri: text, type: 2 }],
  });
  await server.until(() => codes(server.diagnostics.get(math)).length === 0 &&
                           codes(server.diagnostics.get(text)).length === 0, 'the fixes');
  // The module's items, from its declarations.
  const symbols = await server.connection.sendRequest(rpc.DocumentSymbolRequest.type, {
    textDocument: { uri: app },
  });
  const main = symbols.find((s) => s.name === 'main');
  assert.ok(main, JSON.stringify(symbols));
  assert.equal(main.kind, rpc.SymbolKind.Function);
  assert.equal(main.detail, 'export fn main() -> int');
  // A change to the manifest opens the project again, even while it is open
  // in the editor (a manifest's buffer overlays nothing: its file counts).
  const manifestText = fs.readFileSync(path.join(root, 'semaprax.toml'), 'utf8');
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: manifest, languageId: 'toml', version: 1, text: manifestText },
  });
  fs.writeFileSync(path.join(root, 'semaprax.toml'),
                   manifestText.replace('name = "hello"', 'name = "Hello"'));
  await server.connection.sendNotification(rpc.DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: manifest, type: 2 }],
  });
  await server.until(() => codes(server.diagnostics.get(manifest)).length > 0, 'the manifest');
  assert.match(server.diagnostics.get(manifest)[0].code, /^E01/);
  await finish(server, 0);
}

async function errorPaths() {
  const root = copyProject('errors');
  // Before initialize: -32002; exit without shutdown: 1.
  let server = start();
  await assert.rejects(server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: uriOf(root, 'src/math.spx') }, options: { tabSize: 4, insertSpaces: true },
  }), (e) => e.code === -32002);
  await server.connection.sendNotification(rpc.ExitNotification.type);
  assert.equal(await server.exited, 1);
  server.connection.dispose();

  // After shutdown: -32600; then exit: 0.
  server = start();
  await initialize(server, root);
  assert.equal(await server.connection.sendRequest(rpc.ShutdownRequest.type), null);
  await assert.rejects(server.connection.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri: uriOf(root, 'src/math.spx') }, options: { tabSize: 4, insertSpaces: true },
  }), (e) => e.code === -32600);
  await server.connection.sendNotification(rpc.ExitNotification.type);
  assert.equal(await server.exited, 0);
  server.connection.dispose();

  // Huge buffers: one over the source limit is not opened; one at it is,
  // and a didChange whose changes would scan it more than the work bound
  // allows is refused whole (the buffer stays as it was), never a hang.
  server = start();
  await initialize(server, root);
  const big = 'file:///nowhere/big.spx', limit = 16 * 1024 * 1024;
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: big, languageId: 'semaprax', version: 1, text: 'x'.repeat(limit + 1) },
  });
  await server.until(() => server.logs.some((l) => /over the source limit/.test(l)), 'refusal');
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: big, languageId: 'semaprax', version: 1, text: 'x'.repeat(limit - 100) },
  });
  const insert = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                   text: 'y' };
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: big, version: 2 }, contentChanges: Array(65).fill(insert),
  });
  // The refusal comes after the 64 changes the bound allows were applied
  // (1 GiB copied: well under a second, several under a sanitizer).
  await server.until(() => server.logs.some((l) => /more than 1024 MiB of work/.test(l)), 'bound',
                     60);
  await finish(server, 0);

  // A folder without a manifest: said once, and the server goes on.
  server = start();
  const empty = path.join(workdir, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  await initialize(server, empty);
  await server.until(() => server.logs.some((l) => /cannot be opened/.test(l)), 'the message');
  await finish(server, 0);

  // Raw bytes: a malformed header, a bad JSON body, a buffer with a lone
  // surrogate (not UTF-8 once decoded), then requests that are still
  // answered (the framing resynchronises).
  const child = cp.spawn(semapraxd, ['--lsp', '--manifest-path', path.join(root, 'semaprax.toml')],
                         { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = Buffer.alloc(0);
  child.stdout.on('data', (chunk) => { output = Buffer.concat([output, chunk]); });
  const frame = (body) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  child.stdin.write('Content-Type: x\r\n\r\n');
  child.stdin.write('Content-Length: 7\r\n\r\n{"bad":');
  child.stdin.write(frame('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'));
  child.stdin.write(frame('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":' +
    `{"textDocument":{"uri":"${uriOf(root, 'src/math.spx')}","languageId":"semaprax",` +
    '"version":1,"text":"\\ud800"}}}'));
  // "params": null, as eglot sends shutdown and exit: taken as no params
  child.stdin.write(frame('{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}'));
  child.stdin.write(frame('{"jsonrpc":"2.0","method":"exit","params":null}'));
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
  const messages = [];
  for (let at = 0; at < output.length;) {
    const end = output.indexOf('\r\n\r\n', at);
    const length = Number(/Content-Length: (\d+)/.exec(output.slice(at, end).toString())[1]);
    messages.push(JSON.parse(output.slice(end + 4, end + 4 + length).toString()));
    at = end + 4 + length;
  }
  assert.match(messages[0].params.message, /dropped: no Content-Length header/);
  assert.equal(messages[1].error.code, -32700);
  assert.equal(messages[1].id, null);
  assert.equal(messages.find((m) => m.id === 1).result.capabilities.positionEncoding, 'utf-16');
  assert.equal(messages.find((m) => m.id === 2).result, null);
  const refused = messages.filter((m) => m.error);
  assert.deepEqual(refused.map((m) => [m.id, m.error.code]), [[null, -32700], [null, -32700]]);
}

(async () => {
  fs.mkdirSync(workdir, { recursive: true });
  for (const [name, run] of [['lifecycle and diagnostics', lifecycleAndDiagnostics],
                             ['overlay rules', overlayRules], ['files on disk', filesOnDisk],
                             ['formatting', formatting],
                             ['position encodings', encodings], ['error paths', errorPaths]]) {
    await run();
    console.log(`ok: ${name}`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
