/**
 * The one judgement of an operation (docs/rollout.md "One state per operation"): its inputs and
 * its answer. Every view (the console, /admin/rollout, /admin/traffic, the metrics, the report)
 * shows the `Judgement` judge.ts gives; none decides a state of its own.
 */
import type { RolloutPlan } from '../../config/rollout.js';
import type { RouteMode } from '../../config/schema.js';
import type { WindowEvidence } from '../rollout/gates.js';
import type { GateResult, Position } from '../rollout/state.js';

/** In the order the headline counts them. */
export const OPERATION_STATES = ['done', 'rolling-out', 'held', 'paused', 'rolled-back', 'ready', 'collecting', 'no-evidence', 'cannot-move'] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

/** A rollout decision as the views and the report read it (a runner's RolloutEvent or a usage-log rollout line). */
export interface DecisionLike {
  readonly time: string;
  readonly kind: string;
  readonly from: Position;
  readonly to: Position;
  readonly status: string;
  /** controller, operator or config. */
  readonly by: string;
  /** The operator's name, for an operator's action that gave one. */
  readonly operator?: string | undefined;
  readonly reason: string;
  readonly gates?: readonly GateResult[] | undefined;
  /** A repeated identical failure kept as one decision (rollout/repeats.ts): its evaluations and the first one's time. */
  readonly count?: number | undefined;
  readonly since?: string | undefined;
}

/** A running rollout's facts: its stored state and its decisions (this operation's, oldest first). */
export interface RolloutFacts {
  readonly at: Position;
  readonly status: 'waiting' | 'running' | 'paused' | 'rolled-back';
  readonly reason: string;
  /** Why nothing moves now (the store or the fleet's counters are out), or null. */
  readonly frozen: string | null;
  readonly decisions: readonly DecisionLike[];
}

export interface JudgementInput {
  readonly operation: string;
  /** The route's mode in force (a rollout's step, else the configured mode). */
  readonly mode: RouteMode;
  /** A write (never shadowed). */
  readonly write: boolean;
  /** The route's plan, when it has one. */
  readonly plan: RolloutPlan | undefined;
  /** The rollout's state and decisions, when a plan runs. */
  readonly rollout: RolloutFacts | undefined;
  /** The evidence of the config version (and, for a rollout, the step) in force. */
  readonly evidence: WindowEvidence;
  /** Legacy's last baseline measured with enough samples before this step (the rollout state's), for steps where legacy answers too few. */
  readonly baseline?: { readonly errorRate: number; readonly p95Ms: number | null } | undefined;
  /** The rollout's last gate evaluation, when a runner judged one (else the gates are judged here on `evidence`). */
  readonly judged?: readonly GateResult[] | undefined;
}

/** Held by a gate: which gates, since when, how many evaluations in a row. */
export interface Hold {
  readonly gates: readonly string[];
  /** ISO time of the first failure of the run; null when no rollout judged it (an operation without a plan). */
  readonly since: string | null;
  readonly evaluations: number;
}

export interface Judgement {
  readonly operation: string;
  readonly state: OperationState;
  /** The state in a few words: why it cannot move, what is missing, which gate holds it, who paused it. */
  readonly detail: string;
  /** One sentence: what the owner does next. */
  readonly next: string;
  readonly canMove: boolean;
  /** The step in force, for a rollout (`shadow`, a percent, `legacy`); null without one. */
  readonly step: Position | null;
  readonly hold: Hold | null;
  /** For `paused`: who (an operator's name, `an operator`, or `the controller`) and why. */
  readonly pausedBy: { readonly by: string; readonly reason: string } | null;
  /** Roughly how many more samples each gate short of them needs (`shadowAgreement: 40`). */
  readonly missing: Readonly<Record<string, number>>;
  /** The gates the state was judged on (the runner's last evaluation, or judged here). */
  readonly gates: readonly GateResult[];
  /** Races in the evidence in force: comparisons a write of their scope overlapped, left out of the agreement gate (docs/rollout.md "Races"). */
  readonly races: number;
  /** Comparisons in the evidence in force whose api2 call failed (5xx, timeout, refused): left out of agreement, against api2's availability. */
  readonly api2Failures: number;
  /**
   * For `held`: what holds it. api2-unavailable: api2's error rate (an outage, named in `detail`
   * with its figures; it moves on when api2 recovers); mapping: answers differ; other: latency,
   * the breaker. null in every other state.
   */
  readonly cause: 'api2-unavailable' | 'mapping' | 'other' | null;
}
