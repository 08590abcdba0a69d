/**
 * The evidence of one operation, per side, as the report (usage-log files or ClickHouse) and the
 * live console (src/migration/live-counters.ts) gather it alike, and what the gates read of it.
 * The state judged on it is the one judgement's (src/migration/judgement/judge.ts, through the
 * rollout gates: src/migration/rollout/gates.ts); there is no other readiness rule.
 */
import type { ShadowCounts, SideCounts } from './live-tally.js';
import type { WindowEvidence } from './rollout/gates.js';

export interface PathCount {
  readonly path: string;
  readonly count: number;
}

/** What one operation did over a period, per side. */
export interface Evidence {
  readonly operation: string;
  readonly legacy: SideCounts;
  readonly api2: SideCounts;
  /** api2 failed, legacy answered. */
  readonly fallbacks: number;
  /** `fields`: the paths blamed on the mapping, most first (when the source knows them). */
  readonly shadow: ShadowCounts & { readonly fields?: readonly PathCount[] };
  /** api2 circuit breaker opens in the period (all operations share the breaker); null: the source does not know. */
  readonly breakerOpens: number | null;
}

export const EMPTY_SIDE: SideCounts = { requests: 0, status4xx: 0, status5xx: 0, p50Ms: null, p95Ms: null };

/** Evidence of an operation nothing was seen of. */
export function noEvidence(operation: string, breakerOpens: number | null): Evidence {
  return { operation, legacy: EMPTY_SIDE, api2: EMPTY_SIDE, fallbacks: 0, shadow: { compared: 0, agreed: 0, differed: 0, raced: 0, unavailable: 0, skipped: 0 }, breakerOpens };
}

/** The part of the evidence the gates judge. */
export function gateEvidence(evidence: Evidence): WindowEvidence {
  return { counts: { legacy: evidence.legacy, api2: evidence.api2, fallbacks: evidence.fallbacks, shadow: evidence.shadow }, api2BreakerOpens: evidence.breakerOpens ?? 0 };
}
