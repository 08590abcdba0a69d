/**
 * The one readiness model: can this operation move to api2? The report (usage-log files or
 * ClickHouse) and the live console (src/migration/live-counters.ts) each gather the same
 * evidence per operation and ask `judge`, so the same traffic gets the same verdict.
 *
 * - `cannot-move`: no api2 mapping (a legacy-only operation, with the catalogue's reason,
 *   src/catalogue/movability.ts; an uncatalogued call). No evidence can change that.
 * - `ready` when none of the following holds, else `not-ready` with every reason that holds:
 *   - no traffic in api2 mode yet, or too little to judge (`minApi2Requests`), unless there are
 *     enough shadow comparisons (`minShadowComparisons`): in shadow mode legacy answers every
 *     request and api2 is only compared, so the comparisons are its api2 evidence;
 *   - 5xx rate in api2 mode above legacy's (+ `errorMargin`), or above `maxErrorRateWithoutBaseline`
 *     with no legacy traffic to compare with;
 *   - 4xx rate in api2 mode (a 409 not-mappable refusal included) above legacy's
 *     (+ `clientErrorMargin`);
 *   - p95 in api2 mode above `latencyFactor` × legacy's (both from the fixed latency buckets,
 *     src/migration/latency-buckets.ts);
 *   - shadow comparisons seen but fewer compared than `minShadowComparisons`; or enough and an
 *     agreement below `minAgreement`, naming the fields that differed most;
 *   - fallbacks (api2 failed, legacy answered);
 *   - the api2 circuit breaker opened while the operation had api2 traffic or fallbacks.
 *
 * Clients on malformed forms, version prefixes or plain http do not hold the verdict: the gateway
 * answers them in api2 mode as in legacy mode. They are listed per client (src/migration/blockers.ts).
 */
import { OPERATION_IDS } from '../catalogue/operations.js';
import type { ShadowCounts, SideCounts } from './live-tally.js';
import { movability } from '../catalogue/movability.js';
import type { Movability } from '../catalogue/movability.js';

export interface Thresholds {
  /** Requests in api2 mode needed before an operation can be judged ready. */
  readonly minApi2Requests: number;
  /** api2 may exceed the legacy 5xx rate by this much (a fraction, 0.001 = 0.1 point). */
  readonly errorMargin: number;
  /** DECISION: api2 may exceed the legacy 4xx rate by 1 point (0.01) before an operation is held back (a 409 not-mappable refusal is a 4xx). */
  readonly clientErrorMargin: number;
  /** 5xx rate allowed in api2 mode when there is no legacy traffic to compare with. */
  readonly maxErrorRateWithoutBaseline: number;
  /** api2 p95 latency may be at most this many times the legacy p95. */
  readonly latencyFactor: number;
  /** Shadow agreement (agreed / compared) needed, a fraction. */
  readonly minAgreement: number;
  /** Shadow comparisons needed before the agreement is judged. */
  readonly minShadowComparisons: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  minApi2Requests: 100,
  errorMargin: 0,
  clientErrorMargin: 0.01,
  maxErrorRateWithoutBaseline: 0.01,
  latencyFactor: 2,
  minAgreement: 0.99,
  minShadowComparisons: 50,
};

export interface PathCount {
  readonly path: string;
  readonly count: number;
}

/** What one operation did over a period, per side: the verdict's only input. */
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

export type VerdictKind = 'ready' | 'not-ready' | 'cannot-move';

export interface Verdict {
  readonly operation: string;
  readonly verdict: VerdictKind;
  /** False for a legacy-only operation or an uncatalogued call. */
  readonly canMove: boolean;
  readonly cannotMoveReason: string | null;
  /** Why not ready (or the reason it cannot move); empty when ready. */
  readonly reasons: readonly string[];
}

/** Differing fields named in the agreement reason. */
const FIELDS_IN_REASON = 3;

export const EMPTY_SIDE: SideCounts = { requests: 0, status4xx: 0, status5xx: 0, p50Ms: null, p95Ms: null };

/** Evidence of an operation nothing was seen of. */
export function noEvidence(operation: string, breakerOpens: number | null): Evidence {
  return { operation, legacy: EMPTY_SIDE, api2: EMPTY_SIDE, fallbacks: 0, shadow: { compared: 0, agreed: 0, differed: 0, skipped: 0 }, breakerOpens };
}

