// tests/lsp/lsp_navigation.js: drives the real `semapraxd --lsp` over pipes
// with vscode-languageserver-protocol's connection, on copies of
// examples/hello, and checks the navigation requests with exact ranges:
// hover (and hover over an unsaved edit), definition across modules,
// references, documentHighlight, workspace/symbol, completion,
// signatureHelp, semanticTokens/full, prepareRename and rename (a
// WorkspaceEdit over every file that calls the function, with the open
// documents' versions; a refusal's sentence), positions with text that is
// not ASCII in UTF-16 and UTF-8, and documents outside the project;
// documentSymbol's tree (fields under their struct, the manifest's tests),
// listed while the source has errors too; and that documentSymbol and
// rename (rename needs the full project the server builds only when asked;
// its diagnostics come from a lighter rebuild) answer every edit's text,
// never an earlier one's.
//
//   node lsp_navigation.js SEMAPRAXD EXAMPLE WORKDIR
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');
const { lspClient } = require('./lsp_client.js');

const [semapraxd, example, workdir] = process.argv.slice(2);

const { copyProject, uriOf, start, initialize, finish } = lspClient(semapraxd, example, workdir);

const read = (root, relative) => fs.readFileSync(path.join(root, relative), 'utf8');
const range = (line, character, length, endLine = line) =>
  ({ start: { line, character }, end: { line: endLine, character: character + length } });

// The line and UTF-16 column of the n-th (0-based) occurrence of needle.
function find(text, needle, n = 0, unit = (s) => s.length) {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `${needle} #${n}`);
  }
  const before = text.slice(0, at).split('\n');
  return { line: before.length - 1, character: unit(before[before.length - 1]) };
}

// Apply a list of TextEdits (UTF-16 positions) to a text.
function apply(text, edits) {
  const lines = text.split('\n');
  const offset = (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const edit of sorted)
    text = text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
  return text;
}

// The semantic tokens decoded: [line, character, length, type, modifiers].
function decode(data) {
  const tokens = [];
  let line = 0, character = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
    tokens.push([line, character, data[i + 2], data[i + 3], data[i + 4]]);
  }
  return tokens;
}

