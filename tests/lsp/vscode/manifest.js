// tests/lsp/vscode/manifest.js: editors/vscode's manifest holds what VS
// Code's extension host requires to load it (name, publisher, version,
// engines.vscode, main, activation, contributes), its files exist and agree
// (the language's configuration, the grammar's scopeName), its lockfile pins
// vscode-languageclient at package.json's version, and extension.js, loaded
// with stand-ins for the `vscode` and `vscode-languageclient/node` modules
// (VS Code cannot be installed here), starts `<semaprax.serverPath> --lsp`
// over stdio for the semaprax language. Prints what it checked.
//
//   node manifest.js EXTENSION_FOLDER
'use strict';

const fs = require('fs');
const path = require('path');
const Module = require('module');

const folder = path.resolve(process.argv[2]);
let failures = 0;
function check(ok, message) {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${message}`);
  if (!ok) failures += 1;
}
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));

const manifest = readJson('package.json');
check(/^[a-z0-9][a-z0-9-]*$/.test(manifest.name || ''), `name '${manifest.name}' is lowercase without spaces`);
check(typeof manifest.publisher === 'string' && manifest.publisher.length > 0, `publisher '${manifest.publisher}'`);
check(/^\d+\.\d+\.\d+$/.test(manifest.version || ''), `version '${manifest.version}' is semver`);
const engine = manifest.engines && manifest.engines.vscode;
check(/^\^?\d+\.\d+\.\d+$/.test(engine || ''), `engines.vscode '${engine}' is a version range`);
check(typeof manifest.main === 'string' && fs.existsSync(path.join(folder, manifest.main)),
  `main '${manifest.main}' exists`);

const contributes = manifest.contributes || {};
const language = (contributes.languages || []).find((l) => l.id === 'semaprax');
check(language && (language.extensions || []).includes('.spx'), 'contributes.languages: semaprax for .spx');
// Since VS Code 1.74 a contributed language activates its extension
// (onLanguage:semaprax) without being listed; engines.vscode must allow it.
const events = manifest.activationEvents || [];
const major = engine ? engine.replace('^', '').split('.').map(Number) : [0, 0];
check(events.includes('onLanguage:semaprax') || (language && (major[0] > 1 || major[1] >= 74)),
  `activation: ${['onLanguage:semaprax (implicit from contributes.languages)'].concat(events).join(', ')}`);
check(events.every((e) => /^(onLanguage|workspaceContains|onCommand):./.test(e)), 'activationEvents are well formed');
if (language) {
  const configuration = readJson(language.configuration);
  check(configuration.comments && configuration.comments.lineComment === '//',
    `${language.configuration}: line comment //`);
  const brackets = (configuration.brackets || []).map((pair) => pair.join(''));
  check(['{}', '[]', '()'].every((b) => brackets.includes(b)), `${language.configuration}: brackets ${brackets.join(' ')}`);
}
const grammar = (contributes.grammars || []).find((g) => g.language === 'semaprax');
check(grammar && fs.existsSync(path.join(folder, grammar.path)), `contributes.grammars: ${grammar && grammar.path} exists`);
if (grammar) {
  const scope = readJson(grammar.path).scopeName;
  check(scope === grammar.scopeName, `the grammar's scopeName '${scope}' is the manifest's '${grammar.scopeName}'`);
}
const setting = contributes.configuration && contributes.configuration.properties
  && contributes.configuration.properties['semaprax.serverPath'];
check(setting && setting.type === 'string' && setting.default === 'semapraxd', 'setting semaprax.serverPath, default "semapraxd"');

const pinned = manifest.dependencies && manifest.dependencies['vscode-languageclient'];
const lock = readJson('package-lock.json');
const locked = lock.packages && lock.packages['node_modules/vscode-languageclient'];
check(/^\d+\.\d+\.\d+$/.test(pinned || '') && locked && locked.version === pinned && locked.integrity,
  `package-lock.json pins vscode-languageclient ${locked && locked.version} (package.json: ${pinned})`);

// extension.js with stand-ins: what activate() starts.
function loadExtension(serverPath) {
  const started = [];
  const stubs = {
    vscode: {
      workspace: {
        getConfiguration: (section) => ({ get: (key) => (section === 'semaprax' && key === 'serverPath' ? serverPath : undefined) }),
        createFileSystemWatcher: (glob) => ({ glob }),
        onDidChangeConfiguration: () => ({ dispose() {} }),
      },
      window: { showInformationMessage() {} },
    },
    'vscode-languageclient/node': {
      TransportKind: { stdio: 0 },
      LanguageClient: class {
        constructor(id, name, serverOptions, clientOptions) {
          Object.assign(this, { id, name, serverOptions, clientOptions });
          started.push(this);
        }
        start() { this.running = true; return Promise.resolve(); }
        stop() { this.running = false; return Promise.resolve(); }
      },
    },
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return Object.prototype.hasOwnProperty.call(stubs, request) ? request : resolve.call(this, request, ...rest);
  };
  for (const [name, exports] of Object.entries(stubs)) {
    require.cache[name] = { id: name, filename: name, loaded: true, exports };
  }
  const file = path.join(folder, manifest.main);
  delete require.cache[require.resolve(file)];
  const extension = require(file);
  Module._resolveFilename = resolve;
  return { extension, started };
}

(async () => {
  for (const serverPath of [undefined, '/opt/semaprax/bin/semapraxd']) {
    const { extension, started } = loadExtension(serverPath);
    check(typeof extension.activate === 'function' && typeof extension.deactivate === 'function',
      'extension.js exports activate and deactivate');
    const subscriptions = [];
    await extension.activate({ subscriptions });
    const client = started[0];
    const run = client && client.serverOptions.run;
    const expected = serverPath || 'semapraxd';
    check(started.length === 1 && client.running && run.command === expected
      && JSON.stringify(run.args) === '["--lsp"]' && run.transport === 0,
      `semaprax.serverPath ${serverPath === undefined ? 'unset' : `'${serverPath}'`}: starts ${run && run.command} ${run && run.args.join(' ')} over stdio`);
    const selector = client && client.clientOptions.documentSelector;
    check(JSON.stringify(selector) === '[{"scheme":"file","language":"semaprax"}]',
      `document selector ${JSON.stringify(selector)}`);
    await extension.deactivate();
    check(!client.running, 'deactivate stops the client');
  }
  if (failures) {
    console.log(`${failures} failure(s)`);
    process.exit(1);
  }
  console.log('manifest: ok');
})();
