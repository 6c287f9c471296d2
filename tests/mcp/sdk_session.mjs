// sdk_session.mjs: drives `semapraxd --mcp` with the official MCP TypeScript
// SDK (its Client over its StdioClientTransport), as an MCP host does, on a
// copy of examples/hello: initialize, tools/list, every tool, an edit between
// two calls (the answer is fresh and says revision_changed), a broken project
// (a tool error with the diagnostics), a bad target (a tool error with the
// engine's reason), an unknown tool (a JSON-RPC error with data, its message
// naming the tools), the test summary naming the failing tests and the limit
// to raise, every inputSchema's enums and ranges against what its tool
// accepts, and a second server with --allow-project-rename (rename, dry run
// then for real). run and fmt on copies of examples/hello,
// examples/inventory and examples/calc, each answer compared with what the
// CLI (semaprax run, fmt) prints, exits and writes; a third server with
// --allow-fmt-write writes.
// Every structuredContent is validated against its tool's outputSchema (the
// SDK does it itself; this does it again with ajv), and the documents that
// v2 and v3 also answer (check, context, test, rename), less what MCP adds
// (the revisions where v2 has none, revision_changed), against their JSON
// Schemas in docs/schema. Last, the host configuration that docs/agents.md
// shows is started as a host would start it (its command found on the PATH,
// in the repository's folder) and serves examples/hello. Prints every
// message as the SDK saw it, one line each ("->" sent, "<-" received).
//
//   node sdk_session.mjs SEMAPRAXD EXAMPLE_DIR WORK_DIR SCHEMA_DIR AGENTS_MD REPOSITORY SEMAPRAX
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [semapraxd, exampleDir, workDir, schemaDir, agentsPage, repository, semaprax] = process.argv.slice(2);
const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ strict: false, allErrors: true });

// docs/schema (draft 2020-12), every schema by its $id.
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const documents = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
for (const folder of ['', 'v2', 'v3']) {
  for (const name of fs.readdirSync(path.join(schemaDir, folder))) {
    if (!name.endsWith('.json')) continue;
    const schema = JSON.parse(fs.readFileSync(path.join(schemaDir, folder, name), 'utf8'));
    if (schema.$id) documents.addSchema(schema);
  }
}
// The tool, the docs/schema document it answers, and what MCP adds to it.
const documentSchemas = {
  check: ['urn:semaprax:schema:check.json', ['project_revision', 'workspace_revision', 'revision_changed']],
  context: ['urn:semaprax:schema:context.json', ['workspace_revision', 'revision_changed']],
  test: ['urn:semaprax:schema:v2/test.result.json', ['project_revision', 'workspace_revision', 'revision_changed']],
  rename: ['urn:semaprax:schema:v3/project-rename.result.json', ['revision_changed']],
};
let checks = 0;

function check(condition, what) {
  if (!condition) {
    console.log(`FAILED: ${what}`);
    process.exit(1);
  }
  checks++;
}

function freshProject(name, from = exampleDir) {
  const dir = path.join(workDir, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(from, dir, { recursive: true });
  return dir;
}

// The CLI on a project: its stdout, stderr and exit status.
function cli(dir, args) {
  const done = spawnSync(semaprax, [args[0], '--manifest-path', path.join(dir, 'semaprax.toml'), ...args.slice(1)],
    { encoding: 'utf8' });
  return { stdout: done.stdout, stderr: done.stderr, status: done.status };
}

// A unified diff applied to text, by hand (hunk headers, ' ', '-', '+'
// lines, '\\ No newline at end of file'): null when it does not apply.
function applyDiff(text, diff) {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const patchLines = diff.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out = [];
  let at = 0;
  for (let d = 2; d < patchLines.length;) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@\n$/.exec(patchLines[d++]);
    if (!header) return null;
    const count = header[2] === undefined ? 1 : Number(header[2]);
    const first = count === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (at < first) out.push(lines[at++]);
    while (d < patchLines.length && !patchLines[d].startsWith('@@')) {
      let body = patchLines[d].slice(1);
      const mark = patchLines[d++][0];
      if (d < patchLines.length && patchLines[d].startsWith('\\')) { body = body.slice(0, -1); d++; }
      if (mark === '+') { out.push(body); continue; }
      if (lines[at] !== body) return null;
      if (mark === ' ') out.push(body);
      at++;
    }
  }
  while (at < lines.length) out.push(lines[at++]);
  return out.join('');
}