async function navigation() {
  const root = copyProject('navigation');
  const server = start();
  const app = uriOf(root, 'src/app.spx'), math = uriOf(root, 'src/math.spx');
  const words = uriOf(root, 'src/words.spx');
  const init = await initialize(server, root);
  const caps = init.capabilities;
  assert.equal(caps.hoverProvider, true);
  assert.equal(caps.definitionProvider, true);
  assert.equal(caps.referencesProvider, true);
  assert.equal(caps.documentHighlightProvider, true);
  assert.equal(caps.workspaceSymbolProvider, true);
  assert.deepEqual(caps.completionProvider.triggerCharacters, ['.']);
  assert.deepEqual(caps.signatureHelpProvider.triggerCharacters, ['(', ',']);
  assert.deepEqual(caps.renameProvider, { prepareProvider: true });
  const legend = caps.semanticTokensProvider.legend;
  assert.equal(caps.semanticTokensProvider.full, true);
  const appText = read(root, 'src/app.spx'), mathText = read(root, 'src/math.spx');
  const wordsText = read(root, 'src/words.spx');
  const request = (type, params) => server.connection.sendRequest(type, params);

  // hover: the declaration and the comment above it; the name's range.
  const split = find(appText, 'split(');
  const hover = await request(rpc.HoverRequest.type, { textDocument: { uri: app }, position: split });
  assert.deepEqual(hover.contents, {
    kind: 'markdown',
    value: '```semaprax\nexport fn split(s: str) -> [str]\n```\n\n' +
      "The words of s: its runs of bytes other than space, tab and line end.",
  });
  assert.deepEqual(hover.range, range(split.line, split.character, 5));
  // Nothing at a blank: null.
  assert.equal(await request(rpc.HoverRequest.type,
                             { textDocument: { uri: app }, position: { line: 4, character: 0 } }),
               null);

  // definition, across modules: math.fib called in app.spx.
  const call = find(appText, 'math.fib');
  call.character += 5;
  const fibDeclared = find(mathText, 'fib(n');
  const definition = await request(rpc.DefinitionRequest.type,
                                   { textDocument: { uri: app }, position: call });
  assert.deepEqual(definition, { uri: math, range: range(fibDeclared.line, fibDeclared.character, 3) });
  // A local's definition in its function.
  const nextUse = find(mathText, 'b = next');
  nextUse.character += 4;
  const nextDeclared = find(mathText, 'next =');
  assert.deepEqual(await request(rpc.DefinitionRequest.type,
                                 { textDocument: { uri: math }, position: nextUse }),
                   { uri: math, range: range(nextDeclared.line, nextDeclared.character, 4) });
  // A builtin is declared nowhere.
  assert.equal(await request(rpc.DefinitionRequest.type,
                             { textDocument: { uri: app }, position: find(appText, 'itos') }),
               null);

  // references: every call, by source then offset; the declaration when asked.
  const fibSites = [
    { uri: app, range: range(call.line, call.character, 3) },
    { uri: math, range: range(fibDeclared.line, fibDeclared.character, 3) },
    ...[0, 1].map((n) => {
      const at = find(mathText, 'fib(1', n);
      return { uri: math, range: range(at.line, at.character, 3) };
    }),
  ];
  assert.deepEqual(await request(rpc.ReferencesRequest.type, {
    textDocument: { uri: app }, position: call, context: { includeDeclaration: true } }), fibSites);
  assert.deepEqual(await request(rpc.ReferencesRequest.type, {
    textDocument: { uri: app }, position: call, context: { includeDeclaration: false } }),
  fibSites.filter((s, i) => i !== 1));

  // documentHighlight: the sites in the document only, of kind Text.
  assert.deepEqual(await request(rpc.DocumentHighlightRequest.type,
                                 { textDocument: { uri: math }, position: fibDeclared }),
                   fibSites.slice(1).map((s) => ({ range: s.range, kind: 1 })));

  // workspace/symbol: names containing the query, any case.
  const symbols = await request(rpc.WorkspaceSymbolRequest.type, { query: 'FIB' });
  assert.deepEqual(symbols.map((s) => [s.name, s.kind, s.containerName]),
                   [['fib', 12, 'math'], ['test_fib', 12, 'math']]);
  assert.deepEqual(symbols[0].location, { uri: math, range: range(fibDeclared.line, fibDeclared.character, 3) });
  const count = (await request(rpc.WorkspaceSymbolRequest.type, { query: 'count' }))
    .find((s) => s.name === 'Count');
  assert.equal(count.kind, 23);
  assert.equal(count.location.uri, words);

  // completion after "math.f": the module's exported functions only.
  const afterDot = { line: call.line, character: call.character + 1 };
  const completion = await request(rpc.CompletionRequest.type, {
    textDocument: { uri: app }, position: afterDot, context: { triggerKind: 1 } });
  assert.equal(completion.isIncomplete, false);
  assert.deepEqual(completion.items.map((i) => [i.label, i.kind]).sort(),
                   [['fact', 3], ['fib', 3]]);
  assert.match(completion.items.find((i) => i.label === 'fib').detail, /fib\(n: int\) -> int/);
  // After "best.": the struct's fields.
  const best = find(appText, 'best.word');
  const fields = await request(rpc.CompletionRequest.type, {
    textDocument: { uri: app }, position: { line: best.line, character: best.character + 5 } });
  assert.deepEqual(fields.items.map((i) => [i.label, i.kind]).sort(), [['n', 5], ['word', 5]]);

  // signatureHelp: the active parameter after a comma, offsets into the label.
  const add = find(mathText, 'add(a, b)');
  const help = await request(rpc.SignatureHelpRequest.type, {
    textDocument: { uri: math }, position: { line: add.line, character: add.character + 7 } });
  assert.equal(help.activeParameter, 1);
  const signature = help.signatures[0];
  assert.match(signature.label, /add\(x: int, y: int\) -> int/);
  assert.deepEqual(signature.parameters.map((p) => signature.label.slice(p.label[0], p.label[1])),
                   ['x: int', 'y: int']);
  assert.equal(signature.activeParameter, 1);

  // semanticTokens/full: "export fn fib" as two keywords and a declared function.
  const tokens = decode((await request(rpc.SemanticTokensRequest.type,
                                       { textDocument: { uri: math } })).data);
  const type = (name) => legend.tokenTypes.indexOf(name);
  const declaration = 1 << legend.tokenModifiers.indexOf('declaration');
  const onFib = tokens.filter((t) => t[0] === fibDeclared.line);
  assert.deepEqual(onFib.slice(0, 3), [
    [fibDeclared.line, 0, 6, type('keyword'), 0],
    [fibDeclared.line, 7, 2, type('keyword'), 0],
    [fibDeclared.line, 10, 3, type('function'), declaration],
  ]);
  assert.deepEqual(tokens[0], [0, 0, mathText.split('\n')[0].length, type('comment'), 0]);

  // prepareRename: an exported function's name; null for anything else.
  assert.deepEqual(await request(rpc.PrepareRenameRequest.type,
                                 { textDocument: { uri: app }, position: call }),
                   { range: range(call.line, call.character, 3), placeholder: 'fib' });
  assert.equal(await request(rpc.PrepareRenameRequest.type,
                             { textDocument: { uri: math }, position: add }), null);
  assert.equal(await request(rpc.PrepareRenameRequest.type,
                             { textDocument: { uri: math }, position: nextDeclared }), null);

  // rename: one WorkspaceEdit over every file that calls fib; nothing written.
  const edit = await request(rpc.RenameRequest.type,
                             { textDocument: { uri: app }, position: call, newName: 'fibonacci' });
  assert.deepEqual(Object.keys(edit.changes).sort(), [app, math].sort());
  assert.deepEqual(edit.changes[app], [{ range: fibSites[0].range, newText: 'fibonacci' }]);
  assert.deepEqual(edit.changes[math].map((e) => e.range), fibSites.slice(1).map((s) => s.range));
  assert.match(apply(appText, edit.changes[app]), /itos\(math\.fibonacci\(10\)\)/);
  assert.match(apply(mathText, edit.changes[math]), /export fn fibonacci\(n: int\)/);
  assert.equal(read(root, 'src/app.spx'), appText);
  assert.equal(read(root, 'src/math.spx'), mathText);

  // Refusals: the plan's sentence as the error's message.
  const refused = async (position, uri, newName, pattern) => {
    await assert.rejects(request(rpc.RenameRequest.type, { textDocument: { uri }, position, newName }),
                         (e) => e.code === -32803 && pattern.test(e.message));
  };
  await refused(call, app, 'fact', /fact/);
  await refused(call, app, 'while', /keyword/);
  await refused(add, math, 'plus', /'add' is a function that is not exported; only an exported function can be renamed/);
  // test_fib is named by the manifest.
  const testFib = find(mathText, 'test_fib');
  await assert.rejects(request(rpc.RenameRequest.type, {
    textDocument: { uri: math }, position: testFib, newName: 'check' }), (e) => e.code === -32803);

  // Documents outside the project, or a position past the end: null or empty.
  const outside = pathToFileURL(path.join(workdir, 'elsewhere.spx')).href;
  const position = { line: 0, character: 0 };
  assert.equal(await request(rpc.HoverRequest.type, { textDocument: { uri: outside }, position }), null);
  assert.equal(await request(rpc.DefinitionRequest.type, { textDocument: { uri: outside }, position }), null);
  assert.deepEqual(await request(rpc.ReferencesRequest.type, {
    textDocument: { uri: outside }, position, context: { includeDeclaration: true } }), []);
  assert.deepEqual((await request(rpc.SemanticTokensRequest.type, { textDocument: { uri: outside } })).data, []);
  assert.deepEqual((await request(rpc.CompletionRequest.type, { textDocument: { uri: outside }, position })).items, []);
  assert.equal(await request(rpc.SignatureHelpRequest.type, { textDocument: { uri: outside }, position }), null);
  assert.equal(await request(rpc.PrepareRenameRequest.type, { textDocument: { uri: outside }, position }), null);
  assert.equal(await request(rpc.RenameRequest.type, { textDocument: { uri: outside }, position, newName: 'x' }), null);
  assert.equal(await request(rpc.HoverRequest.type, {
    textDocument: { uri: math }, position: { line: 9999, character: 9999 } }), null);
  assert.deepEqual(await request(rpc.DocumentHighlightRequest.type,
                                 { textDocument: { uri: math }, position: { line: -1, character: 0 } }), []);
  await finish(server);
}

