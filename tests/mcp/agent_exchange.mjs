// agent_exchange.mjs: one agent's exchange with `semapraxd --mcp`, driven by
// the official MCP TypeScript SDK's Client as an agent host would: on a
// small project whose `mean` test fails, the agent runs the tests, reads
// from the summary alone which test failed and why, fixes the source (as an
// agent does, with its own file tool), asks the server to format it (the
// fmt tool, writing behind --allow-fmt-write), runs the tests and the
// program again. Every step is asserted, and the texts the agent read are
// printed as they came ("agent ->" a call, "server <-" the text of its
// answer, less the JSON copy of the structured content that ends it).
//
//   node agent_exchange.mjs SEMAPRAXD WORK_DIR
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import path from 'node:path';

const [semapraxd, workDir] = process.argv.slice(2);
let checks = 0;
function check(condition, what) {
  if (!condition) {
    console.log(`FAILED: ${what}`);
    process.exit(1);
  }
  checks++;
}

// The project: stats.mean divides by one too many.
const dir = path.join(workDir, 'stats');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
fs.writeFileSync(path.join(dir, 'semaprax.toml'), `manifest = "semaprax.project-manifest.v2"

[project]
name = "stats"
version = "0.1.0"
entry = "app.main"

[[source]]
module = "app"
path = "src/app.spx"

[[source]]
module = "stats"
path = "src/stats.spx"

[[test]]
name = "total"
function = "stats.test_total"

[[test]]
name = "mean"
function = "stats.test_mean"
`);
fs.writeFileSync(path.join(dir, 'src', 'app.spx'), `// Prints the mean of a few numbers.
import stats;

export fn main() -> int {
    print("mean " + itos(stats.mean([2, 4, 6, 8])) + "\\n");
    return 0;
}
`);
const statsPath = path.join(dir, 'src', 'stats.spx');
fs.writeFileSync(statsPath, `// Small statistics over arrays of ints.
export fn total(xs: [int]) -> int {
    var sum = 0;
    for x in xs {
        sum += x;
    }
    return sum;
}

export fn mean(xs: [int]) -> int {
  if len(xs) == 0 { return 0; }
  return total(xs) / (len(xs) + 1);
}

fn test_total() -> int {
    assert_eq(total([1, 2, 3]), 6);
    return 0;
}

fn test_mean() -> int {
    assert_eq(mean([2, 4, 6]), 4);
    return 0;
}
`);

const transport = new StdioClientTransport({
  command: semapraxd,
  args: ['--mcp', '--allow-fmt-write', '--manifest-path', path.join(dir, 'semaprax.toml')],
  stderr: 'pipe',
});
const client = new Client({ name: 'semaprax-agent-exchange', version: '0.1.0' });
await client.connect(transport);

async function tool(name, args = {}) {
  console.log(`agent -> ${name} ${JSON.stringify(args)}`);
  const result = await client.callTool({ name, arguments: args });
  const text = result.content[0].text;
  // The summary the agent reads first: the text before the JSON of the
  // structured content that follows it for hosts that show only text.
  const summary = text.split('\n{')[0];
  console.log(`server <- ${result.isError ? '(tool error) ' : ''}${summary}`);
  return { text, structured: result.structuredContent, isError: result.isError };
}

// 1. The tests: the summary names the failing test and why.
const first = await tool('test');
check(!first.isError && first.structured.command_succeeded === false, 'the first run fails');
check(first.text.includes('mean') && first.text.includes('3 != 4') && first.text.includes('src/stats.spx:21'),
  'the summary names the failing test, its message and where');
check(!first.text.includes('total ('), 'the summary does not name the test that passed');

// 2. The agent fixes the division, with its own file tool.
const broken = fs.readFileSync(statsPath, 'utf8');
const fixed = broken.replace('total(xs) / (len(xs) + 1)', 'total(xs) / len(xs)');
check(fixed !== broken, 'the fix applies');
console.log('agent: edits src/stats.spx: "total(xs) / (len(xs) + 1)" -> "total(xs) / len(xs)"');
fs.writeFileSync(statsPath, fixed);

// 3. Format: first see the diff, then write it.
const diff = await tool('fmt', { output: 'diff' });
const changed = diff.isError ? [] : diff.structured.sources.filter((source) => source.changed);
check(changed.length === 1 && changed[0].path === 'src/stats.spx', 'fmt: src/stats.spx would change');
check(diff.structured.revision_changed?.drift?.[0]?.path === 'src/stats.spx',
  'fmt: answered from the edited file, and says so');
console.log(`agent reads sources[0].diff:\n${changed[0].diff}`);
check(changed[0].diff.includes('+    if len(xs) == 0 {\n+        return 0;\n+    }'), 'fmt: the diff lays the if out');
const written = await tool('fmt', { write: true });
check(!written.isError, 'fmt: written');
const formatted = fs.readFileSync(statsPath, 'utf8');
check(formatted.includes('    if len(xs) == 0 {\n        return 0;\n    }'), 'fmt: the canonical layout on disk');

// 4. The tests again, then the program.
const second = await tool('test');
check(!second.isError && second.structured.command_succeeded === true, 'the second run passes');
check(second.structured.project_revision !== first.structured.project_revision,
  'the second run is of the fixed and formatted files');
const ran = await tool('run');
check(!ran.isError && ran.text.includes('mean 5'), 'run: the program prints mean 5');
await client.close();
console.log(`agent-exchange: ${checks} checks passed`);