// A client whose transport prints every message it sends and receives.
async function connect(label, dir, extra) {
  const transport = new StdioClientTransport({
    command: semapraxd,
    args: ['--mcp', '--manifest-path', path.join(dir, 'semaprax.toml'), ...extra],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr += chunk; });
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    console.log(`${label} -> ${JSON.stringify(message)}`);
    return send(message);
  };
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get() { return handler && ((message) => { console.log(`${label} <- ${JSON.stringify(message)}`); handler(message); }); },
    set(fn) { handler = fn; },
  });
  const client = new Client({ name: 'semaprax-sdk-test', version: '0.1.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

const validators = new Map();

async function listTools(client) {
  const { tools } = await client.listTools();
  for (const tool of tools) {
    check(tool.inputSchema?.type === 'object', `${tool.name}: inputSchema is an object schema`);
    check(tool.outputSchema?.type === 'object', `${tool.name}: outputSchema is an object schema`);
    validators.set(tool.name, ajv.compile(tool.outputSchema));
  }
  return tools;
}

// A tools/call that must succeed: its structuredContent validated.
async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  check(result.isError === false, `${name}: not an error (${JSON.stringify(result.content)})`);
  const validate = validators.get(name);
  check(validate(result.structuredContent), `${name}: structuredContent validates: ${ajv.errorsText(validate.errors)}`);
  check(result.content[0].type === 'text' && result.content[0].text.length > 0, `${name}: a text summary`);
  if (documentSchemas[name]) {
    const [id, added] = documentSchemas[name];
    const document = { ...result.structuredContent };
    for (const key of added) delete document[key];
    const validateDocument = documents.getSchema(id);
    check(validateDocument(document), `${name}: the document validates against ${id}: ${documents.errorsText(validateDocument.errors)}`);
  }
  return result;
}

// A tools/call that must be a tool error: its text.
async function callFailing(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  check(result.isError === true, `${name}: a tool error`);
  return result.content[0].text;
}

// The test tool's summary names each test that did not pass, with its
// outcome, the first line of its failure, and the argument that raises the
// limit that stopped it.
async function sentences(client, dir) {
  // the text without its last line, the JSON copy of structuredContent
  const summary = async (args) => {
    const text = (await call(client, 'test', args)).content[0].text;
    return text.slice(0, text.lastIndexOf('\n'));
  };
  const fuel = await summary({ max_steps: 10 });
  check(fuel.includes('3 of 4 tests failed: fact (fuel_exhausted after 10 steps at src/math.spx:') &&
    fuel.includes('R0509 fuel exhausted: max_steps 10 reached; raise max_steps (now 10))'),
  `test out of fuel: the summary names the tests and max_steps (${fuel})`);
  const depth = await summary({ max_call_depth: 1 });
  check(depth.includes("fact (depth_exhausted after 3 steps at src/app.spx:16:8: R0510 call depth exhausted: calling 'math.fact' would exceed the call-depth limit of 1; raise max_call_depth (now 1))"),
    `test out of call depth: the summary names max_call_depth (${depth})`);
  const memory = await summary({ max_memory: 0 });
  check(memory.includes('2 of 4 tests failed: greeting (language_failure after 2 steps at src/text.spx:') &&
    memory.includes('R0521 memory limit exceeded: 32 bytes live, over max_memory 0; raise max_memory (now 0))'),
  `test out of memory: the summary names max_memory (${memory})`);
  const math = path.join(dir, 'src', 'math.spx');
  const original = fs.readFileSync(math, 'utf8');
  fs.writeFileSync(math, original.replace('assert(fib(10) == 55);', 'assert(fib(10) == 56);'));
  const failing = await summary({});
  check(failing.includes('1 of 4 tests failed: fib (language_failure after ') &&
    failing.includes(' at src/math.spx:27:5: R0508 assertion failed'),
  `a failing assertion: the summary names the test and its message (${failing})`);
  fs.writeFileSync(math, original);
  const passing = await summary({});
  check(!passing.includes('tests failed'), `every test passes: no test named (${passing})`);
}

// Each tool's inputSchema against its parser: every value an enum lists is
// accepted and one outside it is refused; every integer's minimum, maximum
// and default are accepted and one past either end is refused. A value is
// refused when the tool error names it or the argument; another tool error
// (an unknown target) does not count. So the schemas and the parsers cannot
// drift apart.
async function schemaMatchesParser(client, tools) {
  const required = { context: { target: 'app' } };
  const refusal = async (tool, key, value) => {
    const result = await client.callTool({ name: tool, arguments: { ...required[tool], [key]: value } });
    if (result.isError !== true) return null;
    const text = result.content[0].text;
    return text.includes(key) || text.includes(`'${value}'`) ? text : null;
  };
  let enums = 0, ranges = 0;
  for (const tool of tools) {
    for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {})) {
      const listed = property.enum ?? property.items?.enum;
      const wrap = (value) => (property.items ? [value] : value);
      if (listed) {
        for (const value of listed) {
          const refused = await refusal(tool.name, key, wrap(value));
          check(refused === null, `${tool.name}: ${key} ${value}, which the inputSchema lists, is accepted (${refused})`);
        }
        const refused = await refusal(tool.name, key, wrap('not_a_listed_value'));
        check(refused !== null, `${tool.name}: ${key} outside the inputSchema's enum is refused`);
        // the refusal says what the parser takes ("use a, b or c"): the enum's values
        const taken = refused.match(/: use (.*)$/)?.[1].split(/, | or /) ?? [];
        check(JSON.stringify([...taken].sort()) === JSON.stringify([...listed].sort()),
          `${tool.name}: ${key}: the values the tool takes (${refused}) are the inputSchema's (${listed})`);
        enums++;
      }
      if (property.type === 'integer') {
        for (const value of [property.minimum, property.maximum, property.default]) {
          if (value === undefined) continue;
          const refused = await refusal(tool.name, key, value);
          check(refused === null, `${tool.name}: ${key} ${value}, in the inputSchema's range, is accepted (${refused})`);
        }
        for (const value of [property.minimum - 1, property.maximum + 1]) {
          if (!Number.isSafeInteger(value)) continue;
          check(await refusal(tool.name, key, value) !== null,
            `${tool.name}: ${key} ${value}, outside the inputSchema's range, is refused`);
        }
        ranges++;
      }
    }
  }
  check(enums >= 3 && ranges >= 8, `the inputSchemas have enums (${enums}) and ranges (${ranges}) to check`);
}

