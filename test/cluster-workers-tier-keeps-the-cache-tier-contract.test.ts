/**
 * The cluster workers' tier (src/node/fleet/cluster-tier.ts) runs the cache tier contract
 * (test/support/cache-tier-contract.ts) in real node:cluster workers: this test process is the
 * primary, with the gateway's own relay (src/node/fleet/page-drop-relay.ts) between workers A and
 * B; each worker holds a ClusterTier and runs the contract's calls (support/cluster-tier-worker.ts).
 * "Out" is a worker whose messages no primary relays (a stuck or gone primary): its writes wait
 * for the bound and resolve false. The tier shares no page, fact or lock (declared); it tells the
 * other workers of a write before the write resolves.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { afterAll, beforeAll } from 'vitest';
import type { FromWorker } from '../src/node/cluster-messages.js';
import { createPageDropRelay } from '../src/node/fleet/page-drop-relay.js';
import { describeCacheTierContract } from './support/cache-tier-contract.js';
import { remoteTier } from './support/tier-calls.js';
import type { Heard, TierCall, TierReply } from './support/tier-calls.js';

type Message = { type?: string; id?: number; reply?: TierReply; heard?: Heard } | undefined;

let workers: Worker[] = [];
const relayed = new Set<Worker>();
const relay = createPageDropRelay(() => relayed);
const hearers = new Map<Worker, (heard: readonly Heard[]) => void>();
const waiting = new Map<number, (reply: TierReply) => void>();
let calls = 0;

beforeAll(async () => {
  cluster.setupPrimary({ exec: new URL('./support/cluster-tier-worker.ts', import.meta.url).pathname, execArgv: ['--import', 'tsx'], args: [] });
  workers = [cluster.fork(), cluster.fork(), cluster.fork()];
  await Promise.all(workers.map((worker) => new Promise<void>((resolve) => worker.on('message', (message: Message) => message?.type === 'contract:ready' && resolve()))));
  for (const worker of workers) {
    worker.on('message', (message: Message) => {
      if (message?.type === 'contract:reply' && message.reply) waiting.get(message.id ?? 0)?.(message.reply);
      else if (message?.type === 'contract:heard' && message.heard) hearers.get(worker)?.([message.heard]);
      else if (relayed.has(worker)) relay(worker, message as FromWorker);
    });
  }
  relayed.add(workers[0]!).add(workers[1]!);
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.once('exit', resolve), worker.kill()))));
});

function tierIn(worker: Worker) {
  const send = (call: TierCall) =>
    new Promise<TierReply>((resolve) => {
      const id = ++calls;
      waiting.set(id, (reply) => (waiting.delete(id), resolve(reply)));
      worker.send({ type: 'contract:call', id, call });
    });
  const { tier, hear } = remoteTier('tier', 0, send);
  hearers.set(worker, hear);
  return tier;
}

const capabilities = { storesPages: false, remembersFacts: false, locks: false, tellsReplicas: 'before-resolving', answersAtOnce: false, currentStamp: false, invalidationWhenOut: false } as const;
describeCacheTierContract('the cluster workers tier, in node:cluster workers', capabilities, async () => ({
  a: tierIn(workers[0]!),
  b: tierIn(workers[1]!),
  out: tierIn(workers[2]!),
  close: async () => {},
}));
