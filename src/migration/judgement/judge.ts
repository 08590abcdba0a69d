/**
 * The one judgement: per operation, from its movability (the catalogue), the route's mode in
 * force, its rollout plan and state, the evidence of the config version and step in force and
 * the gates, ONE state and one sentence of next action (docs/rollout.md "One state per
 * operation"). Pure. The gates are the rollout's (src/migration/rollout/gates.ts `judgeGates`);
 * an operation without a plan is judged by its default plan's gates (default-plan.ts).
 */
import { movability } from '../../catalogue/movability.js';
import type { RolloutPlan } from '../../config/rollout.js';
import { judgeGates, measuredBaseline } from '../rollout/gates.js';
import { describeGate } from '../rollout/gate-text.js';
import type { GateResult, Position } from '../rollout/state.js';
import { positionKey, positionLabel } from '../rollout/steps.js';
import { percentOf } from '../../config/rollout.js';
import { defaultPlan } from './default-plan.js';
import { holdText, trailingHold } from './history.js';
import { missingSamples, missingText } from './missing.js';
import { causeOfHold, nextForHold } from './next-action.js';
import type { Judgement, JudgementInput, RolloutFacts } from './types.js';

export function judgeOperation(input: JudgementInput): Judgement {
  const { operation } = input;
  const move = operation === 'uncatalogued' ? { canMove: false as const, reason: 'uncatalogued calls have no api2 mapping' } : movability(operation);
  if (!move.canMove) {
    return { ...blank(operation, false, null), state: 'cannot-move', detail: move.reason, next: 'Nothing to move: its clients stay on legacy through the gateway.' };
  }
  return input.rollout ? judgeRollout(input, input.rollout) : judgeWithoutPlan(input);
}

function blank(operation: string, canMove: boolean, step: Position | null, input?: JudgementInput): Omit<Judgement, 'state' | 'detail' | 'next'> {
  const shadow = input?.evidence.counts.shadow;
  return { operation, canMove, step, hold: null, pausedBy: null, missing: {}, gates: [], races: shadow?.raced ?? 0, api2Failures: shadow?.unavailable ?? 0, cause: null };
}

/** A failed gate in words; a failed error rate names api2's failures as what they are, an outage. */
function failedText(gate: GateResult): string {
  if (gate.gate !== 'errorRate') return describeGate(gate);
  const share = gate.samples > 0 && gate.adverse != null ? ` (${Number(((gate.adverse / gate.samples) * 100).toPrecision(3))} %)` : '';
  const where = gate.window === 'recent' ? 'the last evaluation period' : 'this step';
  return `api2 unavailable: it answered 5xx, timed out or refused ${gate.adverse ?? '?'} of ${gate.samples} calls${share} in ${where}; it moves on when api2 recovers (${describeGate(gate)})`;
}

function judgeRollout(input: JudgementInput, rollout: RolloutFacts): Judgement {
  const { operation } = input;
  const plan = input.plan ?? defaultPlan(input.write);
  const at = rollout.at;
  // As the controller judges: legacy's baseline of this step when it has enough samples, else the last one measured.
  const baseline = measuredBaseline(input.evidence.counts, plan.minSamples) ?? input.baseline;
  const gates = input.judged ?? (at === 'legacy' ? [] : judgeGates(plan, at, input.evidence, 'step', plan.minSamples, baseline));
  const base = { ...blank(operation, true, at, input), gates };
  const resume = `POST /admin/rollout/${operation}/resume`;
  switch (rollout.status) {
    case 'rolled-back':
      return { ...base, state: 'rolled-back', detail: rollout.reason, next: `Find why in the rollout history, fix it, then start again: ${resume}.` };
    case 'paused': {
      const pause = [...rollout.decisions].reverse().find((d) => d.kind === 'pause' || d.kind === 'gate-failed');
      const by = pause?.operator ?? (pause?.by === 'operator' ? 'an operator' : 'the controller');
      const reason = pause?.kind === 'gate-failed' ? pause.reason : (pause?.reason ?? rollout.reason);
      return { ...base, state: 'paused', pausedBy: { by, reason }, detail: `${reason.startsWith('paused') ? reason : `paused by ${by}: ${reason}`} (at ${positionLabel(at)})`, next: `When the cause is dealt with, go on at this step: ${resume}.` };
    }
    case 'waiting':
      return { ...base, state: 'collecting', detail: 'waits for the reads of its resource to finish their rollout', next: 'Nothing to do: it starts by itself once every read of its resource is at its last step.' };
    case 'running':
      break;
  }
  const hold = at === 'legacy' ? null : trailingHold(rollout.decisions, at);
  if (hold) {
    const failed = [...rollout.decisions].reverse().find((d) => d.kind === 'gate-failed')?.gates?.filter((g) => g.outcome === 'fail') ?? [];
    const why = failed.map(failedText).join('; ');
    return { ...base, state: 'held', hold, cause: causeOfHold(hold.gates), detail: `${holdText(hold)} at ${positionLabel(at)}${why ? `: ${why}` : ''}`, next: nextForHold(operation, hold.gates) };
  }
  if (at !== 'legacy' && percentOf(at) === 100) {
    const held = plan.hold ?? [];
    const detail = held.length > 0 ? `done except ${held.length} held client${held.length === 1 ? '' : 's'} (${held.join(', ')}): api2 answers every other client; the gates keep watching` : 'api2 answers every client (100 %); the gates keep watching';
    return { ...base, state: 'done', detail, next: `Nothing to do. To end the rollout for good: remove the plan and set routes.${operation}.mode to "api2".` };
  }
  const missing = missingSamples(gates, plan);
  const frozen = rollout.frozen ? `; frozen: ${rollout.frozen}` : '';
  const last = plan.steps[plan.steps.length - 1];
  const end = last !== undefined && percentOf(last) !== 100 && positionKey(last) === positionKey(at) ? '; the plan ends here (add 100 to its steps to finish)' : '';
  return {
    ...base,
    state: 'rolling-out',
    missing,
    detail: `at ${positionLabel(at)}${Object.keys(missing).length > 0 ? `, collecting: ${missingText(missing)}` : ''}${end}${frozen}`,
    next: rollout.frozen ? 'Bring the shared store (Redis) back: nothing moves while it is out.' : 'Nothing to do: it moves on by itself when its gates hold over the step.',
  };
}

