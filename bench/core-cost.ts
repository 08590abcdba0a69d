/**
 * `npm run bench:core -- [--base REF] [--requests N] [--rounds N] [--only TEXT]`: the gateway's own
 * work per request, without sockets. The core app (src/app.ts) answers the bench's search through
 * `app.fetch` from an in-memory legacy upstream (the canned 12 KB page, answered at once) and
 * writes its usage-log line to a discarding sink; beside it, bare Hono answers the same bytes
 * through the same `app.fetch`. The difference is what the gateway itself costs per request
 * (canonical request, guards, record, log line, answer), free of Node's HTTP and the load
 * generator's noise. Scenarios: pass-through and cache hit, each with the log on and off.
 *
 * With `--base REF`, the same scenarios also run on commit REF's core (exported and compiled as
 * bench:ab does) in the same process, rounds alternating, so a change is measured against its
 * base; `this/base` is printed per scenario. Medians of alternating rounds.
 */
import { Hono } from 'hono';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCommit } from './base-build.js';
import { coreAppOf } from './core-app.js';
import type { Fetch } from './core-app.js';
import { JSON_CONTENT_TYPE, SEARCH_TARGET, cannedPages } from './pages.js';
import { median } from './report.js';

const { values } = parseArgs({
  options: { base: { type: 'string' }, requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' }, only: { type: 'string' } },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const page = cannedPages().legacy;
const headers = { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(page.byteLength) };

let written = 0;
/** The core app of the compiled tree at `buildDir` (its own src/), in front of an in-memory legacy upstream. */
function gatewayOf(buildDir: string, log: boolean, cache: boolean): Promise<Fetch> {
  const config = {
    upstreams: { legacy: { baseUrl: 'http://legacy.invalid' } },
    observability: { log: { enabled: log, destination: '/dev/null' } },
    cache: { enabled: cache },
    ...(cache ? { routes: { 'recipes.search': { cache: { ttlMs: 3_600_000 } } } } : {}),
  };
  const legacy = () => Promise.resolve({ status: 200, headers, body: page as Uint8Array });
  return coreAppOf(buildDir, config, { legacy, api2: undefined }, log ? (line) => void (written += line.length) : undefined);
}

function bareHono(): Fetch {
  const app = new Hono();
  app.get('/recipes', () => new Response(page as Uint8Array<ArrayBuffer>, { status: 200, headers }));
  return (request) => app.fetch(request);
}

const SCENARIOS: ReadonlyArray<readonly [string, boolean, boolean]> = [
  ['pass-through, log on', true, false],
  ['pass-through, log off', false, false],
  ['cache hit, log on', true, true],
  ['cache hit, log off', false, true],
];
/** `--only TEXT`: bare Hono and the scenarios whose name contains TEXT (to profile one with --cpu-prof). */
const chosen = values.only ? SCENARIOS.filter(([name]) => name.includes(values.only!)) : SCENARIOS;

const trees: Array<readonly [string, string]> = [];
if (values.base) {
  const base = buildCommit(values.base);
  trees.push([`base ${base.commit.slice(0, 10)}`, base.buildDir]);
}
trees.push(['this checkout', resolve('.bench-build')]);

const BARE = 'bare Hono, same bytes';
const subjects: Array<readonly [string, Fetch]> = [[BARE, bareHono()]];
for (const [scenario, log, cache] of chosen) {
  for (const [tree, dir] of trees) subjects.push([trees.length > 1 ? `${scenario} (${tree})` : `gateway ${scenario}`, await gatewayOf(dir, log, cache)]);
}

async function cpuPerRequest(fetch: Fetch): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const answer = await fetch(new Request(`http://localhost${SEARCH_TARGET}`, { headers: { accept: 'application/json', 'x-forwarded-for': '10.0.0.1' } }));
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    await answer.arrayBuffer();
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / requests;
}

const results = new Map<string, number[]>();
for (const [, fetch] of subjects) await cpuPerRequest(fetch); // warm-up
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? subjects : [...subjects].reverse();
  for (const [name, fetch] of order) results.set(name, [...(results.get(name) ?? []), await cpuPerRequest(fetch)]);
}
const medianOf = (name: string) => median(results.get(name)!);
const bare = medianOf(BARE);
console.log(`CPU µs per request through app.fetch, no sockets (${rounds} rounds of ${requests}, medians; log bytes ${written}):`);
for (const [name] of subjects) {
  const value = medianOf(name);
  console.log(`  ${name.padEnd(40)} ${value.toFixed(1).padStart(6)} µs   own work beyond bare Hono ${(value - bare).toFixed(1).padStart(6)} µs`);
}
if (trees.length > 1) {
  for (const [scenario] of chosen) {
    const [baseName, thisName] = trees.map(([tree]) => `${scenario} (${tree})`) as [string, string];
    const own = (name: string) => medianOf(name) - bare;
    console.log(`  ${scenario.padEnd(24)} this/base ${(medianOf(thisName) / medianOf(baseName)).toFixed(3)}x, own work ${own(baseName).toFixed(1)} → ${own(thisName).toFixed(1)} µs`);
  }
}
