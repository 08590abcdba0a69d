/**
 * An operation's way as a step bar (shadow · 20 · 50 · 100, or its plan's steps): where it is,
 * where it has been, and a step back drawn apart from a step forward. From the rollout runner's
 * view and its recent decisions; an operation without a plan is placed on its default plan's
 * steps by the route's mode in force. Pure.
 */
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { RouteMode } from '../config/schema.js';
import type { DecisionLike } from '../migration/judgement/types.js';
import type { Position } from '../migration/rollout/state.js';
import { exposureRank, positionKey } from '../migration/rollout/steps.js';

export interface Way {
  readonly steps: readonly Position[];
  /** Where it is now (`legacy` before its first step or sent back). */
  readonly at: Position;
  /** The highest exposure reached in the decisions known (at least where it is). */
  readonly reachedRank: number;
  /** The last move took clients off api2 (a step back or a roll back), and none went forward since. */
  readonly back: boolean;
  /** Whether a running plan places it (false: the default plan's steps, by the mode in force). */
  readonly planned: boolean;
}

/**
 * A way from a plan's steps, where it is and its decisions (oldest first). A position that is not
 * one of the steps (a route set by hand at 50 % drawn on a default plan without 50, a step of a
 * plan since changed) is drawn in its place among them: a bar always shows where it is.
 */
export function wayOf(planSteps: readonly Position[], at: Position, decisions: readonly DecisionLike[], planned = true): Way {
  const known = at === 'legacy' || planSteps.some((step) => positionKey(step) === positionKey(at));
  const steps = known ? planSteps : [...planSteps, at].sort((a, b) => exposureRank(a) - exposureRank(b));
  let reachedRank = exposureRank(at);
  let back = false;
  for (const d of decisions) {
    if (d.kind === 'gate-failed' || positionKey(d.from) === positionKey(d.to)) continue;
    reachedRank = Math.max(reachedRank, exposureRank(d.from), exposureRank(d.to));
    back = exposureRank(d.to) < exposureRank(d.from);
  }
  return { steps, at, reachedRank, back, planned };
}

/** Where a route without a plan stands on its default plan's steps, by its mode in force. */
export function positionOfMode(mode: RouteMode, canaryPercent: number | null): Position {
  if (mode === 'legacy' || mode === 'shadow') return mode;
  return mode === 'api2' ? 100 : (canaryPercent ?? 1);
}

const stepText = (at: Position): string => (typeof at === 'number' ? String(at) : positionKey(at));

/**
 * `<ol class="way">` of the steps, each `data-step` with `data-where`: `here` (where it is),
 * `been` (reached before, now above it), `ahead`; a way stepped back has `data-back`.
 */
export function stepBarHtml(way: Way): Html {
  const here = positionKey(way.at);
  const items = way.steps.map((step) => {
    const key = positionKey(step);
    const where = key === here ? 'here' : exposureRank(step) <= way.reachedRank ? 'been' : 'ahead';
    return html`<li data-step="${key}" data-where="${where}" title="${where === 'here' ? 'here now' : where === 'been' ? 'reached before' : 'not reached yet'}">${stepText(step)}</li>`;
  });
  const legacy = way.at === 'legacy' ? html`<li data-step="legacy" data-where="here" title="here now">legacy</li>` : '';
  return html`<ol class="way${way.back ? ' back' : ''}${way.planned ? '' : ' unplanned'}" data-field="step" data-value="${here}" data-back="${String(way.back)}">${legacy}${items}</ol>`;
}
