/**
 * What an operator can do to a rollout now (the admin actions): pure functions of the state.
 *
 *   pause     hold where it is (the gates are no longer judged)
 *   resume    a paused rollout goes on at its step (which starts again: fresh evidence); a rolled-back
 *             one starts again at the plan's first step
 *   promote   the next step now, whatever the gates say (the operator's evidence)
 *   rollback  legacy now, until resumed
 */
import type { RolloutPlan } from '../../config/rollout.js';
import type { RolloutEvent, RolloutEventKind, RolloutState } from './state.js';
import { positionLabel, positionOf } from './steps.js';

export const ROLLOUT_ACTIONS = ['pause', 'resume', 'promote', 'rollback'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

export type ActionOutcome = { readonly ok: true; readonly state: RolloutState; readonly event: RolloutEvent } | { readonly ok: false; readonly error: string };

export function applyAction(state: RolloutState, plan: RolloutPlan, action: RolloutAction, now: number): ActionOutcome {
  const done = (next: RolloutState, kind: RolloutEventKind): ActionOutcome => ({
    ok: true,
    state: next,
    event: { time: new Date(now).toISOString(), operation: state.operation, kind, from: state.at, to: next.at, status: next.status, by: 'operator', reason: next.reason },
  });
  switch (action) {
    case 'pause':
      if (state.status === 'paused') return { ok: false, error: 'is already paused' };
      if (state.status === 'rolled-back') return { ok: false, error: 'is rolled back to legacy; resume starts it again' };
      return done({ ...state, status: 'paused', since: now, reason: 'paused by an operator' }, 'pause');
    case 'resume':
      if (state.status === 'running') return { ok: false, error: 'is running' };
      if (state.status === 'waiting') return { ok: false, error: 'is waiting for the reads of its resource; it starts by itself' };
      if (state.status === 'rolled-back') return done({ ...state, step: 0, at: positionOf(plan, 0), status: 'running', since: now, reason: 'resumed by an operator: the plan starts again' }, 'resume');
      return done({ ...state, status: 'running', since: now, reason: `resumed by an operator at ${positionLabel(state.at)}` }, 'resume');
    case 'promote': {
      if (state.step >= plan.steps.length - 1) return { ok: false, error: `is at the plan's last step (${positionLabel(state.at)})` };
      const step = state.step + 1;
      return done({ ...state, step, at: positionOf(plan, step), status: 'running', since: now, reason: 'promoted by an operator' }, 'promote');
    }
    case 'rollback':
      if (state.at === 'legacy' && state.status !== 'waiting') return { ok: false, error: 'is on legacy already' };
      return done({ ...state, step: -1, at: 'legacy', status: 'rolled-back', since: now, reason: 'rolled back by an operator' }, 'rollback');
  }
}
