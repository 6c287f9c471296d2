// tests/lsp/vscode/grammar.js: editors/vscode's TextMate grammar, tokenized
// by VS Code's own tokenizer (vscode-textmate over vscode-oniguruma, as the
// editor loads it). Tokenizes every .spx file under the folders given and
// tests/lsp/vscode/sample.spx, fails when any token of any line has an
// "invalid" scope, and asserts the scopes of chosen tokens of the sample (a
// keyword, a string escape, a comment, a hex number, a function name at its
// declaration and at a call, ...). Prints a transcript.
//
//   node grammar.js GRAMMAR SAMPLE FOLDER...
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const [grammarPath, samplePath, ...folders] = process.argv.slice(2);
let failures = 0;
function fail(message) {
  console.log(`FAIL: ${message}`);
  failures += 1;
}

function spxFiles(folder) {
  const found = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...spxFiles(full));
    else if (entry.name.endsWith('.spx')) found.push(full);
  }
  return found.sort();
}

// Every line's tokens as { line, text, scopes } (the rule stack carried over).
function tokenize(grammar, text) {
  const tokens = [];
  let stack = vsctm.INITIAL;
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      tokens.push({
        line: index + 1,
        text: line.slice(token.startIndex, token.endIndex),
        scopes: token.scopes,
      });
    }
    stack = result.ruleStack;
  });
  return tokens;
}

async function main() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.semaprax') return null;
      return vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath);
    },
  });
  const grammar = await registry.loadGrammar('source.semaprax');
  if (!grammar) throw new Error(`no grammar source.semaprax in ${grammarPath}`);

  // No line of any example (nor the sample) has an "invalid" token.
  const files = folders.flatMap(spxFiles).concat([samplePath]);
  let lines = 0;
  let count = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    lines += text.split(/\r\n|\r|\n/).length;
    const tokens = tokenize(grammar, text);
    count += tokens.length;
    for (const token of tokens) {
      if (token.scopes.some((scope) => scope.startsWith('invalid'))) {
        fail(`${file}:${token.line}: '${token.text}' is ${token.scopes.join(' ')}`);
      }
    }
  }
  console.log(`tokenized ${files.length} files (${lines} lines, ${count} tokens): no invalid scope`
    + (failures ? ' -- but see the failures above' : ''));

  // Chosen tokens of the sample: [line, token text, the innermost scope].
  const sample = tokenize(grammar, fs.readFileSync(samplePath, 'utf8'));
  const expected = [
    [1, '//', 'punctuation.definition.comment.semaprax'],
    [1, ' Every construct the grammar colours: tests/lsp/vscode/grammar.js asserts', 'comment.line.double-slash.semaprax'],
    [3, 'import', 'keyword.other.import.semaprax'],
    [5, 'const', 'storage.modifier.const.semaprax'],
    [5, 'MASK', 'variable.other.constant.semaprax'],
    [5, 'int', 'support.type.primitive.semaprax'],
    [5, '0xff_ff', 'constant.numeric.hex.semaprax'],
    [6, '\\n', 'constant.character.escape.semaprax'],
    [7, '\\x27', 'constant.character.escape.semaprax'],
    [9, 'struct', 'storage.type.struct.semaprax'],
    [9, 'Point', 'entity.name.type.semaprax'],
    [14, 'enum', 'storage.type.enum.semaprax'],
    [19, 'export', 'storage.modifier.export.semaprax'],
    [19, 'fn', 'storage.type.function.semaprax'],
    [19, 'main', 'entity.name.function.semaprax'],
    [19, '->', 'keyword.operator.arrow.semaprax'],
    [20, 'str', 'support.type.primitive.semaprax'],
    [20, 'tab', 'string.quoted.double.semaprax'],
    [20, '\\t', 'constant.character.escape.semaprax'],
    [20, '\\"', 'constant.character.escape.semaprax'],
    [20, '\\u{1F600}', 'constant.character.escape.semaprax'],
    [21, '1_000', 'constant.numeric.decimal.semaprax'],
    [22, 'bool', 'support.type.primitive.semaprax'],
    [22, 'true', 'constant.language.boolean.semaprax'],
    [22, '&&', 'keyword.operator.logical.semaprax'],
    [23, 'for', 'keyword.control.semaprax'],
    [23, 'in', 'keyword.control.semaprax'],
    [23, '..', 'keyword.operator.range.semaprax'],
    [24, '+=', 'keyword.operator.assignment.compound.semaprax'],
    [24, '%', 'keyword.operator.arithmetic.semaprax'],
    [25, '>=', 'keyword.operator.comparison.semaprax'],
    [25, '||', 'keyword.operator.logical.semaprax'],
    [26, 'break', 'keyword.control.semaprax'],
    [29, '<<=', 'keyword.operator.assignment.compound.semaprax'],
    [30, '>>', 'keyword.operator.bitwise.shift.semaprax'],
    [30, '&', 'keyword.operator.bitwise.semaprax'],
    [31, 'match', 'keyword.control.semaprax'],
    [32, '=>', 'keyword.operator.arrow.semaprax'],
    [33, 'print', 'support.function.builtin.semaprax'],
    [39, 'return', 'keyword.control.semaprax'],
    [39, 'fact', 'entity.name.function.call.semaprax'],
  ];
  for (const [line, text, scope] of expected) {
    const token = sample.find((t) => t.line === line && t.text === text);
    if (!token) {
      fail(`sample line ${line}: no token '${text}' (tokens: ${sample.filter((t) => t.line === line)
        .map((t) => `'${t.text}'`).join(' ')})`);
    } else if (token.scopes[token.scopes.length - 1] !== scope) {
      fail(`sample line ${line}: '${text}' is ${token.scopes.join(' ')}, not ${scope}`);
    } else {
      console.log(`  ${line}: ${JSON.stringify(text)} ${token.scopes.slice(1).join(' ')}`);
    }
  }

  // A malformed literal is marked invalid (so the check above can fail).
  const bad = tokenize(grammar, "let x = 12ab + '' + \"\\q\" + \"\\x41\";");
  for (const text of ['12ab', "''", '\\q', '\\x']) {
    const token = bad.find((t) => t.text === text);
    if (!token || !token.scopes.some((s) => s.startsWith('invalid'))) {
      fail(`'${text}' is not marked invalid (${token ? token.scopes.join(' ') : 'no such token'})`);
    }
  }
  console.log("  12ab, '', \"\\q\" and \"\\x41\" (\\x is a byte literal's escape only) are marked invalid");
  if (failures) {
    console.log(`${failures} failure(s)`);
    process.exit(1);
  }
  console.log('grammar: ok');
}

main().catch((error) => {
  console.log(`FAIL: ${error.stack || error}`);
  process.exit(1);
});
