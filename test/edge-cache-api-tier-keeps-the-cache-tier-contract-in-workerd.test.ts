/**
 * The Workers Cache API tier (src/edge/cache-api-tier.ts) runs the cache tier contract
 * (test/support/cache-tier-contract.ts) inside a real workerd (miniflare), over workerd's own
 * `caches.default`: the tiers live in a harness Worker (support/cache-api-tier-harness.ts) and
 * the contract drives them from here, call by call (support/tier-calls.ts). Two replicas are two
 * tiers over the one data-centre cache; "out" is a tier over a cache that refuses every call.
 * What the Cache API cannot do is declared: no lock, no message to other isolates.
 */
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { beforeAll } from 'vitest';
import { describeCacheTierContract } from './support/cache-tier-contract.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { EDGE_BUNDLE_OPTIONS } from './support/edge-bundle.js';
import { remoteTier } from './support/tier-calls.js';
import type { TierCall, TierReply } from './support/tier-calls.js';

let harness: URL;
const closeAfterAll = closedAfterAllTests();
beforeAll(async () => {
  const bundle = await build({ ...EDGE_BUNDLE_OPTIONS, entryPoints: [new URL('./support/cache-api-tier-harness.ts', import.meta.url).pathname] });
  const mf = new Miniflare({ modules: true, script: bundle.outputFiles[0]?.text ?? '', compatibilityDate: '2025-07-01', host: '127.0.0.1', port: 0 });
  closeAfterAll.push(() => mf.dispose());
  harness = await mf.ready;
}, 60_000);

async function send(call: TierCall): Promise<TierReply> {
  const response = await fetch(harness, { method: 'POST', body: JSON.stringify(call) });
  if (!response.ok) throw new Error(`the harness answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as TierReply;
}

let fleets = 0;
const capabilities = { storesPages: true, remembersFacts: true, locks: false, tellsReplicas: 'never', answersAtOnce: false, currentStamp: false, invalidationWhenOut: true } as const;
describeCacheTierContract('the Workers Cache API tier, in workerd', capabilities, async () => {
  const fleet = `fleet${++fleets}`;
  const [a, b, out] = ['a', 'b', 'out'].map((name) => remoteTier(`${fleet}:${name}`, 0, send).tier);
  return { a: a!, b: b!, out: out!, close: async () => {} };
});
