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

/** Who acts and why, as the operator gave them (POST /admin/rollout/<op>/<action> `by`, `reason`). */
export interface Actor {
  readonly by?: string | undefined;
  readonly reason?: string | undefined;
}

/** `paused by alice: the partner's release is late`, or `paused by an operator` without a name or reason. */
function said(verb: string, actor: Actor): string {
  return `${verb} by ${actor.by ?? 'an operator'}${actor.reason ? `: ${actor.reason}` : ''}`;
}

export type ActionOutcome = { readonly ok: true; readonly state: RolloutState; readonly event: RolloutEvent } | { readonly ok: false; readonly error: string };

export function applyAction(state: RolloutState, plan: RolloutPlan, action: RolloutAction, now: number, actor: Actor = {}): ActionOutcome {
  const done = (next: RolloutState, kind: RolloutEventKind): ActionOutcome => ({
    ok: true,
    state: next,
    event: { time: new Date(now).toISOString(), operation: state.operation, kind, from: state.at, to: next.at, status: next.status, stepSince: next.since, by: 'operator', ...(actor.by ? { operator: actor.by } : {}), reason: next.reason },
  });
  switch (action) {
    case 'pause':
      if (state.status === 'paused') return { ok: false, error: 'is already paused' };
      if (state.status === 'rolled-back') return { ok: false, error: 'is rolled back to legacy; resume starts it again' };
      return done({ ...state, status: 'paused', since: now, reason: said('paused', actor) }, 'pause');
    case 'resume':
      if (state.status === 'running') return { ok: false, error: 'is running' };
      if (state.status === 'waiting') return { ok: false, error: 'is waiting for the reads of its resource; it starts by itself' };
      if (state.status === 'rolled-back') return done({ ...state, step: 0, at: positionOf(plan, 0), status: 'running', since: now, reason: `${said('resumed', actor)} (the plan starts again)` }, 'resume');
      return done({ ...state, status: 'running', since: now, reason: `${said('resumed', actor)} (at ${positionLabel(state.at)})` }, 'resume');
    case 'promote': {
      if (state.step >= plan.steps.length - 1) return { ok: false, error: `is at the plan's last step (${positionLabel(state.at)})` };
      const step = state.step + 1;
      return done({ ...state, step, at: positionOf(plan, step), status: 'running', since: now, reason: said('promoted', actor) }, 'promote');
    }
    case 'rollback':
      if (state.at === 'legacy' && state.status !== 'waiting') return { ok: false, error: 'is on legacy already' };
      return done({ ...state, step: -1, at: 'legacy', status: 'rolled-back', since: now, reason: said('rolled back', actor) }, 'rollback');
  }
}