// Hover and rename over unsaved buffers: the overlay is what is answered,
// and an open document's edit carries its version.
async function overlay() {
  const root = copyProject('overlay');
  const server = start();
  const app = uriOf(root, 'src/app.spx'), math = uriOf(root, 'src/math.spx');
  await initialize(server, root, { workspace: { workspaceEdit: { documentChanges: true } } });
  const request = (type, params) => server.connection.sendRequest(type, params);
  const mathText = read(root, 'src/math.spx');
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: math, languageId: 'semaprax', version: 1, text: mathText },
  });
  // An unsaved comment above fib, and two lines more before it.
  const fibLine = find(mathText, 'export fn fib').line;
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 2 },
    contentChanges: [{ range: range(fibLine, 0, 0), text: '\n// Fibonacci numbers.\n' }],
  });
  const edited = apply(mathText, [{ range: range(fibLine, 0, 0), newText: '\n// Fibonacci numbers.\n' }]);
  const fib = find(edited, 'fib(n');
  const hover = await request(rpc.HoverRequest.type, { textDocument: { uri: math }, position: fib });
  assert.equal(hover.contents.value,
               '```semaprax\nexport fn fib(n: int) -> int\n```\n\nFibonacci numbers.');
  assert.deepEqual(hover.range, range(fib.line, fib.character, 3));
  // The rename's edit of the open buffer is placed in the buffer, versioned;
  // app.spx (closed) carries no version.
  const edit = await request(rpc.RenameRequest.type,
                             { textDocument: { uri: math }, position: fib, newName: 'fibo' });
  assert.deepEqual(edit.documentChanges.map((d) => d.textDocument).sort((a, b) => a.uri < b.uri ? -1 : 1),
                   [{ uri: app, version: null }, { uri: math, version: 2 }]);
  const mathEdits = edit.documentChanges.find((d) => d.textDocument.uri === math).edits;
  assert.equal(mathEdits.length, 3);
  assert.deepEqual(mathEdits[0].range, range(fib.line, fib.character, 3));
  assert.match(apply(edited, mathEdits), /\/\/ Fibonacci numbers\.\nexport fn fibo\(n: int\)/);
  assert.doesNotMatch(apply(edited, mathEdits), /\bfib\(/);
  assert.equal(read(root, 'src/math.spx'), mathText);

  // An unsaved error elsewhere: hover still answers; rename is refused.
  const broken = find(edited, 'return a;');
  await server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: 3 },
    contentChanges: [{ range: range(broken.line, broken.character + 7, 1), text: 'nope' }],
  });
  const still = await request(rpc.HoverRequest.type, { textDocument: { uri: math }, position: fib });
  assert.match(still.contents.value, /export fn fib\(n: int\) -> int/);
  await assert.rejects(request(rpc.RenameRequest.type,
                               { textDocument: { uri: math }, position: fib, newName: 'fibo' }),
                       (e) => e.code === -32803 && e.message === 'the project is not admitted');
  // Params without what is needed: null, empty, or a refusal saying what is missing.
  assert.equal(await request(rpc.HoverRequest.type, { textDocument: { uri: math } }), null);
  assert.equal(await request(rpc.HoverRequest.type, { position: fib }), null);
  assert.deepEqual(await request(rpc.ReferencesRequest.type,
                                 { textDocument: { uri: math }, position: { line: 'x', character: 0 } }), []);
  await assert.rejects(request(rpc.RenameRequest.type, { textDocument: { uri: math }, position: fib }),
                       (e) => e.code === -32803 && e.message === 'params.newName is missing');
  await finish(server);
}

