/**
 * Issue 40, done-when: a hundred thousand distinct clients keep the gateway's memory bounded. The
 * gateway app as Node runs it (usage log, metrics, live counters, a rollout whose plan chooses and
 * holds a thousand labelled clients each), answered in process (app.request, a stub legacy upstream),
 * takes one search from each of 100,000 api keys. Per client it keeps only bounded structures: the
 * identifier's remembered hashes (10,000), the live counters' client blockers (at most
 * MAX_CLIENT_FIELDS_PER_BUCKET per bucket), the search cache's known keys (off here: cache disabled, its
 * LRU bound is 100,000); cohort and hold look-ups are Set look-ups of the configured clients.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { parseConfig } from '../src/config/schema.js';
import { createLiveCounters } from '../src/migration/live-counters.js';
import { MAX_CLIENT_FIELDS_PER_BUCKET, OTHER_CLIENTS } from '../src/migration/live-tally.js';
import type { Exposure } from '../src/migration/rollout/steps.js';
import { edgeRuntime } from '../src/edge/runtime.js';
import { fanOut } from '../src/observability/fan-out.js';
import { createNodeObservability } from '../src/observability/node/wiring.js';
import { nodeHmacSha256 } from '../src/request/hmac-node.js';
import { hashClient } from '../src/request/identity.js';
import type { UpstreamClient } from '../src/upstream/types.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const CLIENTS = 100_000;
const LABELLED = 2_000;
/** Heap growth allowed after 100,000 distinct clients: what a fixed number of them may leave, not a structure per client (a Map entry of a 16-character hash alone is some 100 bytes: 10 MB). */
const MAX_GROWTH_BYTES = 4 * 1024 * 1024;
const HASH_KEY = 'hundred-thousand-clients-hash-key-0123';

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) collectGarbage();
  return process.memoryUsage().heapUsed;
}

const body = new TextEncoder().encode('{"ResultCount":0,"Results":[]}');
const legacy: UpstreamClient = {
  name: 'legacy',
  request: () => Promise.resolve({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body }),
  stats: () => ({ connected: 0, idle: 0, inFlight: 0, waiting: 0 }),
  close: async () => {},
};
// The rollout compares legacy's answers with api2 in the background: an api2 that is out skips them.
const api2: UpstreamClient = { ...legacy, name: 'api2', request: () => Promise.resolve({ status: 503, headers: {}, body: new Uint8Array() }) };

const key = (i: number) => `client-key-${String(i).padStart(6, '0')}`;

it('holds no structure per client after 100,000 distinct clients: the heap grows by less than a fixed bound', async () => {
  const labels = Object.fromEntries(Array.from({ length: LABELLED }, (_, i) => [hashClient(nodeHmacSha256, HASH_KEY, key(i)), `app-${i}`]));
  const chosen = Array.from({ length: LABELLED / 2 }, (_, i) => `app-${i}`);
  const held = Array.from({ length: LABELLED / 2 }, (_, i) => `app-${i + LABELLED / 2}`);
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://legacy.invalid' }, api2: { baseUrl: 'https://api2.invalid' } },
    cache: { enabled: false },
    routes: { 'recipes.search': { rollout: { steps: [{ clients: chosen }, 100], hold: held } } },
    observability: { hashKey: HASH_KEY, clientLabels: labels, log: { destination: '/dev/null' }, admin: { bearerToken: 'memory-test-admin-token-0123456789' } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const observability = createNodeObservability(parsed.config);
  const live = createLiveCounters();
  // The rollout at 0 % beside its cohort: the chosen go to api2 (out: legacy answers), the held and the rest to legacy.
  const exposure: Exposure = { mode: 'canary', canaryPercent: 0, pageEpoch: 0, cohort: { chosen: new Set(chosen), held: new Set(held) } };
  const app = createGatewayApp({
    config: parsed.config,
    upstreams: { legacy, api2 },
    runtime: edgeRuntime,
    identifier: observability.identifier,
    onRecord: fanOut([observability.sink, live.recordRequest]),
    rollout: { route: () => exposure },
  });
  const ask = async (i: number) => {
    const answer = await app.request(`http://gw.example/recipes?title_kw=soup&api_key=${key(i)}`, { headers: { accept: 'application/json', 'user-agent': `Program${i % 7}/1.0` } });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
  };
  // Warm up on the labelled clients (every lazy structure made), then measure.
  for (let i = 0; i < LABELLED; i++) await ask(i);
  const before = heapAfterGc();
  const started = performance.now();
  for (let i = LABELLED; i < CLIENTS + LABELLED; i++) await ask(i);
  const seconds = (performance.now() - started) / 1000;
  const after = heapAfterGc();
  const window = await live.window(0);
  await live.close();
  await observability.close();

  // Every client was counted (by the live counters' answers), and the client blockers they keep are capped.
  const search = window.operations.get('recipes.search')!;
  expect(search.legacy.requests).toBe(CLIENTS + LABELLED);
  // The chosen clients were sent to api2 (out, so legacy answered them as a fallback): the cohort was looked up.
  expect(search.fallbacks).toBeGreaterThan(0);
  expect(window.clients.some((c) => c.client === OTHER_CLIENTS)).toBe(true);
  expect(window.clients.length).toBeLessThanOrEqual(MAX_CLIENT_FIELDS_PER_BUCKET * Math.ceil(seconds / 5 + 2));
  expect(after - before, `heap grew ${((after - before) / 1048576).toFixed(1)} MB over ${CLIENTS} clients in ${seconds.toFixed(1)} s`).toBeLessThan(MAX_GROWTH_BYTES);
}, 300_000);