const dir = freshProject('hello');
const { client } = await connect('A', dir, []);
check(client.getServerVersion()?.name === 'semapraxd', 'serverInfo.name is semapraxd');
check(typeof client.getInstructions() === 'string', 'the server gives instructions');
check(client.getServerCapabilities()?.tools !== undefined, 'the server has the tools capability');

const tools = await listTools(client);
check(JSON.stringify(tools.map((t) => t.name)) === '["check","context","test","run","graph_summary","status","fmt"]',
  'tools/list without --allow-project-rename: no rename');
const fmtTool = tools.find((t) => t.name === 'fmt');
check(fmtTool.annotations.readOnlyHint === true && fmtTool.inputSchema.properties.write.const === false,
  'tools/list without --allow-fmt-write: fmt is read-only, write only false');
const runTool = tools.find((t) => t.name === 'run');
check(runTool.annotations.readOnlyHint === true &&
  JSON.stringify(Object.keys(runTool.inputSchema.properties).sort()) ===
  '["arguments","entry","max_bytes","max_call_depth","max_memory","max_steps"]',
  'tools/list: run is read-only and takes entry, arguments and the four limits');

const status1 = (await call(client, 'status')).structuredContent;
check(status1.state === 'open' && status1.admitted === true, 'status: open and admitted');
check(status1.counters.phase_a_runs === 1, 'status: one Phase A run');
const checked = (await call(client, 'check')).structuredContent;
check(checked.admitted === true && checked.diagnostics.length === 0, 'check: admitted, no diagnostics');
const context = (await call(client, 'context', { target_kind: 'function', target: 'math.fact', direction: 'in', edge_kinds: ['calls'] })).structuredContent;
check(context.target === 'function:math.fact', 'context: the target');
check(context.edges.every((edge) => edge.kind === 'calls'), 'context: only calls edges');
check(context.nodes.some((node) => node.id === 'function:app.main'), 'context: app.main calls math.fact');
check(context.limits.max_bytes === 16384, 'context: the default budget is 16 KiB');
const tested = (await call(client, 'test')).structuredContent;
check(tested.envelope.summary.passed === 4 && tested.command_succeeded === true, 'test: 4 passed');
const starved = (await call(client, 'test', { max_steps: 10 })).structuredContent;
check(starved.envelope.summary.fuel_exhausted > 0 && starved.command_succeeded === false,
  'test: fuel exhausted is a result, not an error');
