/**
 * The one judgement (src/migration/judgement/), a pure function: per operation one state and one
 * next action from its movability, mode in force, rollout state and decisions, and evidence; the
 * gates are the rollout's (an operation without a plan by its default plan's); consecutive
 * identical gate failures are one held entry; the headline counts the states.
 */
import { describe, expect, it } from 'vitest';
import { collapseHistory } from '../src/migration/judgement/history.js';
import { headline } from '../src/migration/judgement/headline.js';
import { judgeOperation } from '../src/migration/judgement/judge.js';
import type { DecisionLike, JudgementInput } from '../src/migration/judgement/types.js';
import type { WindowEvidence } from '../src/migration/rollout/gates.js';
import type { Position } from '../src/migration/rollout/state.js';

const side = (requests: number, status5xx = 0, p95Ms: number | null = requests ? 10 : null) => ({ requests, status5xx, p95Ms });
const evidence = (e: Partial<{ legacy: number; api2: number; api2Errors: number; compared: number; agreed: number; opens: number }> = {}): WindowEvidence => ({
  counts: { legacy: side(e.legacy ?? 0), api2: side(e.api2 ?? 0, e.api2Errors ?? 0), fallbacks: 0, shadow: { compared: e.compared ?? 0, agreed: e.agreed ?? e.compared ?? 0 } },
  api2BreakerOpens: e.opens ?? 0,
});
const input = (over: Partial<JudgementInput>): JudgementInput => ({ operation: 'recipes.search', mode: 'legacy', write: false, plan: undefined, rollout: undefined, evidence: evidence(), ...over });
const failed = (time: string, from: Position = 'shadow', to: Position = from): DecisionLike & { operation: string } => ({
  time,
  operation: 'recipes.search',
  kind: 'gate-failed',
  from,
  to,
  status: 'running',
  by: 'controller',
  reason: 'shadowAgreement 0.800 < 0.990 (step, 100 samples) → back-one-step',
  gates: [{ gate: 'shadowAgreement', window: 'step', outcome: 'fail', measured: 0.8, bound: 0.99, samples: 100 }],
});

describe('the one judgement', () => {
  it('says a legacy-only operation cannot move, whatever its evidence', () => {
    const j = judgeOperation(input({ operation: 'favorites.create', write: true, mode: 'legacy', evidence: evidence({ legacy: 500 }) }));
    expect(j).toMatchObject({ state: 'cannot-move', canMove: false });
    expect(j.detail).toMatch(/api2 publishes no endpoint/);
  });

  it('judges an operation without a plan by its default plan: no evidence, collecting (how many more), ready, held, done', () => {
    expect(judgeOperation(input({ mode: 'legacy' })).state).toBe('no-evidence');
    expect(judgeOperation(input({ mode: 'shadow' })).state).toBe('no-evidence');
    const collecting = judgeOperation(input({ mode: 'shadow', evidence: evidence({ compared: 30 }) }));
    expect(collecting.state).toBe('collecting');
    expect(collecting.missing['shadowAgreement']).toBeGreaterThan(0);
    expect(collecting.detail).toContain(`about ${collecting.missing['shadowAgreement']} more comparisons`);
    expect(judgeOperation(input({ mode: 'shadow', evidence: evidence({ compared: 400 }) })).state).toBe('ready');
    expect(judgeOperation(input({ mode: 'shadow', evidence: evidence({ compared: 100, agreed: 90 }) }))).toMatchObject({ state: 'held', hold: { gates: ['shadowAgreement'], since: null } });
    expect(judgeOperation(input({ mode: 'api2', evidence: evidence({ api2: 500 }) })).state).toBe('done');
    expect(judgeOperation(input({ mode: 'api2', evidence: evidence({ api2: 250, api2Errors: 20 }) }))).toMatchObject({ state: 'held', hold: { gates: ['errorRate'] } });
  });

  it('takes a rollout’s state: rolling out at its step, held since the first of identical failures, paused by whom and why, rolled back, done at 100 %', () => {
    const running = (at: JudgementInput['rollout'] extends infer R ? (R extends { at: infer P } ? P : never) : never, decisions: DecisionLike[] = [], status: 'running' | 'paused' | 'rolled-back' | 'waiting' = 'running', reason = '') =>
      input({ mode: 'shadow', rollout: { at, status, reason, frozen: null, decisions } });
    expect(judgeOperation(running('shadow'))).toMatchObject({ state: 'rolling-out', step: 'shadow' });
    const held = judgeOperation(running('shadow', [failed('2026-01-05T10:00:00.000Z'), failed('2026-01-05T10:00:10.000Z'), failed('2026-01-05T10:00:20.000Z')]));
    expect(held).toMatchObject({ state: 'held', hold: { gates: ['shadowAgreement'], since: '2026-01-05T10:00:00.000Z', evaluations: 3 } });
    expect(held.detail).toContain('held since 2026-01-05T10:00:00.000Z by shadowAgreement (3 evaluations)');
    // A failure that moved the route is a move, not a hold.
    expect(judgeOperation(running('shadow', [failed('2026-01-05T10:00:00.000Z', 5, 'shadow')])).state).toBe('rolling-out');
    const pause: DecisionLike = { time: 't', kind: 'pause', from: 5, to: 5, status: 'paused', by: 'operator', operator: 'alice', reason: 'paused by alice: waiting for the partner release' };
    expect(judgeOperation(running(5, [pause], 'paused', 'paused by an operator'))).toMatchObject({ state: 'paused', pausedBy: { by: 'alice', reason: 'paused by alice: waiting for the partner release' } });
    expect(judgeOperation(running('legacy', [], 'rolled-back', 'rolled back to legacy: errorRate 0.2 > 0.01'))).toMatchObject({ state: 'rolled-back', detail: 'rolled back to legacy: errorRate 0.2 > 0.01' });
    expect(judgeOperation(running(100)).state).toBe('done');
    expect(judgeOperation(running('legacy', [], 'waiting')).state).toBe('collecting');
  });

  it('collapses consecutive identical gate failures into one entry, and starts a new one after another decision', () => {
    const promote: DecisionLike & { operation: string } = { time: '2026-01-05T10:01:00.000Z', operation: 'recipes.search', kind: 'promote', from: 'shadow', to: 5, status: 'running', by: 'controller', reason: 'gates held' };
    const entries = collapseHistory([failed('2026-01-05T10:00:00.000Z'), failed('2026-01-05T10:00:10.000Z'), failed('2026-01-05T10:00:20.000Z'), promote, failed('2026-01-05T10:02:00.000Z', 5)]);
    expect(entries.map((e) => (e.kind === 'held' ? `held ${e.at} ${e.evaluations} since ${e.since}` : e.decision.kind))).toEqual([
      'held shadow 3 since 2026-01-05T10:00:00.000Z',
      'promote',
      'held 5 1 since 2026-01-05T10:02:00.000Z',
    ]);
  });

  it('counts the states in the headline', () => {
    const judgements = [judgeOperation(input({ operation: 'favorites.create', write: true })), judgeOperation(input({ mode: 'api2', evidence: evidence({ api2: 500 }) })), judgeOperation(input({ operation: 'grocery.list' }))];
    expect(headline(judgements)).toBe('3 operations: 1 done, 1 no evidence yet, 1 cannot move');
  });
});