// documentSymbol and rename after each edit: the full project (built only
// for them, kept until the next change) is never older than the buffers.
async function freshAfterEdits() {
  const root = copyProject('fresh');
  const server = start();
  const math = uriOf(root, 'src/math.spx');
  await initialize(server, root);
  const request = (type, params) => server.connection.sendRequest(type, params);
  const mathText = read(root, 'src/math.spx');
  await server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: math, languageId: 'semaprax', version: 1, text: mathText },
  });
  const names = async () => (await request(rpc.DocumentSymbolRequest.type,
                                           { textDocument: { uri: math } })).map((s) => s.name);
  const symbol = async (name) => (await request(rpc.DocumentSymbolRequest.type,
                                                { textDocument: { uri: math } })).find((s) => s.name === name);
  assert.ok(!(await names()).includes('triple')); // the full project of version 1 is built
  let version = 1;
  const change = (text) => server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: math, version: ++version }, contentChanges: [{ text }],
  });
  const renameEdits = async (text, name, newName) => {
    const at = find(text, `fn ${name}(`);
    const edit = await request(rpc.RenameRequest.type, {
      textDocument: { uri: math }, position: { line: at.line, character: at.character + 3 }, newName,
    });
    return apply(text, edit.changes[math]);
  };
  // An exported function added: listed at its line, and renamed there.
  const added = `${mathText}\nexport fn triple(n: int) -> int {\n    return n * 3;\n}\n`;
  await change(added);
  const triple = await symbol('triple');
  assert.ok(triple, 'triple after the edit that adds it');
  assert.equal(triple.range.start.line, find(added, 'export fn triple').line);
  assert.match(await renameEdits(added, 'triple', 'thrice'), /export fn thrice\(n: int\)/);
  // Moved down three lines: the new line, not the cached project's.
  const moved = added.replace('\nexport fn triple', '\n\n\n\nexport fn triple');
  await change(moved);
  assert.equal((await symbol('triple')).range.start.line, triple.range.start.line + 3);
  const renamed = await renameEdits(moved, 'triple', 'thrice');
  assert.equal(find(renamed, 'export fn thrice').line, triple.range.start.line + 3);
  // Renamed in the buffer: the old name is gone from both answers.
  await change(renamed);
  assert.deepEqual((await names()).filter((n) => n === 'triple' || n === 'thrice'), ['thrice']);
  assert.match(await renameEdits(renamed, 'thrice', 'tripled'), /export fn tripled\(n: int\)/);
  // Back to the file's text, then an error: nothing listed while it is not admitted.
  await change(mathText);
  assert.ok(!(await names()).includes('thrice'));
  // An error in the buffer: the items are still listed (from the
  // declarations, as far as the source parsed).
  await change(mathText.replace('return a;', 'return nope;'));
  assert.ok((await names()).includes('fib'));
  await change(mathText);
  assert.ok((await names()).includes('fib'));
  await finish(server);
}