const graph = (await call(client, 'graph_summary', { max_modules: 2 })).structuredContent;
check(graph.counts.modules === 4 && graph.modules.length === 2 && graph.omitted_modules === 2,
  'graph_summary: 4 modules, 2 listed');
check(JSON.stringify(graph.modules[0]) === '{"imports":["math","text","words"],"name":"app","path":"src/app.spx"}',
  'graph_summary: app imports math, text and words');
const status2 = (await call(client, 'status')).structuredContent;
check(status2.counters.phase_a_runs === 1, 'status: no Phase A run without an edit');
check(status2.counters.authentications > status1.counters.authentications, 'status: every call re-authenticates');
check(status2.project_revision === status1.project_revision, 'status: same revision without an edit');

// An edit between two calls: the answer comes from the edited files.
const math = path.join(dir, 'src', 'math.spx');
const original = fs.readFileSync(math, 'utf8');
fs.writeFileSync(math, original + '\nexport fn twice(n: int) -> int {\n  return n * 2;\n}\n');
const refreshed = (await call(client, 'context', { target_kind: 'function', target: 'math.twice' })).structuredContent;
const change = refreshed.revision_changed;
check(change && change.from === status1.project_revision && change.to === refreshed.project_revision &&
  change.from !== change.to, 'context after an edit: revision_changed from the old to the new revision');
check(JSON.stringify(change.drift) === '[{"path":"src/math.spx","reason":"content_changed"}]',
  'context after an edit: the drift names src/math.spx');
check(refreshed.nodes[0].text.includes('return n * 2;'), 'context after an edit: the new function\'s text');
const status3 = (await call(client, 'status')).structuredContent;
check(status3.counters.phase_a_runs === 2 && status3.revision_changed === undefined,
  'status after the edit: one more Phase A run, nothing changed since');

// A broken project: tool errors with the diagnostics.
fs.writeFileSync(math, original + '\nexport fn broken( -> int {\n');
const brokenText = await callFailing(client, 'test');
check(brokenText.includes('not admitted') && brokenText.includes('src/math.spx:'), 'test on a broken project: the diagnostics');
const brokenCheck = (await call(client, 'check')).structuredContent;
check(brokenCheck.admitted === false && brokenCheck.diagnostics.length > 0, 'check on a broken project: admitted false');
fs.writeFileSync(math, original);

// A bad target: the engine's reason.
const badText = await callFailing(client, 'context', { target_kind: 'function', target: 'math.nope' });
check(badText.includes("no function 'math.nope'"), 'context of a bad target: the reason');
const badArgument = await callFailing(client, 'context', { target: 'math.fact', depth: 99 });
check(badArgument.includes('depth must be an integer in 0..16'), 'context with a bad depth: the reason');

