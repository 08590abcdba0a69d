/**
 * Rollout tests' rig pieces: the plan with short steps, the config around an api2 front, a steady
 * stream of searches from the six clients the sandbox knows, waiting for a step, and one move
 * forward and back.
 */
import type { RolloutPlanInput } from '../../src/config/rollout.js';
import type { GatewayConfigInput } from '../../src/config/schema.js';
import type { RolloutSnapshot } from '../../src/migration/rollout/runner.js';
import type { Position, RolloutEvent } from '../../src/migration/rollout/state.js';
import { PLACEHOLDER_PHOTO_URL } from '../../src/sandbox/dataset/dataset.js';
import { startLegacySandbox } from '../../src/sandbox/start.js';
import { startApi2Front } from './api2-front.js';
import type { Api2Front } from './api2-front.js';
import { startTestGateway } from './gateway.js';
import type { TestGateway } from './gateway.js';
import { basic, send } from './http.js';
import { waitFor } from './wait.js';
import type { Cleanup } from './cleanup.js';
import { startTestRedis } from './redis-server.js';
import type { TestRedis } from './redis-server.js';

export const EVALUATION_MS = 200;
export const TOKEN = 'rollout-test-admin-token-0123456789';
/**
 * Canary buckets of the six clients: paid/anonymous 242, free/alice 2298, paid/alice 2987: 5 % holds one, 25 % three...
 * The p95 of a step's 8 to 20 samples is their slowest: graceMs is wider than one request stalled by a
 * loaded machine (seen: 300 ms against legacy's 30), narrower than the front's `slow` fault (1 s).
 * The tolerances are wide so that a step's bound concludes on a test's traffic (docs/rollout.md: 39
 * clean comparisons at 10 %, 23 clean api2 answers at 20 % more errors than legacy); a differing or
 * failing api2 (every answer) is far beyond them.
 */
export const PLAN: RolloutPlanInput = {
  steps: ['shadow', 5, 25, 100],
  minStepMs: 300,
  minSamples: 8,
  failSamples: 3,
  gates: { shadowAgreement: { maxDisagreement: 0.1, minComparisons: 8 }, errorRate: { maxExcess: 0.2 }, latencyP95: { maxRatio: 3, graceMs: 600 } },
};

export function rolloutConfig(front: Api2Front, legacyOrigin: string, extra: Partial<GatewayConfigInput> = {}): Partial<GatewayConfigInput> {
  return {
    upstreams: { legacy: { baseUrl: legacyOrigin }, api2: { baseUrl: front.origin, caFile: front.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    cache: { enabled: false },
    routes: { 'recipes.search': { rollout: PLAN } },
    rollout: { evaluationMs: EVALUATION_MS },
    observability: { admin: { bearerToken: TOKEN } },
    ...extra,
  };
}

const CLIENTS = ['sandbox-free-key', 'sandbox-paid-key'].flatMap((key) => [undefined, 'alice', 'bob'].map((user) => ({ key, user })));
const WORDS = ['soup', 'chicken', 'salad', 'cake', 'bread', 'pasta'];

/** Searches from the six clients, `loops` at a time, over every gateway given, until stopped; keeps every status. */
export function traffic(gateways: readonly TestGateway[], loops = 3): { statuses: number[]; stop(): Promise<void> } {
  const statuses: number[] = [];
  let running = true;
  let n = 0;
  const loop = async (): Promise<void> => {
    while (running) {
      const i = n++;
      const client = CLIENTS[i % CLIENTS.length] ?? CLIENTS[0];
      const gateway = gateways[i % gateways.length] as TestGateway;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (client?.user) headers['authorization'] = basic(client.user, `${client.user}-pass`);
      const res = await send(gateway.origin, { target: `/recipes?title_kw=${WORDS[i % WORDS.length]}&rpp=5&api_key=${client?.key}`, headers }).catch(() => ({ status: 0 }));
      statuses.push(res.status);
    }
  };
  const all = Array.from({ length: loops }, loop);
  return {
    statuses,
    async stop() {
      running = false;
      await Promise.all(all);
    },
  };
}

export function snapshot(gateway: TestGateway): RolloutSnapshot {
  const found = gateway.running.rollout();
  if (!found) throw new Error('no rollout runs');
  return found;
}

export const positionOf = (gateway: TestGateway): Position | undefined => snapshot(gateway).operations[0]?.state?.at;

/** Waits (30 s at the most) until the rollout is where `what` says. */
export const until = (what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> => waitFor(condition, timeoutMs, what);

/** A real redis-server, a legacy sandbox and an api2 front for a fleet's replicas; each is closed by `cleanup`. */
export async function startFleetUpstreams(cleanup: Cleanup): Promise<{ redis: TestRedis; legacyOrigin: string; front: Api2Front }> {
  const redis = await startTestRedis();
  cleanup.push(() => redis.close());
  const legacy = await startLegacySandbox();
  cleanup.push(() => legacy.close());
  const front = await startApi2Front();
  cleanup.push(() => front.close());
  return { redis, legacyOrigin: legacy.origin, front };
}

/** A legacy sandbox, an api2 front and a gateway with the rollout config (and `extra`); each is closed by `cleanup`. */
export async function startRolloutRig(cleanup: Cleanup, extra: Partial<GatewayConfigInput> = {}): Promise<{ front: Api2Front; gateway: TestGateway }> {
  const legacy = await startLegacySandbox();
  cleanup.push(() => legacy.close());
  const front = await startApi2Front();
  cleanup.push(() => front.close());
  const gateway = await startTestGateway(legacy.origin, rolloutConfig(front, legacy.origin, extra));
  cleanup.push(() => gateway.close());
  return { front, gateway };
}

/**
 * One rollout move and back: the six clients' searches until the gateway promotes recipes.search
 * from shadow to 5 %, then the front's api2 differing until the gateway sends it back to shadow.
 * The searches stop either way. Gives the gateway's rollout events (oldest first).
 */
export async function promoteThenSendBack(gateway: TestGateway, front: Api2Front): Promise<readonly RolloutEvent[]> {
  const load = traffic([gateway]);
  try {
    await until('5 %', () => positionOf(gateway) === 5);
    front.mode = 'differ';
    await until('back to shadow', () => positionOf(gateway) === 'shadow');
  } finally {
    await load.stop();
  }
  return snapshot(gateway).events;
}
