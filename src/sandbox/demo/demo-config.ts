/**
 * The demo's rollout plans (docs/sandbox-and-demo.md): every operation that can move gets one,
 * with periods short enough that, under the demo's traffic, every one reaches its last step within
 * six minutes (measured: docs/sandbox-and-demo.md), the writes after their reads. The same plans as a real
 * deployment would write, only faster: a starting point (`npm start -- --demo --print-config`).
 *
 * DECISION: reads: shadow, 20 %, 50 %, 100 %, each at least 15 s, 3 api2 answers and 20 shadow
 * comparisons, at most 2 % disagreement with 95 % confidence (the tolerance a real plan would use:
 * a comparison a write raced is counted apart, not as a disagreement); writes: 50 %, 100 % (a write's
 * error-rate gate needs about 100 api2 answers: at 20 % the rarest write, one request in 90, took
 * longer than the demo's six minutes). A step with no api2 answer for 30 s widens to the next
 * (whenQuiet). Gates are evaluated every 2 s. A failed gate goes one step back. The traffic: 150
 * requests a second (the reads' gates need about 200 comparisons a step; at 40 the rarer reads took
 * five minutes and more).
 */
import { capabilities } from '../../catalogue/movability.js';
import { operationById } from '../../catalogue/operations.js';
import type { OperationId } from '../../catalogue/operations.js';
import type { RolloutPlanInput } from '../../config/rollout.js';
import { MAX_RATE } from './traffic.js';

export const DEMO_EVALUATION_MS = 2_000;

export const DEMO_READ_PLAN: RolloutPlanInput = {
  steps: ['shadow', 20, 50, 100],
  minStepMs: 15_000,
  minSamples: 3,
  failSamples: 5,
  gates: { shadowAgreement: { maxDisagreement: 0.02, confidence: 0.95, minComparisons: 20 }, errorRate: { maxExcess: 0.05 }, breaker: true },
  onFailure: 'back-one-step',
  whenQuiet: { afterMs: 30_000 },
};

export const DEMO_WRITE_PLAN: RolloutPlanInput = {
  steps: [50, 100],
  minStepMs: 15_000,
  minSamples: 3,
  failSamples: 5,
  gates: { errorRate: { maxExcess: 0.05 }, breaker: true },
  onFailure: 'back-one-step',
  whenQuiet: { afterMs: 30_000 },
};

/** The operations that can move, each with its plan. */
export function demoRoutes(): Record<OperationId, { rollout: RolloutPlanInput }> {
  const routes = {} as Record<OperationId, { rollout: RolloutPlanInput }>;
  for (const row of capabilities()) {
    if (!row.mapped) continue;
    routes[row.operation] = { rollout: operationById(row.operation).safe ? DEMO_READ_PLAN : DEMO_WRITE_PLAN };
  }
  return routes;
}

/** DEMO_RATE and DEMO_REQUESTS, bounded. */
export function demoTrafficOf(env: Readonly<Record<string, string | undefined>>): { ok: true; rate: number; total: number } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const read = (name: string, fallback: number, max: number): number => {
    const raw = env[name];
    if (!raw) return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= 1 && value <= max) return value;
    errors.push(`${name}: a whole number from 1 to ${max}, got ${JSON.stringify(raw)}`);
    return fallback;
  };
  const rate = read('DEMO_RATE', DEMO_TRAFFIC.rate, MAX_RATE);
  const total = read('DEMO_REQUESTS', DEMO_TRAFFIC.total, 1_000_000);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rate, total };
}

/** The demo's traffic, bounded: requests a second and in all (about 50 minutes), unless DEMO_RATE / DEMO_REQUESTS say less or more. */
export const DEMO_TRAFFIC = { rate: 150, total: 450_000 } as const;

/** The demo's variables, for `--help` (src/node/usage.ts). */
export const DEMO_ENVIRONMENT: ReadonlyArray<readonly [name: string, what: string]> = [
  ['DEMO_RATE', `requests a second (default ${DEMO_TRAFFIC.rate}, at most ${MAX_RATE})`],
  ['DEMO_REQUESTS', `requests in all (default ${DEMO_TRAFFIC.total})`],
];