// An unknown tool: a JSON-RPC error with data.
let unknown = null;
try {
  await client.callTool({ name: 'nope', arguments: {} });
} catch (error) {
  unknown = error;
}
check(unknown && unknown.code === -32602 && unknown.data?.reason === 'unknown_tool', 'an unknown tool: -32602, unknown_tool');
check(unknown.message.includes("invalid params: no tool 'nope'; the tools are check, context, test, run, graph_summary, status, fmt"),
  `an unknown tool: the message the SDK surfaces names the tools (${unknown.message})`);
await sentences(client, dir);
await schemaMatchesParser(client, tools);
await client.close();

// --allow-project-rename: the rename tool.
const renameDir = freshProject('hello-rename');
const { client: renamer } = await connect('B', renameDir, ['--allow-project-rename']);
const renameTools = await listTools(renamer);
check(renameTools.some((tool) => tool.name === 'rename'), 'tools/list with --allow-project-rename: rename');
const appBefore = fs.readFileSync(path.join(renameDir, 'src', 'app.spx'), 'utf8');
const dry = (await call(renamer, 'rename', { function: 'math.fact', new_name: 'factorial', dry_run: true })).structuredContent;
check(dry.committed === false && dry.edits.length > 0, 'rename dry run: edits, nothing committed');
check(fs.readFileSync(path.join(renameDir, 'src', 'app.spx'), 'utf8') === appBefore, 'rename dry run: nothing written');
const renamed = (await call(renamer, 'rename', { function: 'math.fact', new_name: 'factorial' })).structuredContent;
check(renamed.committed === true, 'rename: committed');
check(fs.readFileSync(path.join(renameDir, 'src', 'app.spx'), 'utf8').includes('math.factorial('), 'rename: the call sites written');
const after = (await call(renamer, 'context', { target_kind: 'function', target: 'math.factorial' })).structuredContent;
check(after.revision_changed === undefined && after.project_revision === renamed.project_revision,
  'context after rename: the renamed project, no drift');
await renamer.close();

// run and fmt, each compared with the CLI on the same files.
const validateRunEnvelope = documents.getSchema('urn:semaprax:schema:run.json');
const hello = freshProject('hello-run');
const inventory = freshProject('inventory-run', path.join(repository, 'examples', 'inventory'));
const calc = freshProject('calc-run', path.join(repository, 'examples', 'calc'));
for (const [label, dir, args, cliArgs, limit] of [
  ['hello', hello, {}, []],
  ['inventory', inventory, {}, []],
  ['inventory, out of fuel', inventory, { max_steps: 100 }, ['--max-steps', '100'], 'max_steps'],
  ['hello, too shallow', hello, { max_call_depth: 1 }, ['--max-call-depth', '1'], 'max_call_depth'],
  ['hello, too little memory', hello, { max_memory: 64 }, ['--max-memory', '64'], 'max_memory'],
  ['calc with arguments', calc, { arguments: ['1 + 2 * 3'] }, []],
  ['hello, another function', hello, { entry: 'math.test_fib' }, ['--entry', 'math.test_fib']],
]) {
  const { client: runner } = await connect(`R ${label}`, dir, []);
  await listTools(runner);
  const ran = await call(runner, 'run', args);
  const result = ran.structuredContent;
  const envelopePath = path.join(workDir, 'run-envelope.json');
  const expected = cli(dir, ['run', '--max-bytes', '4096', '--envelope', envelopePath, ...cliArgs,
    ...(args.arguments ? ['--', ...args.arguments] : [])]);
  check(result.output === expected.stdout, `run ${label}: the output is what semaprax run prints`);
  check(result.succeeded === (expected.status === 0), `run ${label}: succeeded as semaprax run exits (${expected.status})`);
  check(validateRunEnvelope(result.envelope), `run ${label}: the envelope validates against run.json: ${documents.errorsText(validateRunEnvelope.errors)}`);
  check(JSON.stringify(result.envelope) === JSON.stringify(JSON.parse(fs.readFileSync(envelopePath, 'utf8'))),
    `run ${label}: the envelope is the one semaprax run --envelope writes`);
  check(result.entry === result.envelope.run.function && result.steps === result.envelope.run.steps,
    `run ${label}: entry and steps`);
  const text = ran.content[0].text;
  if (limit) {
    check(result.limit_reached === limit && text.includes(`call run again and raise ${limit} (now `) &&
      result.succeeded === false && expected.status === 1,
      `run ${label}: the text names ${limit}, the argument to raise`);
  } else {
    check(result.value === result.envelope.run.value && text.includes(`returned ${result.value}`),
      `run ${label}: the value, in the text too`);
  }
  if (result.output) check(text.includes(result.output), `run ${label}: the text shows the output`);
  if (label === 'hello') {
    const cut = (await call(runner, 'run', { max_bytes: 5 })).structuredContent;
    check(cut.output === 'Hello' && cut.output_truncated === true, 'run with max_bytes 5: the output cut');
  }
  await runner.close();
}

