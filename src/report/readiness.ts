/**
 * Can this operation move to api2? `ready` when nothing below holds, else `not-ready` with every
 * reason that holds:
 *
 * - no traffic in api2 mode yet, or too little to judge (`minApi2Requests`);
 * - error rate (5xx) in api2 mode above legacy (+ `errorMargin`), or above
 *   `maxErrorRateWithoutBaseline` when there is no legacy traffic to compare with;
 * - p95 latency in api2 mode above `latencyFactor` × legacy;
 * - clients still on malformed forms;
 * - uncatalogued calls: no api2 mapping exists for them at all.
 *
 * Other modes (canary, shadow, …) are reported but do not enter the verdict.
 */
import type { ModeAgg, OperationAgg } from './aggregate.js';
import type { Readiness, Thresholds } from './types.js';

export function judge(operation: string, op: OperationAgg, thresholds: Thresholds): Readiness {
  const reasons: string[] = [];
  if (operation === 'uncatalogued') {
    reasons.push(`uncatalogued calls have no api2 mapping (${plural(op.requests, 'request')} from ${plural(op.clients.size, 'client')})`);
    return { verdict: 'not-ready', reasons };
  }

  const legacy = op.modes.get('legacy');
  const api2 = op.modes.get('api2');
  if (!api2 || api2.requests === 0) {
    reasons.push('no traffic in api2 mode yet');
  } else if (api2.requests < thresholds.minApi2Requests) {
    reasons.push(`only ${api2.requests} requests in api2 mode (at least ${thresholds.minApi2Requests} needed to judge)`);
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
  if (op.malformedClients.size > 0) {
    reasons.push(`${plural(op.malformedClients.size, 'client')} still on malformed forms (${plural(op.malformed, 'request')})`);
  }
  return { verdict: reasons.length === 0 ? 'ready' : 'not-ready', reasons };
}

function rate(mode: ModeAgg): number {
  return mode.requests === 0 ? 0 : mode.errors / mode.requests;
}

export function percent(fraction: number): string {
  return `${(Math.round(fraction * 10_000) / 100).toString()}%`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