/** Where an operation without a plan stands, as a step of its default plan. */
function positionOfMode(input: JudgementInput): Position {
  switch (input.mode) {
    case 'legacy': return 'legacy';
    case 'shadow': return 'shadow';
    case 'api2': return 100;
    case 'canary': return 1;
  }
}

function judgeWithoutPlan(input: JudgementInput): Judgement {
  const { operation } = input;
  const plan: RolloutPlan = input.plan ?? defaultPlan(input.write);
  const at = positionOfMode(input);
  const base = blank(operation, true, null, input);
  const planKey = `routes.${operation}.rollout`;
  if (at === 'legacy') {
    return input.write
      ? { ...base, state: 'no-evidence', detail: 'on legacy: a write is judged on api2 answers only', next: `Once its reads have moved, give it a rollout plan (${planKey}): it starts at a percentage step.` }
      : { ...base, state: 'no-evidence', detail: 'on legacy: nothing compares api2 with it yet', next: `Give it a rollout plan (${planKey}) or put it in shadow mode (routes.${operation}.mode: "shadow"): api2 is then compared with legacy.` };
  }
  const gates: GateResult[] = judgeGates(plan, at, input.evidence, 'step', plan.minSamples, undefined);
  const withGates = { ...base, gates };
  const failed = gates.filter((g) => g.outcome === 'fail');
  if (failed.length > 0) {
    const hold = { gates: [...new Set(failed.map((g) => g.gate))].sort(), since: null, evaluations: 0 };
    return { ...withGates, state: 'held', hold, cause: causeOfHold(hold.gates), detail: `${holdText(hold)} (default gates): ${failed.map(failedText).join('; ')}`, next: nextForHold(operation, hold.gates) };
  }
  if (gates.length > 0 && gates.every((g) => g.outcome === 'pass')) {
    return at === 100
      ? { ...withGates, state: 'done', detail: 'on api2 (configured), its default gates hold', next: 'Nothing to do.' }
      : { ...withGates, state: 'ready', detail: `in ${input.mode} mode, its default gates hold: ${gates.map(describeGate).join('; ')}`, next: `Start it: give it a rollout plan (${planKey}), which moves it to api2 step by step.` };
  }
  const missing = missingSamples(gates, plan);
  const seen = input.evidence.counts.shadow.compared + input.evidence.counts.api2.requests + input.evidence.counts.fallbacks;
  if (seen === 0) {
    return { ...withGates, state: 'no-evidence', missing, detail: `in ${input.mode} mode, nothing compared or answered by api2 yet in this config version`, next: 'Send it traffic (or wait for some): its gates need comparisons or api2 answers.' };
  }
  return { ...withGates, state: 'collecting', missing, detail: `in ${input.mode} mode, collecting: ${missingText(missing)}`, next: 'Nothing to do but wait for traffic: the default gates decide once they have their samples.' };
}