// fmt: canonical sources change nothing, as semaprax fmt --check says.
for (const [label, from] of [['hello', exampleDir], ['inventory', path.join(repository, 'examples', 'inventory')]]) {
  const dir = freshProject(`${label}-fmt`, from);
  const { client: formatter } = await connect(`F ${label}`, dir, []);
  await listTools(formatter);
  const formatted = (await call(formatter, 'fmt', { output: 'text' })).structuredContent;
  const checkStatus = cli(dir, ['fmt', '--check']).status;
  check(formatted.changed === 0 && checkStatus === 0, `fmt ${label}: nothing changes, as fmt --check exits 0`);
  for (const source of formatted.sources) {
    check(source.text === fs.readFileSync(path.join(dir, source.path), 'utf8'),
      `fmt ${label}: the layout of ${source.path} is its bytes`);
  }

  // A mis-laid source: the text the CLI writes and a diff that patches into it.
  const sourcePath = formatted.sources[formatted.sources.length - 1].path;
  const file = path.join(dir, sourcePath);
  const canonical = fs.readFileSync(file, 'utf8');
  const messy = canonical.split('\n').map((line, i) => (i % 3 === 1 ? line.trimStart() : line.replace(/: /g, ':'))).join('\n')
    .replace(/\n$/, '');
  fs.writeFileSync(file, messy);
  const scratch = freshProject(`${label}-fmt-scratch`, dir);
  check(cli(scratch, ['fmt', '--check']).status === 1, `fmt ${label}: fmt --check sees the mis-laid source`);
  check(cli(scratch, ['fmt']).status === 0, `fmt ${label}: the CLI formats the scratch copy`);
  const cliWrote = fs.readFileSync(path.join(scratch, sourcePath), 'utf8');
  const asText = (await call(formatter, 'fmt', { paths: [sourcePath], output: 'text' })).structuredContent;
  check(asText.revision_changed !== undefined, `fmt ${label}: from the edited bytes (revision_changed)`);
  check(asText.sources.length === 1 && asText.sources[0].changed === true && asText.sources[0].text === cliWrote,
    `fmt ${label}: output text is what semaprax fmt writes`);
  const asDiff = (await call(formatter, 'fmt', { paths: [sourcePath] })).structuredContent;
  const diff = asDiff.sources[0].diff;
  check(asDiff.output === 'diff' && diff.startsWith(`--- a/${sourcePath}\n+++ b/${sourcePath}\n@@ -`),
    `fmt ${label}: a unified diff with a/ and b/ headers`);
  check(applyDiff(messy, diff) === cliWrote, `fmt ${label}: the diff applied by hand gives the CLI's layout`);
  check(diff === cli(dir, ['fmt', '--diff']).stdout, `fmt ${label}: the diff is what semaprax fmt --diff prints`);
  if (spawnSync('patch', ['--version']).status === 0) {
    const patched = freshProject(`${label}-fmt-patched`, dir);
    const applied = spawnSync('patch', ['-p1', '-d', patched], { input: diff, encoding: 'utf8' });
    check(applied.status === 0 && fs.readFileSync(path.join(patched, sourcePath), 'utf8') === cliWrote,
      `fmt ${label}: patch -p1 turns the source into the CLI's layout`);
  }
  check(fs.readFileSync(file, 'utf8') === messy, `fmt ${label}: nothing was written`);
  const refused = await callFailing(formatter, 'fmt', { write: true });
  check(refused.includes('--allow-fmt-write') && fs.readFileSync(file, 'utf8') === messy,
    `fmt ${label}: write without --allow-fmt-write is a tool error naming the flag`);
  await formatter.close();

  // --allow-fmt-write: the write, byte-equal to the CLI's.
  const { client: writer } = await connect(`W ${label}`, dir, ['--allow-fmt-write']);
  const writerTools = await listTools(writer);
  const annotations = writerTools.find((t) => t.name === 'fmt').annotations;
  check(annotations.readOnlyHint === false && annotations.destructiveHint === false && annotations.idempotentHint === true,
    `fmt ${label} with --allow-fmt-write: not read-only, not destructive, idempotent`);
  const wrote = (await call(writer, 'fmt', { write: true })).structuredContent;
  check(wrote.written === 1 && wrote.sources.find((s) => s.path === sourcePath).written === true,
    `fmt ${label} with --allow-fmt-write: the mis-laid source written`);
  check(fs.readFileSync(file, 'utf8') === cliWrote, `fmt ${label} with --allow-fmt-write: the file is byte-equal to the CLI's`);
  const again = (await call(writer, 'fmt', { write: true })).structuredContent;
  check(again.written === 0 && again.changed === 0 && again.revision_changed === undefined,
    `fmt ${label} with --allow-fmt-write: again, nothing to write, no drift`);
  await writer.close();
}