// documentSymbol: a source's items in source order with their one-line
// declarations, a struct's fields as its children, each selectionRange the
// name inside its range, and the manifest's tests of the source.
async function documentSymbols() {
  const root = copyProject('symbols');
  const server = start();
  await initialize(server, root);
  const words = uriOf(root, 'src/words.spx');
  const text = read(root, 'src/words.spx');
  const symbols = await server.connection.sendRequest(rpc.DocumentSymbolRequest.type,
                                                      { textDocument: { uri: words } });
  const names = symbols.map((s) => s.name);
  assert.deepEqual(names.slice(0, 3), ['FNV_OFFSET', 'FNV_PRIME', 'Count']);
  const count = symbols[2];
  assert.equal(count.kind, rpc.SymbolKind.Struct);
  assert.equal(count.detail, 'export struct Count { word: str, n: int }');
  assert.deepEqual(count.children.map((c) => [c.name, c.kind, c.detail]),
                   [['word', rpc.SymbolKind.Field, 'word: str'], ['n', rpc.SymbolKind.Field, 'n: int']]);
  const at = find(text, 'export struct Count');
  assert.deepEqual(count.range.start, at);
  assert.deepEqual(count.selectionRange,
                   { start: { line: at.line, character: at.character + 14 },
                     end: { line: at.line, character: at.character + 19 } });
  const split = symbols.find((s) => s.name === 'split');
  assert.equal(split.kind, rpc.SymbolKind.Function);
  assert.equal(split.detail, 'export fn split(s: str) -> [str]');
  // The manifest's test of this source, named as the manifest names it.
  const test = symbols[symbols.length - 1];
  assert.equal(test.detail, 'fn test_words() -> int');
  assert.equal(test.kind, rpc.SymbolKind.Function);
  // Not a source of the project: nothing.
  assert.deepEqual(await server.connection.sendRequest(rpc.DocumentSymbolRequest.type,
                   { textDocument: { uri: uriOf(root, 'semaprax.toml') } }), []);
  await finish(server);
}

