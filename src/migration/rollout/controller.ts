/**
 * The rollout controller: a pure function from (state, plan, evidence, now) to the next state and
 * the events that say why. The loop (runner.ts) calls it every `rollout.evaluationMs` with the
 * live counts of the step so far and of the last evaluation period.
 *
 *   waiting      a write: starts (first step) once the reads of its resource finished theirs
 *   running      a gate failed in either window (its bound above the tolerance; failSamples in
 *                  the last period) → onFailure:
 *                  back-one-step (a first step that is shadow starts again: it exposes nobody),
 *                  legacy (rolled back), pause (held where it is);
 *                every gate passed over the step (its bound below the tolerance, its floor of
 *                  samples met), the step lasted minStepMs → the next step; the last step stays watched;
 *                no api2 answer for whenQuiet.afterMs at a percentage step → widen: the next step
 *                  (or hold: stays, said once by a holds-nobody note, runner.ts);
 *                otherwise (a gate still collecting: inconclusive) → held, no event
 *   paused, rolled-back   nothing until an operator acts (actions.ts)
 *
 * Rollback is fast (one period's evidence, `failSamples`), promotion slow (the whole step's).
 */
import type { RolloutPlan } from '../../config/rollout.js';
import { evidenceFields, judgeGates, measuredBaseline } from './gates.js';
import { describeGate as describe } from './gate-text.js';
import type { WindowEvidence } from './gates.js';
import type { GateResult, JudgedGate, Position, RolloutEvent, RolloutEventKind, RolloutState } from './state.js';
import { exposesApi2, positionLabel, positionOf } from './steps.js';

export interface Evidence {
  /** Since the step began (whole counter buckets only: nothing from before the move). */
  readonly step: WindowEvidence;
  /** The last evaluation period (within the step). */
  readonly recent: WindowEvidence;
  /** A write: every read of its resource is at its last step (or on api2 without a plan). */
  readonly readsDone: boolean;
}

export interface Decision {
  readonly state: RolloutState;
  readonly events: readonly RolloutEvent[];
  /** The gates judged at this evaluation (held or not), for the console's "last evaluation". */
  readonly judged?: readonly JudgedGate[];
}

export function evaluate(state: RolloutState, plan: RolloutPlan, evidence: Evidence, now: number): Decision {
  if (state.status === 'waiting') {
    if (!evidence.readsDone) return { state, events: [] };
    const next: RolloutState = { ...state, step: 0, at: positionOf(plan, 0), status: 'running', since: now, reason: 'the reads of its resource finished their rollout' };
    return { state: next, events: [event(now, state, next, 'start', next.reason)] };
  }
  if (state.status !== 'running') return { state, events: [] };

  const baseline = measuredBaseline(evidence.step.counts, plan.minSamples) ?? state.baseline;
  const stepGates = judgeGates(plan, state.at, evidence.step, 'step', plan.minSamples, baseline);
  const recentGates = judgeGates(plan, state.at, evidence.recent, 'recent', plan.failSamples, baseline);
  const judged = [...stepGates, ...recentGates];
  const failed = judged.filter((gate) => gate.outcome === 'fail');
  const kept: RolloutState = baseline && baseline !== state.baseline ? { ...state, baseline } : state;

  // The counts behind a decision, for its events (built only when something is decided).
  const facts = (): Record<string, number | null> => ({ ...evidenceFields('step', evidence.step), ...evidenceFields('recent', evidence.recent) });
  if (failed.length > 0) {
    const why = `${failed.map(describe).join('; ')}`;
    const next = afterFailure(kept, plan, now, why);
    return {
      state: next,
      events: [event(now, state, next, 'gate-failed', `${why} → ${plan.onFailure}`, judged, facts()), ...(next.at !== state.at ? [event(now, state, next, next.status === 'paused' ? 'pause' : 'rollback', next.reason, judged, facts())] : [])],
      judged,
    };
  }

  const last = state.step >= plan.steps.length - 1;
  const lasted = now - state.since >= plan.minStepMs;
  const conclusive = stepGates.length > 0 && stepGates.every((gate) => gate.outcome === 'pass');
  const quiet = !last && lasted ? quietFor(kept, plan, evidence.step, now) : null;
  if (quiet !== null && plan.whenQuiet.action === 'widen') {
    const step = state.step + 1;
    const next: RolloutState = { ...kept, step, at: positionOf(plan, step), since: now, reason: `widened: ${quiet}` };
    return { state: next, events: [event(now, state, next, 'promote', `${quiet}: widened to ${positionLabel(next.at)} (plan whenQuiet)`, judged, facts())], judged };
  }
  if (last || !lasted || !conclusive) return { state: kept, events: [], judged };
  const step = state.step + 1;
  const at = positionOf(plan, step);
  const reason = `${stepGates.map(describe).join('; ')} over ${Math.round((now - state.since) / 1000)} s`;
  const next: RolloutState = { ...kept, step, at, since: now, reason: `promoted: ${reason}` };
  return { state: next, events: [event(now, state, next, 'promote', reason, judged, facts())], judged };
}

/**
 * Why a step is quiet, or null: it exposes clients to api2 (a percentage or a cohort, not shadow),
 * and in `whenQuiet.afterMs` it has had not one api2 answer (fallbacks included).
 */
function quietFor(state: RolloutState, plan: RolloutPlan, step: WindowEvidence, now: number): string | null {
  if (!exposesApi2(state.at) || now - state.since < plan.whenQuiet.afterMs) return null;
  const { counts } = step;
  if (counts.api2.requests + counts.fallbacks > 0) return null;
  const minutes = Math.round((now - state.since) / 6_000) / 10;
  return `quiet: no api2 answer in ${minutes} min at ${positionLabel(state.at)} (${counts.legacy.requests} requests, every one answered by legacy)`;
}

function afterFailure(state: RolloutState, plan: RolloutPlan, now: number, why: string): RolloutState {
  switch (plan.onFailure) {
    case 'pause':
      return { ...state, status: 'paused', since: now, reason: `paused: ${why}` };
    case 'legacy':
      return { ...state, step: -1, at: 'legacy', status: 'rolled-back', since: now, reason: `rolled back to legacy: ${why}` };
    case 'back-one-step': {
      const first = state.step <= 0;
      if (first && state.at === 'shadow') return { ...state, since: now, reason: `shadow step started again: ${why}` };
      const step = state.step - 1;
      const at: Position = positionOf(plan, step);
      return { ...state, step, at, status: step < 0 ? 'rolled-back' : 'running', since: now, reason: `back one step to ${positionLabel(at)}: ${why}` };
    }
  }
}

/**
 * A plan's first state at its first step, as a decision: the log then says where every rollout
 * began (a write waiting for its reads starts later, in evaluate).
 */
export function planStarted(state: RolloutState, now: number): RolloutEvent {
  return event(now, { ...state, at: 'legacy' }, state, 'start', state.reason);
}

function event(now: number, from: RolloutState, to: RolloutState, kind: RolloutEventKind, reason: string, gates?: readonly GateResult[], evidence?: Record<string, number | null>): RolloutEvent {
  return {
    time: new Date(now).toISOString(),
    operation: from.operation,
    kind,
    from: from.at,
    to: to.at,
    status: to.status,
    stepSince: to.since,
    by: 'controller',
    reason,
    ...(gates ? { gates } : {}),
    ...(evidence ? { evidence } : {}),
  };
}
