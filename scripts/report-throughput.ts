/**
 * How fast the migration report reads usage logs: generates N realistic request records (default
 * 1,000,000; 16 operations, 3 modes, 500 clients, a few broken lines) into a temporary file, runs
 * the report over it and prints records per second. Not asserted anywhere: a figure to quote.
 *
 *   npx tsx scripts/report-throughput.ts [N] [--gzip]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { OPERATION_IDS } from '../src/catalogue/operations.js';
import { reportFromInputs } from '../src/report/run.js';

const count = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const gzip = process.argv.includes('--gzip');

let seed = 42;
const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const operations = [...OPERATION_IDS, 'uncatalogued'];
const modes = ['legacy', 'legacy', 'legacy', 'api2', 'api2', 'canary'];
const clients = Array.from({ length: 500 }, (_, i) => i.toString(16).padStart(16, '0'));
const start = Date.parse('2026-01-05T00:00:00Z');

function line(i: number): string {
  const operation = pick(operations);
  const client = pick(clients);
  const status = random() < 0.02 ? 502 : random() < 0.05 ? 400 : 200;
  const fields: Record<string, unknown> = {
    level: status >= 500 ? 40 : 30,
    time: start + i * 50,
    requestId: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    method: 'GET',
    operation,
    mode: pick(modes),
    insecure: random() < 0.1,
    status,
    ...(operation === 'uncatalogued' ? { pathTemplate: '/recipe/{n}' } : { form: random() < 0.1 ? 'malformed' : 'canonical' }),
    ...(random() < 0.05 ? { versionPrefix: 'v1' } : {}),
    scheme: random() < 0.2 ? 'http' : 'https',
    client,
    ...(client.endsWith('1') ? { clientLabel: 'partner-app' } : {}),
    user: 'f00dfeedf00dfeed',
    latencyMs: Math.round(random() * 20_000) / 100,
    upstreamMs: Math.round(random() * 150),
    ...(random() < 0.3 ? { cache: pick(['HIT', 'MISS', 'STALE']) } : {}),
    bytesIn: 0,
    bytesOut: 1500 + Math.floor(random() * 3000),
    msg: 'request',
  };
  return i % 100_000 === 99_999 ? JSON.stringify(fields).slice(0, 60) : JSON.stringify(fields);
}

const dir = await mkdtemp(join(tmpdir(), 'report-throughput-'));
const file = join(dir, gzip ? 'access.log.gz' : 'access.log');
const lines: string[] = [];
for (let i = 0; i < count; i++) lines.push(line(i));
const text = `${lines.join('\n')}\n`;
lines.length = 0;
await writeFile(file, gzip ? gzipSync(text) : text);
const megabytes = Buffer.byteLength(text) / 1e6;

const started = performance.now();
const report = await reportFromInputs([file]);
const seconds = (performance.now() - started) / 1000;
await rm(dir, { recursive: true, force: true });

const perSecond = Math.round(report.summary.records / seconds);
process.stdout.write(
  `${report.summary.records.toLocaleString('en-US')} records (${report.summary.brokenLines} broken lines, ${megabytes.toFixed(0)} MB${gzip ? ' gzipped' : ''}) ` +
    `in ${seconds.toFixed(2)} s: ${perSecond.toLocaleString('en-US')} records/s\n`,
);
