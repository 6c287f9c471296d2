// editors/vscode/extension.js: the VS Code client of semapraxd --lsp. On
// activation (a workspace holding semaprax.toml, or a .spx file opened) it
// starts `<semaprax.serverPath> --lsp` (default "semapraxd") over standard
// input and output with vscode-languageclient, for the semaprax language's
// files on disk, and has the editor tell the server when a .spx file or
// semaprax.toml changes outside it (workspace/didChangeWatchedFiles).
// The server finds the project from the workspace folder (docs/editors.md).
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('semaprax').get('serverPath') || 'semapraxd';
  const serverOptions = {
    run: { command, args: ['--lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['--lsp', '--verbose'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'semaprax' }],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.spx,semaprax.toml}'),
    },
  };
  client = new LanguageClient('semaprax', 'Semaprax (semapraxd --lsp)', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('semaprax.serverPath')) {
        vscode.window.showInformationMessage('semaprax.serverPath changed: reload the window to use it.');
      }
    }),
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
