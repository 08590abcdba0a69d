/**
 * The report's readiness verdicts (can the operation move to api2?) with their reasons, against a
 * generated log with known answers, and each rule on its own.
 */
import { describe, expect, it } from 'vitest';
import { reportFromInputs } from '../src/report/run.js';
import type { Report } from '../src/report/types.js';
import { logLine, scenarioLines, T0, times, writeLog } from './support/log-fixtures.js';

async function reportOf(lines: string[]): Promise<Report> {
  return reportFromInputs([await writeLog(lines)]);
}

function verdicts(report: Report): Record<string, { verdict: string; reasons: readonly string[] }> {
  return Object.fromEntries(report.operations.map((o) => [o.operation, { verdict: o.readiness.verdict, reasons: o.readiness.reasons }]));
}

describe('report: readiness per operation', () => {
  it('gives every operation of the scenario its verdict and reasons', async () => {
    expect(verdicts(await reportOf(scenarioLines()))).toEqual({
      'recipes.search': { verdict: 'not-ready', reasons: ['error rate in api2 mode (3%) above legacy (1%)'] },
      'grocery.list': { verdict: 'ready', reasons: [] },
      // Malformed forms hold the client back (its blockers), not the operation: api2 mode answers them too.
      'grocery.update': { verdict: 'not-ready', reasons: ['no traffic in api2 mode yet'] },
      'favorites.list': { verdict: 'not-ready', reasons: ['only 20 requests in api2 mode (at least 100 needed to judge)'] },
      uncatalogued: { verdict: 'cannot-move', reasons: ['uncatalogued calls have no api2 mapping'] },
      'reviews.get': { verdict: 'not-ready', reasons: ['no traffic in api2 mode yet'] },
    });
  });

  it('flags api2 p95 latency above twice legacy, and api2 errors when there is no legacy baseline', async () => {
    const slow = [
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'reviews.list', mode: 'legacy', latencyMs: 10, client: 'aaaaaaaaaaaaaaaa' })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'reviews.list', mode: 'api2', latencyMs: 30, client: 'aaaaaaaaaaaaaaaa' })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'trysoons.list', mode: 'api2', latencyMs: 5, status: i < 2 ? 500 : 200 })),
    ];
    const result = verdicts(await reportOf(slow));
    expect(result['reviews.list']?.verdict).toBe('not-ready');
    expect(result['reviews.list']?.reasons).toHaveLength(1);
    expect(result['reviews.list']?.reasons[0]).toBe('p95 latency in api2 mode (≤30 ms) above 2× legacy (≤10 ms)');
    expect(result['trysoons.list']).toEqual({
      verdict: 'not-ready',
      reasons: ['error rate in api2 mode (2%) above 1%, with no legacy traffic to compare'],
    });
  });

  it('reads modes from the log without a fixed list: canary and shadow are shown, not judged', async () => {
    const lines = [
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'trysoons.list', mode: 'api2', latencyMs: 5 })),
      ...times(7, (i) => logLine({ time: T0 + i, operation: 'trysoons.list', mode: 'canary', latencyMs: 5, status: 500 })),
      ...times(3, (i) => logLine({ time: T0 + i, operation: 'trysoons.list', mode: 'shadow', latencyMs: 5 })),
    ];
    const report = await reportOf(lines);
    const op = report.operations[0];
    expect(op?.modes.map((m) => m.mode)).toEqual(['api2', 'canary', 'shadow']);
    expect(op?.readiness).toMatchObject({ verdict: 'ready', reasons: [] });
    expect(report.timeline.modes).toEqual(['api2', 'canary', 'shadow']);
  });
});
