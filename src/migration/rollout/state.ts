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

/**
 * One gate's judgement, with the numbers that decided it (docs/rollout.md "Gates, evidence,
 * decisions"). `measured` is the point value: the disagreement rate (shadowAgreement), api2's error
 * rate above legacy's (errorRate), api2's p95 (latencyP95), breaker opens; `bound` is what the gate
 * holds it to. The details are on every gate judged since the anytime-valid bounds; gates of older
 * events (stored, or in older log lines) have the first six fields only.
 */
export interface GateResult extends Partial<GateDetails> {
  readonly gate: 'shadowAgreement' | 'errorRate' | 'latencyP95' | 'breaker';
  /** step: since the step began; recent: the last evaluation period. */
  readonly window: 'step' | 'recent';
  /** pass: within the bound (with the confidence, where there is one); fail: beyond it; inconclusive: keep collecting. */
  readonly outcome: 'pass' | 'fail' | 'inconclusive';
  readonly measured: number | null;
  readonly bound: number | null;
  /** n: comparisons (shadowAgreement), api2 answers and fallbacks (errorRate), api2's timed answers (latencyP95). */
  readonly samples: number;
}

/** How a gate decided: an anytime-valid bound (sequential-bounds.ts), a point value over a least count, a count of events. */
export type GateMethod = 'anytime-bound' | 'point' | 'count';

export interface GateDetails {
  readonly method: GateMethod;
  /** k: the samples against api2 (disagreements, api2 5xx + fallbacks, breaker opens); null for latency. */
  readonly adverse: number | null;
  /** The anytime-valid bounds on `measured` (null for a point or count gate): pass when upper < bound, fail when lower > bound. */
  readonly lower: number | null;
  readonly upper: number | null;
  /** The confidence of lower and upper (null for a point or count gate). */
  readonly confidence: number | null;
  /** The least samples this window needs before the gate can pass (minComparisons, minSamples, minAnswers, failSamples). */
  readonly needed: number;
  /** About how many more samples, all clean, would pass it (0: passes now; null: not a question of samples). */
  readonly toPass: number | null;
  /** errorRate: legacy's own answers and 5xx it was compared with (samples 0: the stored baseline's rate). */
  readonly reference: { readonly samples: number; readonly adverse: number; readonly rate: number } | null;
  /** shadowAgreement: comparisons left out of `samples` and `adverse` because a write of their scope overlapped them (docs/rollout.md "Races"). */
  readonly races?: number;
}

/** A gate judged now: every detail present. */
export type JudgedGate = GateResult & GateDetails;

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
  /** The operator's name, when the action gave one (`by` in the admin action's body or query). */
  readonly operator?: string;
  readonly reason: string;
  /** The gates judged at this decision (the evidence). */
  readonly gates?: readonly GateResult[];
  /** The counts the gates were judged on. */
  readonly evidence?: Readonly<Record<string, number | null>>;
  /** When the step the route is at after this decision began (the state's `since`): the report judges that step's lines alone, none yet after a move. */
  readonly stepSince?: number;
  /** A repeated identical failure (repeats.ts): the evaluations it stands for (absent: one), the first one's time and the latest's (`time` too). */
  readonly count?: number;
  readonly since?: string;
  readonly last?: string;
}
