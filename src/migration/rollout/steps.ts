/**
 * Steps and positions: what a step exposes (the route's mode and canary percent), how steps
 * compare, and what a changed plan does to a running rollout.
 *
 * DECISION (a changed plan): the config file stays the source of the plan. When a plan's steps
 * are unchanged (only times, samples, gates or the failure action changed), the rollout goes on
 * where it is, under the new gates, its step's evidence kept. When the steps changed, the route
 * goes to the highest step of the new plan that exposes no more than where it was (never more
 * than before: a file change never promotes), and that step starts again (fresh evidence). A
 * removed plan ends the rollout: the route takes its configured mode again.
 */
import type { OperationId } from '../../catalogue/operations.js';
import type { RolloutPlan, RolloutStep } from '../../config/rollout.js';
import type { RouteMode } from '../../config/schema.js';
import type { OperationEvidence } from './gates.js';
import type { Position, RolloutEvent, RolloutState } from './state.js';

/** Clients named by a plan (labels or client hashes): chosen ones go to api2 ahead of the percentage, held ones never. */
export interface Cohort {
  readonly chosen: ReadonlySet<string>;
  readonly held: ReadonlySet<string>;
}

export interface Exposure {
  readonly mode: RouteMode;
  readonly canaryPercent: number;
  /** The rollout state's page epoch (RolloutState.pageEpoch), on a route the rollout moves. */
  readonly pageEpoch?: number;
  /** When the rollout state's step (or status) began (RolloutState.since): the step the evidence is of. */
  readonly since?: number;
  /** The clients the plan names, when it names any (a percentage step of such a plan is a canary). */
  readonly cohort?: Cohort;
}

const NOBODY: ReadonlySet<string> = new Set();

export function exposureOf(at: Position): Exposure {
  if (at === 'legacy') return { mode: 'legacy', canaryPercent: 0 };
  if (at === 'shadow') return { mode: 'shadow', canaryPercent: 0 };
  if (typeof at === 'object') return { mode: 'canary', canaryPercent: at.percent, cohort: { chosen: new Set(at.clients), held: NOBODY } };
  return at >= 100 ? { mode: 'api2', canaryPercent: 100 } : { mode: 'canary', canaryPercent: at };
}

/**
 * What a state exposes under its plan: its step's share, the clients of every cohort step up to
 * it (a client moved forward stays on api2 at the later steps), none of the held clients (so a
 * last step of 100 % with held clients is a canary of 100 % but them).
 */
export function exposureFor(plan: RolloutPlan | undefined, state: RolloutState): Exposure {
  const base = { ...exposureOf(state.at), pageEpoch: state.pageEpoch, since: state.since };
  if (base.mode === 'legacy' || base.mode === 'shadow') return base;
  const named = [...(plan?.steps.slice(0, state.step + 1) ?? []), state.at].flatMap((step) => (typeof step === 'object' ? step.clients : []));
  const held = plan?.hold ?? [];
  if (named.length === 0 && held.length === 0) return base;
  return { ...base, mode: 'canary', cohort: { chosen: new Set(named), held: new Set(held) } };
}

/** Whether a position sends anyone to api2 (a percentage or a cohort). */
export const exposesApi2 = (at: Position): boolean => at !== 'legacy' && at !== 'shadow';

/**
 * How much a position exposes clients to api2: legacy < shadow < any percent. DECISION: a cohort
 * step counts as its percentage and a half (it adds named clients to it), to compare steps across
 * a changed plan (replan) and to tell a move off api2 (afterMove).
 */
export function exposureRank(at: Position): number {
  if (at === 'legacy') return -2;
  if (at === 'shadow') return -1;
  return typeof at === 'number' ? at : at.percent + 0.5;
}

/** A position as a data attribute's value: `legacy`, `shadow`, the percent, or a cohort's label. */
export const positionKey = (at: Position): string => (typeof at === 'object' ? positionLabel(at) : String(at));

export function positionLabel(at: Position): string {
  if (typeof at === 'number') return `${at} %`;
  if (typeof at === 'object') return `${at.clients.join(', ')}${at.percent > 0 ? ` + ${at.percent} %` : ''}`;
  return at;
}

