/**
 * Seeded simulations of a shadow step whose comparisons race writes, through the real parts: the
 * ShadowComparator (src/traffic/shadow.ts: race check, one comparison made again, the `race`
 * outcome), the live counters' tally (src/migration/live-tally.ts: what each outcome counts as) and
 * the controller (src/migration/rollout/controller.ts: the gates and their bounds). Comparisons
 * arrive in batches of 20 to 50 between evaluations; each attempt races a write with a fixed
 * probability, and a raced attempt finds legacy's answer changed by the write half the time (the
 * answers then differ with no fault of the mapping). The mapping differs on its own with `rate`.
 */
import type { RolloutPlan } from '../../src/config/rollout.js';
import { mulberry32 } from '../../src/sandbox/dataset/dataset.js';
import { evaluate } from '../../src/migration/rollout/controller.js';
import type { WindowEvidence } from '../../src/migration/rollout/gates.js';
import { countsOf, tallyShadow } from '../../src/migration/live-tally.js';
import type { Tally } from '../../src/migration/live-tally.js';
import type { JudgedGate, RolloutState } from '../../src/migration/rollout/state.js';
import { initialState } from '../../src/migration/rollout/steps.js';
import { ShadowComparator } from '../../src/traffic/shadow.js';
import type { ShadowAnswer, ShadowRecord } from '../../src/traffic/shadow.js';

export interface RaceScenario {
  readonly plan: RolloutPlan;
  /** Chance the mapping itself makes api2's answer differ. */
  readonly rate: number;
  /** Chance one comparison attempt overlaps a write of its scope. */
  readonly raceRate: number;
  /** Comparisons (sampled requests) at most in one run. */
  readonly cap: number;
  readonly stopAtFailure: boolean;
}

export interface RaceRun {
  readonly end: 'promoted' | 'failed' | 'open';
  /** Sampled requests compared (each once, or twice after a race) in the run. */
  readonly requests: number;
  /** Races recorded (both attempts raced) in the run. */
  readonly races: number;
  readonly failures: number;
  /** The agreement gate of the step at the last evaluation. */
  readonly last: JudgedGate | undefined;
  /** The step's equal + differ records at the last evaluation (what the gate's n must be). */
  readonly compared: number;
}

const T0 = 1_000_000;
const OP = 'recipes.search';
const json = (title: string): ShadowAnswer => ({ status: 200, contentType: 'application/json', contentEncoding: null, body: new TextEncoder().encode(JSON.stringify({ Title: title })) });
const ZERO = { requests: 0, status5xx: 0, p95Ms: null };

function windowOf(tally: Tally): WindowEvidence {
  const counts = countsOf(tally, OP);
  return { counts: { legacy: ZERO, api2: ZERO, fallbacks: 0, shadow: counts.shadow }, api2BreakerOpens: 0 };
}

export async function simulateRaces(scenario: RaceScenario, seed: number): Promise<RaceRun> {
  const { plan, rate, raceRate, cap } = scenario;
  const random = mulberry32(seed);
  const records: ShadowRecord[] = [];
  const comparator = new ShadowComparator({ maxConcurrent: 1_000, maxDecodedBytes: 1024 * 1024, onRecord: (record) => records.push(record) });
  /** One attempt: whether it raced, and the two answers it read. */
  const attempt = () => {
    const raced = random() < raceRate;
    const legacy = raced && random() < 0.5 ? 'after the write' : 'stored';
    return { primary: json(legacy), candidate: async () => json(random() < rate ? 'mapped wrong' : 'stored'), raced: () => raced };
  };
  let state: RolloutState = { ...initialState(OP, plan, T0, true), since: T0 };
  let now = T0;
  let requests = 0;
  let races = 0;
  let failures = 0;
  let step: Tally = new Map();
  let last: JudgedGate | undefined;
  let compared = 0;
  while (requests < cap) {
    const n = 20 + Math.floor(random() * 31);
    records.length = 0;
    for (let i = 0; i < n; i++) {
      let running: Promise<unknown> = Promise.resolve();
      comparator.offer({ operation: OP, requestId: undefined, losses: [], ignore: new Set(), ...attempt(), again: attempt }, (work) => (running = work));
      await running;
    }
    requests += n;
    const recent: Tally = new Map();
    for (const record of records) {
      tallyShadow(recent, record);
      tallyShadow(step, record);
      if (record.outcome === 'race') races++;
    }
    now += 1_000;
    const decision = evaluate(state, plan, { step: windowOf(step), recent: windowOf(recent), readsDone: true }, now);
    last = decision.judged?.find((g) => g.gate === 'shadowAgreement' && g.window === 'step');
    const counted = countsOf(step, OP).shadow;
    compared = counted.agreed + counted.differed;
    const result = (end: RaceRun['end']): RaceRun => ({ end, requests, races, failures, last, compared });
    if (decision.state.step > state.step) return result('promoted');
    if (decision.events.some((e) => e.kind === 'gate-failed')) {
      failures++;
      if (scenario.stopAtFailure || decision.state.status !== 'running') return result('failed');
      step = new Map();
    }
    state = decision.state;
  }
  return { end: 'open', requests, races, failures, last, compared };
}

export async function simulateManyRaces(scenario: RaceScenario, runs: number): Promise<RaceRun[]> {
  const results: RaceRun[] = [];
  for (let seed = 1; seed <= runs; seed++) results.push(await simulateRaces(scenario, seed));
  return results;
}
