/**
 * `npm run bench:api2-core -- [--base REF] [--requests N] [--rounds N] [--only this|base]`: the
 * api2-mapped search's own work per request, without sockets or TLS, this checkout against commit
 * REF (default HEAD) in the same process. Each side's core app (its own compiled src/app.js; REF is
 * exported and compiled as bench:ab does) answers the bench's search through `app.fetch` with
 * `recipes.search` on api2, from an in-memory api2 upstream answering the canned api2 page (the
 * bytes `npm run bench` serves), and writes its usage-log line to a discarding sink. Rounds
 * alternate (base this, then this base); CPU µs per request, median and min-max. Every answer of
 * both sides is checked byte for byte against the first one. `--only this` runs this checkout
 * alone (to run under `node --cpu-prof`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCommit } from './base-build.js';
import { coreAppOf } from './core-app.js';
import type { Fetch } from './core-app.js';
import { JSON_CONTENT_TYPE, SEARCH_TARGET, cannedPages } from './pages.js';
import { median } from './report.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'HEAD' },
    requests: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const page = cannedPages().api2;
const headers = { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(page.byteLength) };

/** The core app of the compiled tree at `buildDir`, with recipes.search on an in-memory api2. */
function gatewayOf(buildDir: string): Promise<Fetch> {
  const config = {
    upstreams: { legacy: { baseUrl: 'http://legacy.invalid' }, api2: { baseUrl: 'https://api2.invalid' } },
    observability: { log: { enabled: true, destination: '/dev/null' } },
    cache: { enabled: false },
    routes: { 'recipes.search': { mode: 'api2' } },
  };
  // A fresh Buffer view each time, as undici hands over a new one per answer.
  const api2 = () => Promise.resolve({ status: 200, headers, body: Buffer.from(page) as Uint8Array });
  return coreAppOf(buildDir, config, { legacy: undefined, api2 }, () => {});
}

let expected: string | undefined;
async function cpuPerRequest(name: string, fetch: Fetch): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const answer = await fetch(new Request(`http://localhost${SEARCH_TARGET}`, { headers: { accept: 'application/json', 'x-forwarded-for': '10.0.0.1' } }));
    if (answer.status !== 200) throw new Error(`${name} answered ${answer.status}: ${await answer.text()}`);
    if (i === 0) {
      const text = await answer.text();
      expected ??= text;
      if (text !== expected) throw new Error(`${name} answered other bytes than the first side`);
    } else await answer.arrayBuffer();
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / requests;
}

const sides: Array<readonly [string, Fetch]> = [];
if (values.only !== 'this') {
  const base = buildCommit(values.base);
  sides.push([`base ${base.commit.slice(0, 10)}`, await gatewayOf(base.buildDir)]);
}
if (values.only !== 'base') sides.push(['this checkout', await gatewayOf(resolve('.bench-build'))]);

const results = new Map<string, number[]>();
for (const [name, fetch] of sides) await cpuPerRequest(name, fetch); // warm-up
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const [name, fetch] of order) {
    const value = await cpuPerRequest(name, fetch);
    results.set(name, [...(results.get(name) ?? []), value]);
    process.stderr.write(`round ${round + 1}/${rounds} ${name.padEnd(16)} ${value.toFixed(1)} µs/req  heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB\n`);
  }
}
console.log(`api2-mapped search through app.fetch, in-memory api2, log line to a sink (${rounds} rounds of ${requests}, CPU µs per request):`);
for (const [name] of sides) {
  const runs = results.get(name)!;
  console.log(`  ${name.padEnd(20)} median ${median(runs).toFixed(1).padStart(6)}   min-max ${Math.min(...runs).toFixed(1)}-${Math.max(...runs).toFixed(1)}`);
}
if (sides.length === 2) console.log(`  this/base ${(median(results.get(sides[1]![0])!) / median(results.get(sides[0]![0])!)).toFixed(3)}x`);