// Positions after text that is not ASCII, in both encodings: a file on disk
// (with a BOM, which counts for nothing) and its ranges.
async function encodings() {
  for (const [offered, expected, unit] of [[undefined, 'utf-16', (s) => s.length],
                                           [['utf-8'], 'utf-8', (s) => Buffer.byteLength(s, 'utf8')]]) {
    const root = copyProject(`wide-${expected}`);
    const wide = '// Grüße 😀: text that is not ASCII.\n' +
      'fn wide() -> int {\n' +
      '    let e = "😀é"; let t = e + itos(fib(3));\n' +
      '    return len(t);\n' +
      '}\n';
    const mathText = read(root, 'src/math.spx') + '\n' + wide;
    fs.writeFileSync(path.join(root, 'src/math.spx'), '\ufeff' + mathText);
    const server = start();
    const math = uriOf(root, 'src/math.spx');
    const init = await initialize(server, root, offered ? { general: { positionEncodings: offered } } : {});
    assert.equal(init.capabilities.positionEncoding, expected);
    const request = (type, params) => server.connection.sendRequest(type, params);
    const at = (needle, n = 0) => find(mathText, needle, n, unit);
    // The definition of t, used on the next line, after the emoji.
    const use = at('len(t)');
    use.character += unit('len(');
    const declared = at('t = e');
    assert.deepEqual(await request(rpc.DefinitionRequest.type,
                                   { textDocument: { uri: math }, position: use }),
                     { uri: math, range: range(declared.line, declared.character, 1) });
    // Hover on e after the string: its range in the unit.
    const e = at('e + itos');
    const hover = await request(rpc.HoverRequest.type, { textDocument: { uri: math }, position: e });
    assert.deepEqual(hover.range, range(e.line, e.character, 1));
    assert.match(hover.contents.value, /let e/);
    // The semantic token of t's declaration.
    const legend = init.capabilities.semanticTokensProvider.legend;
    const tokens = decode((await request(rpc.SemanticTokensRequest.type,
                                         { textDocument: { uri: math } })).data);
    assert.ok(tokens.some((t) => t[0] === declared.line && t[1] === declared.character &&
                                 t[2] === 1 && t[3] === legend.tokenTypes.indexOf('variable')),
              JSON.stringify(tokens.filter((t) => t[0] === declared.line)));
    const comment = tokens.find((t) => t[0] === at('// Grüße').line);
    assert.deepEqual(comment.slice(0, 3), [at('// Grüße').line, 0, unit(wide.split('\n')[0])]);
    // The rename of fib reaches the call after the emoji, in the unit.
    const call = at('fib(3)');
    const edit = await request(rpc.RenameRequest.type,
                               { textDocument: { uri: math }, position: call, newName: 'fibo' });
    assert.ok(edit.changes[math].some((c) => c.range.start.line === call.line &&
                                             c.range.start.character === call.character &&
                                             c.range.end.character === call.character + 3),
              JSON.stringify(edit.changes[math]));
    await finish(server);
  }
}

(async () => {
  fs.mkdirSync(workdir, { recursive: true });
  for (const [name, run] of [['navigation', navigation], ['overlay', overlay],
                             ['document symbols', documentSymbols],
                             ['fresh after edits', freshAfterEdits], ['encodings', encodings]]) {
    await run();
    console.log(`ok: ${name}`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
