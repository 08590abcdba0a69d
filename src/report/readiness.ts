/**
 * Can this operation move to api2? `ready` when nothing below holds, else `not-ready` with every
 * reason that holds:
 *
 * - no traffic in api2 mode yet, or too little to judge (`minApi2Requests`), unless the operation
 *   has enough shadow comparisons (`minShadowComparisons`): in shadow mode legacy answers every
 *   request and api2 is only compared, so the comparisons are its api2 evidence;
 * - error rate (5xx) in api2 mode above legacy (+ `errorMargin`), or above
 *   `maxErrorRateWithoutBaseline` when there is no legacy traffic to compare with;
 * - p95 latency in api2 mode above `latencyFactor` × legacy;
 * - shadow comparisons in the log (compared or skipped) but fewer compared than
 *   `minShadowComparisons`; or enough of them and an agreement (equal / compared) below
 *   `minAgreement`, naming the fields that differed most. An operation never shadowed (writes,
 *   routes never in shadow mode) is not judged on this;
 * - fallbacks: api2 failed and legacy answered;
 * - clients still on malformed forms;
 * - uncatalogued calls: no api2 mapping exists for them at all.
 *
 * Other modes (canary, shadow, …) are reported but do not enter the verdict; a canary route's
 * records name the side that answered (`legacy` or `api2`), so its api2 share counts as api2.
 */
import type { ModeAgg, OperationAgg } from './aggregate.js';
import type { Readiness, Thresholds } from './types.js';

/** Differing fields named in the agreement reason. */
const FIELDS_IN_REASON = 3;

export function judge(operation: string, op: OperationAgg, thresholds: Thresholds): Readiness {
  const reasons: string[] = [];
  if (operation === 'uncatalogued') {
    reasons.push(`uncatalogued calls have no api2 mapping (${plural(op.requests, 'request')} from ${plural(op.clients.size, 'client')})`);
    return { verdict: 'not-ready', reasons };
  }

  const shadow = op.shadow;
  const compared = shadow.equal + shadow.differing;
  const shadowed = compared + shadow.skipped > 0;
  const enoughShadow = compared > 0 && compared >= thresholds.minShadowComparisons;

  const legacy = op.modes.get('legacy');
  const api2 = op.modes.get('api2');
  if (!api2 || api2.requests === 0) {
    if (!enoughShadow) reasons.push('no traffic in api2 mode yet');
  } else if (api2.requests < thresholds.minApi2Requests) {
    if (!enoughShadow) reasons.push(`only ${api2.requests} requests in api2 mode (at least ${thresholds.minApi2Requests} needed to judge)`);
  } else {
    const api2Rate = rate(api2);
    if (legacy && legacy.requests > 0) {
      const legacyRate = rate(legacy);
      if (api2Rate > legacyRate + thresholds.errorMargin) {
        reasons.push(`error rate in api2 mode (${percent(api2Rate)}) above legacy (${percent(legacyRate)})`);
      }
      const api2P95 = api2.latency.quantile(0.95);
      const legacyP95 = legacy.latency.quantile(0.95);
      if (api2P95 !== null && legacyP95 !== null && api2P95 > legacyP95 * thresholds.latencyFactor) {
        reasons.push(`p95 latency in api2 mode (${api2P95} ms) above ${thresholds.latencyFactor}× legacy (${legacyP95} ms)`);
      }
    } else if (api2Rate > thresholds.maxErrorRateWithoutBaseline) {
      reasons.push(
        `error rate in api2 mode (${percent(api2Rate)}) above ${percent(thresholds.maxErrorRateWithoutBaseline)}, with no legacy traffic to compare`,
      );
    }
  }
  if (shadowed) {
    if (!enoughShadow) {
      reasons.push(`too few shadow comparisons (${compared})`);
    } else {
      const agreement = shadow.equal / compared;
      if (agreement < thresholds.minAgreement) reasons.push(agreementReason(agreement, op, thresholds));
    }
  }
  if (op.fallbacks > 0) reasons.push(`${plural(op.fallbacks, 'fallback')} to legacy`);
  if (op.malformedClients.size > 0) {
    reasons.push(`${plural(op.malformedClients.size, 'client')} still on malformed forms (${plural(op.malformed, 'request')})`);
  }
  return { verdict: reasons.length === 0 ? 'ready' : 'not-ready', reasons };
}

/** `shadow agreement 97% below 99%: 3 of 100 comparisons differ, most on Results[].Title (3)`. */
function agreementReason(agreement: number, op: OperationAgg, thresholds: Thresholds): string {
  const { differing, equal } = op.shadow;
  const fields = [...op.shadow.fields]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, FIELDS_IN_REASON)
    .map(([path, count]) => `${path} (${count})`);
  return (
    `shadow agreement ${percentDown(agreement)} below ${percent(thresholds.minAgreement)}: ` +
    `${differing} of ${equal + differing} comparisons differ` +
    (fields.length > 0 ? `, most on ${fields.join(', ')}` : '')
  );
}

function rate(mode: ModeAgg): number {
  return mode.requests === 0 ? 0 : mode.errors / mode.requests;
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
