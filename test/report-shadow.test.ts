/**
 * The report's shadow agreement per operation (routes in shadow mode: legacy answers, api2 is
 * compared in the background) and the fallbacks to legacy, against a generated log with known
 * answers (test/support/log-fixtures.ts `shadowScenarioLines`): the numbers, the top differing
 * and noise fields, the verdicts and reasons in `--json`, the flags, the table, broken shadow
 * lines, and a log written by the gateway's own usage logger.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUsageLog } from '../src/observability/node/usage-log.js';
import { reportFromInputs } from '../src/report/run.js';
import type { OperationReport, Report } from '../src/report/types.js';
import type { ShadowRecord } from '../src/traffic/shadow.js';
import { logLine, shadowLine, shadowScenarioLines, T0, tempDir, times, writeLog } from './support/log-fixtures.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const node = process.execPath;
const cli = nodeArgsOf('src/cli/report.ts');

let file: string;
let report: Report;
beforeAll(async () => {
  file = await writeLog(shadowScenarioLines());
  report = JSON.parse((await run(node, [...cli, '--json', file])).stdout) as Report;
});

function op(r: Report, id: string): OperationReport {
  const found = r.operations.find((o) => o.operation === id);
  if (!found) throw new Error(`no ${id} in the report`);
  return found;
}

function states(r: Report): Record<string, string> {
  return Object.fromEntries(r.operations.map((o) => [o.operation, o.readiness.state]));
}

describe('report: shadow agreement per operation', () => {
  it('counts shadow lines apart from request records', () => {
    expect(report.summary.records).toBe(418);
    expect(report.summary.shadowLines).toBe(174);
    expect(report.summary.otherLines).toBe(0);
    expect(report.summary.brokenLines).toBe(0);
    expect(report.operations.map((o) => [o.operation, o.requests])).toEqual([
      ['reviews.list', 124],
      ['favorites.list', 120],
      ['recipes.search', 104],
      ['trysoons.list', 60],
      ['grocery.list', 10],
    ]);
  });

  it('gives compared, equal, differing, skipped and the agreement rate', () => {
    const search = op(report, 'recipes.search').shadow;
    expect({ compared: search.compared, equal: search.equal, differing: search.differing, skipped: search.skipped, agreement: search.agreement }).toEqual({
      compared: 100,
      equal: 97,
      differing: 3,
      skipped: 4,
      agreement: 0.97,
    });
    expect(search.skipReasons).toEqual([
      { reason: 'concurrency-cap', count: 3 },
      { reason: 'api2 answer invalid-json', count: 1 },
    ]);
    expect(op(report, 'grocery.list').shadow).toMatchObject({ compared: 10, equal: 10, differing: 0, skipped: 0, agreement: 1, topFields: [] });
    expect(op(report, 'trysoons.list').shadow).toMatchObject({ compared: 60, equal: 60, agreement: 1 });
    expect(op(report, 'reviews.list').shadow).toEqual({
      compared: 0,
      equal: 0,
      differing: 0,
      skipped: 0,
      raced: 0,
      unavailable: 0,
      agreement: null,
      topFields: [],
      noiseFields: [],
      examples: [],
      skipReasons: [],
    });
  });

  it('lists the top differing fields and the noise fields with their counts', () => {
    const search = op(report, 'recipes.search').shadow;
    expect(search.topFields).toEqual([
      { path: 'Results[].Title', count: 3 },
      { path: 'Results[].Poster.UserName', count: 1 },
    ]);
    expect(search.noiseFields).toEqual([
      { path: 'Results[].StarRating', count: 5 },
      { path: 'ResultCount', count: 2 },
    ]);
  });

  it('counts fallbacks and configured route modes; a canary route counts its api2 share as api2', () => {
    expect(op(report, 'reviews.list').fallbacks).toEqual({ requests: 4, share: 4 / 124 });
    expect(op(report, 'reviews.list').routeModes).toEqual({ api2: 124 });
    expect(op(report, 'recipes.search').routeModes).toEqual({ shadow: 104 });
    expect(op(report, 'recipes.search').fallbacks.requests).toBe(0);
    const favorites = op(report, 'favorites.list');
    expect(favorites.routeModes).toEqual({ canary: 120 });
    expect(favorites.modes.map((m) => [m.mode, m.requests])).toEqual([
      ['api2', 80],
      ['legacy', 40],
    ]);
  });

  it('puts the agreement, too few comparisons and fallbacks into the states (--json)', () => {
    expect(states(report)).toEqual({
      'recipes.search': 'collecting',
      'grocery.list': 'collecting',
      'trysoons.list': 'collecting',
      'reviews.list': 'collecting',
      'favorites.list': 'collecting',
    });
    // 3 of 100 differ: neither within 1 % nor beyond it with 95 % confidence yet.
    expect(op(report, 'recipes.search').readiness.detail).toMatch(/^in shadow mode, collecting: about \d+ more comparisons \(shadowAgreement\)$/);
    expect(op(report, 'grocery.list').readiness.missing['shadowAgreement']).toBeGreaterThan(0);
  });

  it('refuses the thresholds of the old readiness rule, saying what replaces them', async () => {
    for (const flag of ['--min-agreement', '--min-shadow', '--min-api2', '--latency-factor', '--error-margin']) {
      await expect(run(node, [...cli, flag, '0.5', file])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(`${flag} is gone: the report judges each operation by the rollout gates`) });
    }
  });

  it('shows the agreement in the terminal table and a shadow section', async () => {
    const { stdout } = await run(node, [...cli, file]);
    expect(stdout).toMatch(/OPERATIONS\n.*fallbacks\s+shadow agreement\n/);
    expect(stdout).toMatch(/recipes\.search\s+104\s.*\s97\.0% of 100\n/);
    expect(stdout).toMatch(/reviews\.list\s+124\s.*\s4\s+-\n/);
    expect(stdout).toContain('shadow comparisons: 174');
    expect(stdout).toContain('SHADOW COMPARISONS');
    expect(stdout).toMatch(/recipes\.search\s+100\s+97\s+3\s+4\s+97\.0%\s+Results\[\]\.Title \(3\), Results\[\]\.Poster\.UserName \(1\)\s+Results\[\]\.StarRating \(5\), ResultCount \(2\)\n/);
    expect(stdout).toMatch(/recipes\.search\s+COLLECTING EVIDENCE\s+.*97\.0% of 100 \(4 skipped\)\s+-\s+in shadow mode, collecting: about \d+ more comparisons \(shadowAgreement\)/);
    expect(stdout).toMatch(/reviews\.list\s+COLLECTING EVIDENCE\s+.*\s4\s+in api2 mode, collecting: about \d+ more api2 answers \(errorRate\)/);
  });
});

describe('report: shadow rules on their own', () => {
  const shadowed = (equal: number, differ: number, skipped = 0): string[] => [
    ...times(equal, (i) => shadowLine({ time: T0 + i, operation: 'recipes.search', outcome: 'equal' })),
    ...times(differ, (i) => shadowLine({ time: T0 + i, operation: 'recipes.search', outcome: 'differ', diffs: [{ path: '(status)', kind: 'changed' }], api2Status: 502 })),
    ...times(skipped, (i) => shadowLine({ time: T0 + i, operation: 'recipes.search', outcome: 'skipped', reason: 'concurrency-cap' })),
  ];
  const judged = async (lines: string[]) => {
    const { state, hold } = op(await reportFromInputs([await writeLog(lines)]), 'recipes.search').readiness;
    return { state, gates: hold?.gates ?? [] };
  };

  it("is ready once the gate's bound is within the tolerance, held once it is beyond it", async () => {
    expect(await judged(shadowed(400, 0))).toEqual({ state: 'ready', gates: [] });
    expect(await judged(shadowed(90, 10))).toEqual({ state: 'held', gates: ['shadowAgreement'] });
  });

  it('judges skipped-only shadowing as no evidence, and api2 traffic without comparisons by the error gate alone', async () => {
    expect(await judged(shadowed(0, 0, 30))).toEqual({ state: 'no-evidence', gates: [] });
    const api2Only = times(500, (i) => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'api2', routeMode: 'api2', latencyMs: 5 }));
    expect(await judged(api2Only)).toEqual({ state: 'done', gates: [] });
  });

  it('judges api2 traffic and shadow agreement side by side (comparisons made in a canary step)', async () => {
    const lines = [
      ...shadowed(90, 10),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'api2', routeMode: 'canary', latencyMs: 5 })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'legacy', routeMode: 'canary', latencyMs: 5 })),
    ];
    expect(await judged(lines)).toEqual({ state: 'held', gates: ['shadowAgreement'] });
  });
});

describe('report: broken shadow lines', () => {
  it('reports a malformed shadow line with its line number and counts the rest', async () => {
    const good = shadowLine({ time: T0, operation: 'grocery.list', outcome: 'equal' });
    const lines = [
      good,
      JSON.stringify({ level: 30, time: T0, kind: 'shadow', operation: 'grocery.list', outcome: 'maybe', msg: 'shadow' }), // 2
      good,
      good.slice(0, 50), // 4: truncated
      JSON.stringify({ level: 30, time: T0, kind: 'shadow', outcome: 'equal', msg: 'shadow' }), // 5: no operation
      JSON.stringify({ level: 30, time: T0, kind: 'shadow', operation: 'grocery.list', outcome: 'differ', diffs: 'Items[].Name', msg: 'shadow' }), // 6
      JSON.stringify({ level: 30, time: 'yesterday', kind: 'shadow', operation: 'grocery.list', outcome: 'equal', msg: 'shadow' }), // 7
      JSON.stringify({ level: 30, time: T0, kind: 'shadow', operation: 'grocery.list', outcome: 'equal', noise: [3], msg: 'shadow' }), // 8
      good,
    ];
    const log = await writeLog(lines);
    const result = await reportFromInputs([log]);
    expect(result.summary.shadowLines).toBe(3);
    expect(result.summary.brokenLines).toBe(6);
    expect(result.brokenLines).toEqual([
      { input: log, line: 2, reason: 'shadow record without a valid "outcome"' },
      { input: log, line: 4, reason: 'not valid JSON (truncated?)' },
      { input: log, line: 5, reason: 'shadow record without a valid "operation"' },
      { input: log, line: 6, reason: 'shadow record without a valid "diffs"' },
      { input: log, line: 7, reason: 'shadow record without a valid "time"' },
      { input: log, line: 8, reason: 'shadow record without a valid "noise"' },
    ]);
    expect(op(result, 'grocery.list').shadow).toMatchObject({ compared: 3, equal: 3, agreement: 1 });
    const { stdout } = await run(node, [...cli, log]);
    expect(stdout).toContain(`${log}:2: shadow record without a valid "outcome"`);
  });
});

describe('report: a log written by the gateway usage logger', () => {
  it('reads the shadow lines UsageLog.event writes, as server.ts writes them', async () => {
    const path = join(await tempDir(), 'usage.log');
    const log = createUsageLog({ destination: path, level: 'info' } as Parameters<typeof createUsageLog>[0], () => ({ instance: 'test', config: '1' }));
    const record = (outcome: ShadowRecord['outcome'], extra: Partial<ShadowRecord> = {}): ShadowRecord => ({
      kind: 'shadow',
      time: new Date().toISOString(),
      requestId: undefined,
      operation: 'recipes.search',
      outcome,
      ...extra,
    });
    for (let i = 0; i < 3; i++) {
      log.sink({ requestId: `r${i}`, startedAt: Date.now(), method: 'GET', operation: 'recipes.search', insecure: false, mode: 'legacy', routeMode: 'shadow', status: 200, latencyMs: 3 });
    }
    log.event('shadow', record('equal', { requestId: 'r0', diffs: [], noise: ['ResultCount'], legacyStatus: 200, api2Status: 200 }));
    log.event('shadow', record('differ', { requestId: 'r1', id: 'shadow-1', diffs: [{ path: 'Results[].Title', kind: 'changed', legacy: '"Soup"', api2: '"Soup (changed)"' }], noise: [], legacyStatus: 200, api2Status: 200 }));
    log.event('shadow', record('skipped', { reason: 'concurrency-cap' }));
    await log.close();

    const result = await reportFromInputs([path]);
    expect(result.summary).toMatchObject({ records: 3, shadowLines: 3, brokenLines: 0, otherLines: 0 });
    expect(op(result, 'recipes.search').shadow).toEqual({
      compared: 2,
      equal: 1,
      differing: 1,
      skipped: 1,
      raced: 0,
      unavailable: 0,
      agreement: 0.5,
      topFields: [{ path: 'Results[].Title', count: 1 }],
      noiseFields: [{ path: 'ResultCount', count: 1 }],
      examples: [{ path: 'Results[].Title', legacy: '"Soup"', api2: '"Soup (changed)"', time: expect.any(String) }],
      skipReasons: [{ reason: 'concurrency-cap', count: 1 }],
    });
  });
});
