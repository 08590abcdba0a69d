/**
 * The rollout state of one operation and the events that move it. Plain JSON: it is kept in
 * memory, in a state file or in Redis as it is, and shown as it is by the admin view.
 */
import type { OperationId } from '../../catalogue/operations.js';
import type { RolloutStep } from '../../config/rollout.js';

/**
 * waiting: a write waiting for the reads of its resource to finish theirs (on legacy);
 * running: gates judged every evaluation; paused: held where it is (an operator, or a failed gate
 * with `onFailure: pause`) until resumed; rolled-back: on legacy after a failed gate or an
 * operator's roll back, until resumed (which starts at the first step again).
 */
export type RolloutStatus = 'waiting' | 'running' | 'paused' | 'rolled-back';

/** Where a route is: a step of its plan, or `legacy` (before its first step, or sent back). */
export type Position = RolloutStep | 'legacy';

export interface RolloutState {
  readonly operation: OperationId;
  /** Index of the step in the plan; -1 on legacy. */
  readonly step: number;
  /** The step itself: every replica applies this exposure, even one that still runs an older plan. */
  readonly at: Position;
  readonly status: RolloutStatus;
  /** Epoch ms the step (or the status) began: evidence counts from here. */
  readonly since: number;
  /** The plan the state was decided under (planHash): a changed plan is noticed by it. */
  readonly plan: string;
  /** Why the state is what it is, in a few words. */
  readonly reason: string;
  /** Legacy's error rate and p95 when last measured with enough samples, for steps where legacy answers too few. */
  readonly baseline?: { readonly errorRate: number; readonly p95Ms: number | null };
  /** Epoch ms this rollout's first state was made: of two states of one plan, the older rollout is the one to keep (a restore). */
  readonly born: number;
  /** +1 at each move that takes clients off api2: the api2 pages' key carries it, so none outlives the move. */
  readonly pageEpoch: number;
}

/** One gate's judgement, with the numbers that decided it. */
export interface GateResult {
  readonly gate: 'shadowAgreement' | 'errorRate' | 'latencyP95' | 'breaker';
  /** step: since the step began; recent: the last evaluation period. */
  readonly window: 'step' | 'recent';
  readonly outcome: 'pass' | 'fail' | 'inconclusive';
  readonly measured: number | null;
  readonly bound: number | null;
  readonly samples: number;
}

/**
 * restored: the shared store had lost the state (Redis restarted empty, or evicted the key) and a
 * replica put back the one it last read; holds-nobody: a percentage step none of the clients seen
 * in it falls in (it cannot gather api2 evidence).
 */
export type RolloutEventKind = 'start' | 'promote' | 'gate-failed' | 'rollback' | 'pause' | 'resume' | 'plan-changed' | 'plan-removed' | 'frozen' | 'unfrozen' | 'restored' | 'holds-nobody';

export interface RolloutEvent {
  readonly time: string;
  readonly operation: OperationId;
  readonly kind: RolloutEventKind;
  readonly from: Position;
  readonly to: Position;
  readonly status: RolloutStatus;
  /** The controller, an operator (admin action) or the config (a changed plan). */
  readonly by: 'controller' | 'operator' | 'config';
  readonly reason: string;
  /** The gates judged at this decision (the evidence). */
  readonly gates?: readonly GateResult[];
  /** The counts the gates were judged on. */
  readonly evidence?: Readonly<Record<string, number | null>>;
}