export function positionOf(plan: RolloutPlan, step: number): Position {
  return step < 0 ? 'legacy' : (plan.steps[step] as RolloutStep);
}

/**
 * Why a percentage step holds nobody, or null: the clients seen in it (`minSamples` of legacy's
 * own answers at least) all fall outside its share, so api2 answers none of them and the step
 * cannot gather the evidence to move (with few clients, a small first percentage often does this).
 */
export function holdsNobody(at: Position, counts: OperationEvidence, plan: RolloutPlan): string | null {
  if (!exposesApi2(at) || (typeof at === 'number' && at >= 100)) return null;
  const legacy = counts.legacy.requests - counts.fallbacks;
  if (counts.api2.requests + counts.fallbacks > 0 || legacy < plan.minSamples) return null;
  const then = plan.whenQuiet.action === 'widen' ? `it widens to the next step once it has been quiet ${Math.round(plan.whenQuiet.afterMs / 60_000 * 10) / 10} min (whenQuiet), or promote it by hand` : 'promote it by hand, or plan a larger percentage (whenQuiet holds it)';
  return `the ${positionLabel(at)} step holds no client seen in it (${legacy} requests, every one answered by legacy): it cannot gather api2 evidence; ${then}`;
}

/** A short fingerprint of a plan (FNV-1a over its JSON), to notice that the file changed it. */
export function planHash(plan: RolloutPlan): string {
  return fnv(JSON.stringify(plan));
}

function stepsHash(plan: RolloutPlan): string {
  return fnv(JSON.stringify(plan.steps));
}

function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** A plan's hash is `<steps>-<whole>`: the first half tells a change of steps from a change of gates. */
export function planKey(plan: RolloutPlan): string {
  return `${stepsHash(plan)}-${planHash(plan)}`;
}

/** The first state of a plan: its first step, or waiting on legacy (a write whose reads have not finished). */
export function initialState(operation: OperationId, plan: RolloutPlan, now: number, readsDone: boolean): RolloutState {
  const fresh = { operation, since: now, plan: planKey(plan), born: now, pageEpoch: 0 };
  if (!readsDone) return { ...fresh, step: -1, at: 'legacy', status: 'waiting', reason: 'waiting for the reads of its resource to finish their rollout' };
  return { ...fresh, step: 0, at: positionOf(plan, 0), status: 'running', reason: 'plan started' };
}

/**
 * `next` as it is stored after `previous`: a move that takes clients off api2 (a rollback, a step
 * down, a changed plan) starts a new page epoch, so no api2 page from before it is served after it.
 */
export function afterMove(previous: RolloutState | undefined, next: RolloutState): RolloutState {
  if (previous === undefined || !exposesApi2(previous.at) || exposureRank(next.at) >= exposureRank(previous.at)) return next;
  return { ...next, pageEpoch: previous.pageEpoch + 1 };
}

/** The state under a plan that differs from the one it was decided under (the rule is in the header of this module). */
export function replan(state: RolloutState, plan: RolloutPlan, now: number): { state: RolloutState; event: RolloutEvent | null } {
  const key = planKey(plan);
  if (state.plan === key) return { state, event: null };
  const sameSteps = state.plan.split('-')[0] === key.split('-')[0];
  let next: RolloutState;
  if (sameSteps || state.step < 0) {
    next = { ...state, plan: key, reason: sameSteps ? 'plan changed (same steps): goes on under the new gates' : 'plan changed while on legacy' };
  } else {
    let step = -1;
    plan.steps.forEach((candidate, index) => {
      if (exposureRank(candidate) <= exposureRank(state.at)) step = index;
    });
    next = { ...state, step, at: positionOf(plan, step), since: now, plan: key, reason: `plan changed: steps now ${plan.steps.map(positionLabel).join(' → ')}` };
    if (step < 0 && state.status === 'running') next = { ...next, status: 'rolled-back', reason: `${next.reason}; none exposes as little as ${positionLabel(state.at)}` };
  }
  const event: RolloutEvent = {
    time: new Date(now).toISOString(),
    operation: state.operation,
    kind: 'plan-changed',
    from: state.at,
    to: next.at,
    status: next.status,
    by: 'config',
    reason: next.reason,
  };
  return { state: next, event };
}
