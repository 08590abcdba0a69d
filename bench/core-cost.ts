/**
 * `npm run bench:core -- [--requests N] [--rounds N]`: the gateway's own work per request, without
 * sockets. The core app (src/app.ts) answers the bench's search through `app.fetch` from an
 * in-memory legacy upstream (the canned 12 KB page, answered at once) and writes its usage-log
 * line to a discarding sink; beside it, bare Hono answers the same bytes through the same
 * `app.fetch`. The difference is what the gateway itself costs per request (canonical request,
 * guards, record, log line, answer), free of Node's HTTP and the load generator's noise.
 * Scenarios: pass-through (log on, log off) and cache hit (log on). Medians of alternating rounds.
 */
import { Hono } from 'hono';
import { parseArgs } from 'node:util';
import { createGatewayApp } from '../src/app.js';
import { parseConfig } from '../src/config/schema.js';
import { edgeRuntime } from '../src/edge/runtime.js';
import { logLine } from '../src/observability/log-fields.js';
import type { UpstreamClient } from '../src/upstream/types.js';
import { JSON_CONTENT_TYPE, SEARCH_TARGET, cannedPages } from './pages.js';
import { median } from './report.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' }, only: { type: 'string' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const page = cannedPages().legacy;
const headers = { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(page.byteLength) };

const legacy: UpstreamClient = {
  name: 'legacy',
  request: () => Promise.resolve({ status: 200, headers, body: page }),
  stats: () => ({ connected: 1, idle: 1, inFlight: 0, waiting: 0 }),
  close: async () => {},
};

let written = 0;
function gateway(log: boolean, cache: boolean): (request: Request) => Response | Promise<Response> {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://legacy.invalid' } },
    observability: { log: { enabled: log, destination: '/dev/null' } },
    cache: { enabled: cache },
    ...(cache ? { routes: { 'recipes.search': { cache: { ttlMs: 3_600_000 } } } } : {}),
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const origin = { instance: 'bench', config: '1' };
  const app = createGatewayApp({
    config: parsed.config,
    upstreams: { legacy },
    // A socket peer, as on Node (the edge runtime has no peer address).
    runtime: { ...edgeRuntime, peer: () => ({ address: '127.0.0.1', tls: false }) },
    onRecord: log ? (record) => void (written += logLine(record, 30, Date.now(), origin).length) : undefined,
  });
  return (request) => app.fetch(request);
}

function bareHono(): (request: Request) => Response | Promise<Response> {
  const app = new Hono();
  app.get('/recipes', () => new Response(page as Uint8Array<ArrayBuffer>, { status: 200, headers }));
  return (request) => app.fetch(request);
}

const ALL: ReadonlyArray<readonly [string, (request: Request) => Response | Promise<Response>]> = [
  ['bare Hono, same bytes', bareHono()],
  ['gateway pass-through, log on', gateway(true, false)],
  ['gateway pass-through, log off', gateway(false, false)],
  ['gateway cache hit, log on', gateway(true, true)],
];
/** `--only TEXT`: bare Hono and the subjects whose name contains TEXT (to profile one with --cpu-prof). */
const SUBJECTS = values.only ? ALL.filter(([name], index) => index === 0 || name.includes(values.only!)) : ALL;

async function cpuPerRequest(fetch: (request: Request) => Response | Promise<Response>): Promise<number> {
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
for (const [, fetch] of SUBJECTS) await cpuPerRequest(fetch); // warm-up
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? SUBJECTS : [...SUBJECTS].reverse();
  for (const [name, fetch] of order) results.set(name, [...(results.get(name) ?? []), await cpuPerRequest(fetch)]);
}
const bare = median(results.get(SUBJECTS[0]![0])!);
console.log(`CPU µs per request through app.fetch, no sockets (${rounds} rounds of ${requests}, medians; log bytes ${written}):`);
for (const [name] of SUBJECTS) {
  const value = median(results.get(name)!);
  console.log(`  ${name.padEnd(32)} ${value.toFixed(1).padStart(6)} µs   own work beyond bare Hono ${(value - bare).toFixed(1).padStart(6)} µs`);
}