// fmt of a source that does not parse: refused, with its diagnostics.
const brokenFmt = freshProject('hello-fmt-broken');
fs.appendFileSync(path.join(brokenFmt, 'src', 'math.spx'), '\nfn broken( {\n');
const { client: brokenFormatter } = await connect('G', brokenFmt, []);
await listTools(brokenFormatter);
const brokenSources = (await call(brokenFormatter, 'fmt')).structuredContent;
const brokenMath = brokenSources.sources.find((s) => s.path === 'src/math.spx');
check(brokenMath.refused === 'syntax' && brokenMath.diagnostics.length > 0 && brokenSources.refused === 1,
  'fmt of a source that does not parse: refused with its diagnostics');
await brokenFormatter.close();

// The host configuration of docs/agents.md: its first JSON block, started as
// a host starts it, with the built semapraxd first on the PATH and the
// repository's folder as the working folder.
const page = fs.readFileSync(agentsPage, 'utf8');
const block = page.match(/```json\n([\s\S]*?)```/);
check(block !== null, 'docs/agents.md: a JSON host configuration');
const server = JSON.parse(block[1]).mcpServers.semaprax;
const hosted = new StdioClientTransport({
  command: server.command,
  args: server.args,
  cwd: repository,
  env: { ...process.env, PATH: `${path.dirname(semapraxd)}${path.delimiter}${process.env.PATH}` },
  stderr: 'pipe',
});
const host = new Client({ name: 'semaprax-host-config', version: '0.1.0' });
await host.connect(hosted);
console.log(`C started: ${server.command} ${server.args.join(' ')}`);
const hostedStatus = (await call(host, 'status')).structuredContent;
console.log(`C <- status ${JSON.stringify(hostedStatus)}`);
check(hostedStatus.admitted === true && hostedStatus.state === 'open',
  'the host configuration of docs/agents.md: an open, admitted project');
check(hostedStatus.manifest === 'examples/hello/semaprax.toml',
  'the host configuration of docs/agents.md: examples/hello');
await host.close();

console.log(`mcp-sdk: ${checks} checks passed`);