export function judge(evidence: Evidence, thresholds: Thresholds): Verdict {
  const { operation } = evidence;
  const move: Movability = operation === 'uncatalogued' ? { canMove: false, reason: 'uncatalogued calls have no api2 mapping' } : movability(operation);
  if (!move.canMove) return { operation, verdict: 'cannot-move', canMove: false, cannotMoveReason: move.reason, reasons: [move.reason] };

  const reasons: string[] = [];
  const { legacy, api2, shadow } = evidence;
  const shadowed = shadow.compared + shadow.skipped > 0;
  const enoughShadow = shadow.compared > 0 && shadow.compared >= thresholds.minShadowComparisons;
  if (api2.requests === 0) {
    if (!enoughShadow) reasons.push('no traffic in api2 mode yet');
  } else if (api2.requests < thresholds.minApi2Requests) {
    if (!enoughShadow) reasons.push(`only ${api2.requests} requests in api2 mode (at least ${thresholds.minApi2Requests} needed to judge)`);
  } else {
    reasons.push(...sideReasons(legacy, api2, thresholds));
  }
  if (shadowed) {
    if (!enoughShadow) reasons.push(`too few shadow comparisons (${shadow.compared})`);
    else if (shadow.agreed / shadow.compared < thresholds.minAgreement) reasons.push(agreementReason(evidence, thresholds));
  }
  if (evidence.fallbacks > 0) reasons.push(`${plural(evidence.fallbacks, 'fallback')} to legacy`);
  const opens = evidence.breakerOpens ?? 0;
  if (opens > 0 && (api2.requests > 0 || evidence.fallbacks > 0)) reasons.push(`api2 circuit breaker opened ${plural(opens, 'time')}`);
  return { operation, verdict: reasons.length === 0 ? 'ready' : 'not-ready', canMove: true, cannotMoveReason: null, reasons };
}

function sideReasons(legacy: SideCounts, api2: SideCounts, thresholds: Thresholds): string[] {
  const reasons: string[] = [];
  const api2Rate = api2.status5xx / api2.requests;
  if (legacy.requests === 0) {
    if (api2Rate > thresholds.maxErrorRateWithoutBaseline) {
      reasons.push(`error rate in api2 mode (${percent(api2Rate)}) above ${percent(thresholds.maxErrorRateWithoutBaseline)}, with no legacy traffic to compare`);
    }
    return reasons;
  }
  const legacyRate = legacy.status5xx / legacy.requests;
  if (api2Rate > legacyRate + thresholds.errorMargin) reasons.push(`error rate in api2 mode (${percent(api2Rate)}) above legacy (${percent(legacyRate)})`);
  const api2Client = api2.status4xx / api2.requests;
  const legacyClient = legacy.status4xx / legacy.requests;
  if (api2Client > legacyClient + thresholds.clientErrorMargin) {
    reasons.push(`4xx rate in api2 mode (${percent(api2Client)}) above legacy (${percent(legacyClient)})`);
  }
  if (api2.p95Ms !== null && legacy.p95Ms !== null && api2.p95Ms > legacy.p95Ms * thresholds.latencyFactor) {
    reasons.push(`p95 latency in api2 mode (≤${api2.p95Ms} ms) above ${thresholds.latencyFactor}× legacy (≤${legacy.p95Ms} ms)`);
  }
  return reasons;
}

/** `shadow agreement 97% below 99%: 3 of 100 comparisons differ, most on Results[].Title (3)`. */
function agreementReason(evidence: Evidence, thresholds: Thresholds): string {
  const { differed, agreed, compared } = evidence.shadow;
  const fields = (evidence.shadow.fields ?? []).slice(0, FIELDS_IN_REASON).map(({ path, count }) => `${path} (${count})`);
  return (
    `shadow agreement ${percentDown(agreed / compared)} below ${percent(thresholds.minAgreement)}: ` +
    `${differed} of ${compared} comparisons differ` +
    (fields.length > 0 ? `, most on ${fields.join(', ')}` : '')
  );
}

/**
 * The verdict of every catalogued operation (those without evidence judged on none) and of the
 * uncatalogued calls when there were any, in catalogue order.
 */
export function judgeAll(evidence: ReadonlyMap<string, Evidence>, thresholds: Thresholds, breakerOpens: number | null): Verdict[] {
  const ids: string[] = [...OPERATION_IDS];
  if (evidence.has('uncatalogued')) ids.push('uncatalogued');
  return ids.map((id) => judge(evidence.get(id) ?? noEvidence(id, breakerOpens), thresholds));
}

/** `3 of 16 operations ready to move; 4 cannot move: favorites.create, … (api2 publishes no endpoint …)`. */
export function headline(verdicts: readonly Verdict[]): string {
  const catalogued = verdicts.filter((v) => v.operation !== 'uncatalogued');
  const ready = catalogued.filter((v) => v.verdict === 'ready').length;
  const blocked = catalogued.filter((v) => v.verdict === 'cannot-move');
  const byReason = new Map<string, string[]>();
  for (const v of blocked) {
    const reason = v.cannotMoveReason ?? 'no api2 mapping';
    byReason.set(reason, [...(byReason.get(reason) ?? []), v.operation]);
  }
  const why = [...byReason].map(([reason, ops]) => `${ops.join(', ')} (${reason})`).join('; ');
  return `${ready} of ${catalogued.length} operations ready to move` + (blocked.length > 0 ? `; ${blocked.length} cannot move: ${why}` : '');
}

export function percent(fraction: number): string {
  return `${(Math.round(fraction * 10_000) / 100).toString()}%`;
}

/** Rounded down, so a rate below a threshold never prints as the threshold (98.999% → 98.99%). */
function percentDown(fraction: number): string {
  return `${(Math.floor(fraction * 10_000 + 1e-9) / 100).toString()}%`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
