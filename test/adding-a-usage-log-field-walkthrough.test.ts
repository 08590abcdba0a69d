/**
 * docs/usage-log-and-report.md, "Adding a field", kept true the way a developer would find it: a
 * copy of this repository gets exactly the edits the page shows for an `accept` field (its
 * declaration in log-schema.ts, its value in request-record.ts: two files) and
 * `npm run docs -- --write`. Then only those two files and the generated field and table sections
 * differ from the repository, the copy typechecks, its line test (records generated from the
 * declaration) and docs test pass, and a real gateway of the copy, in front of the sandbox legacy
 * backend, writes `accept` on its usage line, which the copy's report reads.
 *
 * Bounded: the typecheck runs beside the rest (each child is killed after its time limit).
 */
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository, walkthroughBlocks } from './support/repo-copy.js';
import type { RepositoryCopy } from './support/repo-copy.js';
import { runNode } from './support/run-script.js';
import type { ScriptRun } from './support/run-script.js';

const DOC = 'docs/usage-log-and-report.md';
const SCHEMA = 'src/observability/log-schema.ts';
const RECORD = 'src/gateway/request-record.ts';
const LIMIT_MS = 240_000;

/** The copy's text with `block` put at `at` (an index found by `where`), or a message naming the anchor that moved. */
function insert(text: string, file: string, anchor: string, at: number, block: string): string {
  if (at === -1) throw new Error(`${file} no longer has the place the walk-through edits (${anchor}): update ${DOC} and this test`);
  return text.slice(0, at) + block + text.slice(at);
}

/** Starts the copy's sandbox and gateway with the usage log to a file, sends one request with an Accept header, prints the line and how the report reads it. */
const PROBE = `
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseConfig } from '../src/config/schema.js';
import { startGateway } from '../src/node/server.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { parseLine } from '../src/report/parse-record.js';
const sandbox = await startLegacySandbox();
const file = join(tmpdir(), 'walkthrough-usage-' + process.pid + '.log');
const parsed = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: sandbox.origin } }, legacyHosts: ['api.bigoven.com'], observability: { log: { destination: file } } });
if (!parsed.ok) throw new Error(parsed.errors.join('\\n'));
const gateway = await startGateway(parsed.config);
const response = await fetch(gateway.httpOrigin + '/recipes?any_kw=soup&api_key=sandbox-free-key', { headers: { host: 'api.bigoven.com', accept: 'application/xml' } });
await response.arrayBuffer();
await gateway.close();
await sandbox.close();
const line = (await readFile(file, 'utf8')).trimEnd().split('\\n').at(-1);
console.log(JSON.stringify({ line: JSON.parse(line), read: parseLine(line).kind }));
`;

let copy: RepositoryCopy;
let docs: ScriptRun;
let typecheck: Promise<ScriptRun>;
let tests: ScriptRun;
let probe: ScriptRun;

beforeAll(async () => {
  const blocks = walkthroughBlocks(await readFile(DOC, 'utf8'));
  const block = (name: string): string => {
    const found = blocks.get(name);
    if (found === undefined) throw new Error(`${DOC} has no \`\`\`ts walkthrough=${name} block`);
    return found;
  };
  copy = await copyRepository('field-walkthrough-');
  const schemaPath = join(copy.dir, SCHEMA);
  const schema = await readFile(schemaPath, 'utf8');
  const fieldsEnd = schema.indexOf('] as const;', schema.indexOf('export const RECORD_FIELDS'));
  await writeFile(schemaPath, insert(schema, SCHEMA, 'the end of RECORD_FIELDS', fieldsEnd, block('declaration')));
  const recordPath = join(copy.dir, RECORD);
  let record = await readFile(recordPath, 'utf8');
  record = insert(record, RECORD, 'the end of RequestRecord', record.indexOf('}\n\nexport type RecordSink'), block('recordType'));
  const valueAnchor = '    error: outcome.error,\n';
  const valueAt = record.indexOf(valueAnchor);
  record = insert(record, RECORD, valueAnchor.trim(), valueAt === -1 ? -1 : valueAt + valueAnchor.length, block('recordValue'));
  await writeFile(recordPath, record);

  typecheck = runNode(['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: copy.dir, timeoutMs: LIMIT_MS });
  docs = await runNode(['--import', 'tsx', 'scripts/docs.ts', '--write'], { cwd: copy.dir, timeoutMs: 60_000 });
  tests = await runNode(['node_modules/vitest/vitest.mjs', 'run', 'test/usage-log-line-matches-its-declaration.test.ts', 'test/docs-are-generated-and-current.test.ts'], { cwd: copy.dir, timeoutMs: LIMIT_MS });
  await mkdir(join(copy.dir, '.walkthrough'));
  await writeFile(join(copy.dir, '.walkthrough', 'probe.ts'), PROBE);
  probe = await runNode(['--import', 'tsx', '.walkthrough/probe.ts'], { cwd: copy.dir, timeoutMs: 60_000 });
  await typecheck;
}, LIMIT_MS + 60_000);

afterAll(async () => {
  await typecheck?.catch(() => undefined);
  if (copy) await rm(copy.dir, { recursive: true, force: true });
});

describe('adding a usage-log field (docs/usage-log-and-report.md)', () => {
  it('changes two files by hand, and the generated field tables and ClickHouse table by npm run docs -- --write', async () => {
    expect(docs.code, docs.stderr).toBe(0);
    expect(await copy.changed()).toEqual(['docs/analytics-clickhouse.md', DOC, RECORD, SCHEMA].sort());
    expect(await readFile(join(copy.dir, DOC), 'utf8')).toContain("| `accept` | text | when known | `Nullable(String)` | the client's Accept header |");
    expect(await readFile(join(copy.dir, 'docs/analytics-clickhouse.md'), 'utf8')).toContain('`accept` Nullable(String)');
  });

  it('typechecks', async () => {
    const run = await typecheck;
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it("passes the copy's line test and docs test", () => {
    const output = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '');
    expect(tests.code, output.slice(-6000)).toBe(0);
  });

  it("writes the client's Accept header on a real gateway's usage line, which the report reads", () => {
    expect(probe.code, probe.stderr.slice(-4000)).toBe(0);
    const { line, read } = JSON.parse(probe.stdout.trim().split('\n').at(-1)!) as { line: Record<string, unknown>; read: string };
    expect(line['accept']).toBe('application/xml');
    expect(Object.keys(line).at(-2)).toBe('accept');
    expect(read).toBe('record');
  });
});
