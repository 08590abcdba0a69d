/**
 * The report through the one judgement (src/migration/judgement/): every operation gets one
 * state, judged by the rollout gates (its default plan's, src/migration/judgement/default-plan.ts)
 * on the evidence of the latest config version only (or the one `--config-version` names), and,
 * for a rolled-out route, the state its rollout lines give. A legacy-only operation cannot move,
 * with its reason; the headline counts the states; the latency rule is the gate's (there is no
 * report rule of its own); the clients holding an operation back are grouped by blocker kind.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../src/report/render-html.js';
import { renderText } from '../src/report/render-text.js';
import { reportFromInputs } from '../src/report/run.js';
import type { Report } from '../src/report/types.js';
import { CLIENT_A, CLIENT_B, CLIENT_C, logLine, shadowLine, T0, times, writeLog } from './support/log-fixtures.js';

const reportOf = async (lines: string[], configVersion?: string): Promise<Report> => reportFromInputs([await writeLog(lines)], { configVersion });
const entry = (report: Report, operation: string) => report.readiness.operations.find((op) => op.operation === operation)!;
const stateOf = (report: Report, operation: string) => entry(report, operation).judgement.state;
const breakerLine = (time: number, to: string) => JSON.stringify({ level: 40, time, upstream: 'api2', from: 'closed', to, msg: 'breaker' });
const rolloutLine = (time: number, operation: string, kind: string, from: string | number, to: string | number, status: string, reason: string, extra: object = {}) =>
  JSON.stringify({ level: 30, time, operation, kind, from, to, status, by: 'controller', reason, ...extra, msg: 'rollout' });

describe('report: one state per operation', () => {
  it('says a legacy-only operation cannot move, with its reason and canMove false, and counts the states in the headline', async () => {
    const report = await reportOf([
      ...times(120, (i) => logLine({ time: T0 + i, operation: 'favorites.create', method: 'POST', mode: 'legacy', client: CLIENT_A })),
      ...times(500, (i) => logLine({ time: T0 + i, operation: 'grocery.list', mode: 'api2', routeMode: 'api2', latencyMs: 5, client: CLIENT_A })),
    ]);
    const favorites = entry(report, 'favorites.create').judgement;
    expect(favorites).toMatchObject({ state: 'cannot-move', canMove: false });
    expect(favorites.detail).toMatch(/api2 publishes no endpoint/);
    expect(report.operations.find((op) => op.operation === 'favorites.create')?.readiness.canMove).toBe(false);
    expect(stateOf(report, 'grocery.list')).toBe('done');
    expect(report.readiness.operations).toHaveLength(16);
    expect(report.readiness.headline).toBe('16 operations: 1 done, 11 no evidence yet, 4 cannot move');
    expect(report.readiness.states).toMatchObject({ done: 1, 'no-evidence': 11, 'cannot-move': 4 });
    const text = renderText(report);
    expect(text).toMatch(/favorites\.create\s+CANNOT MOVE\s+120 \(4xx 0, 5xx 0\)/);
    expect(renderHtml(report)).toContain('data-value="cannot-move" data-can-move="false"');
  });

  it('judges a shadowed operation by the agreement gate: collecting below its comparisons, ready above, held below the agreement', async () => {
    const shadowed = (equal: number, differ: number) => [
      logLine({ time: T0, operation: 'recipes.search', mode: 'legacy', routeMode: 'shadow' }),
      ...times(equal, (i) => shadowLine({ time: T0 + i, operation: 'recipes.search', routeMode: 'shadow', outcome: 'equal' })),
      ...times(differ, (i) => shadowLine({ time: T0 + i, operation: 'recipes.search', routeMode: 'shadow', outcome: 'differ', diffs: [{ path: 'Results[].ImageURL', kind: 'changed' }] })),
    ];
    const collecting = entry(await reportOf(shadowed(60, 0)), 'recipes.search').judgement;
    expect(collecting.state).toBe('collecting');
    expect(collecting.detail).toContain(`about ${collecting.missing['shadowAgreement']} more comparisons`);
    expect(stateOf(await reportOf(shadowed(400, 0)), 'recipes.search')).toBe('ready');
    const held = entry(await reportOf(shadowed(90, 10)), 'recipes.search').judgement;
    expect(held).toMatchObject({ state: 'held', hold: { gates: ['shadowAgreement'] } });
    expect(held.next).toMatch(/example pairs/);
  });

  it('has one latency rule, the gate: api2 at 3x legacy is not held without a latency gate in the plan', async () => {
    const report = await reportOf([
      ...times(300, (i) => logLine({ time: T0 + i, operation: 'reviews.list', mode: i % 3 === 0 ? 'api2' : 'legacy', routeMode: 'canary', latencyMs: i % 3 === 0 ? 30 : 10 })),
    ]);
    // Short of api2 answers for the error gate; no latency rule holds it.
    expect(entry(report, 'reviews.list').judgement).toMatchObject({ state: 'collecting', hold: null });
    expect(Object.keys(entry(report, 'reviews.list').judgement.missing)).toEqual(['errorRate']);
  });

  it('judges only the latest config version, or the one asked for', async () => {
    const lines = [
      ...times(100, (i) => shadowLine({ time: T0 + i, config: 'old', operation: 'recipes.search', routeMode: 'shadow', outcome: i < 25 ? 'differ' : 'equal', diffs: i < 25 ? [{ path: 'Results[].ImageURL', kind: 'changed' }] : [] })),
      logLine({ time: T0 + 100, config: 'old', operation: 'recipes.search', mode: 'legacy', routeMode: 'shadow' }),
      logLine({ time: T0 + 200, config: 'new', operation: 'recipes.search', mode: 'legacy', routeMode: 'shadow' }),
      ...times(400, (i) => shadowLine({ time: T0 + 200 + i, config: 'new', operation: 'recipes.search', routeMode: 'shadow', outcome: 'equal' })),
    ];
    const latest = await reportOf(lines);
    expect(latest.readiness.configVersion).toBe('new');
    expect(latest.readiness.configVersions).toEqual(['new', 'old']);
    expect(entry(latest, 'recipes.search').evidence.shadow).toMatchObject({ compared: 400, agreed: 400 });
    expect(stateOf(latest, 'recipes.search')).toBe('ready');
    const old = await reportOf(lines, 'old');
    expect(entry(old, 'recipes.search').evidence.shadow).toMatchObject({ compared: 100, agreed: 75 });
    expect(stateOf(old, 'recipes.search')).toBe('held');
  });

  it('takes a rolled-out route’s state from its rollout lines, its evidence from its step’s mode, and collapses a held run', async () => {
    const failed = (time: number) =>
      rolloutLine(time, 'grocery.list', 'gate-failed', 'shadow', 'shadow', 'running', 'shadowAgreement 0.900 < 0.990 (step, 100 samples) → back-one-step', {
        gates: [{ gate: 'shadowAgreement', window: 'step', outcome: 'fail', measured: 0.9, bound: 0.99, samples: 100 }],
      });
    const report = await reportOf([
      rolloutLine(T0, 'recipes.search', 'start', 'legacy', 'shadow', 'running', 'plan'),
      rolloutLine(T0 + 10, 'recipes.search', 'promote', 'shadow', 100, 'running', 'gates held'),
      rolloutLine(T0, 'grocery.list', 'start', 'legacy', 'shadow', 'running', 'plan'),
      failed(T0 + 10),
      failed(T0 + 20),
      failed(T0 + 30),
      rolloutLine(T0, 'reviews.list', 'start', 'legacy', 'shadow', 'running', 'plan'),
      rolloutLine(T0 + 10, 'reviews.list', 'rollback', 'shadow', 'legacy', 'rolled-back', 'rolled back by an operator', { by: 'operator', operator: 'alice' }),
      ...times(5, (i) => logLine({ time: T0 + 11 + i, operation: 'recipes.search', mode: 'api2', routeMode: 'api2' })),
      ...times(50, (i) => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'legacy', routeMode: 'shadow', status: 500 })),
    ]);
    expect(stateOf(report, 'recipes.search')).toBe('done');
    expect(entry(report, 'recipes.search').evidence.api2.requests).toBe(5);
    expect(entry(report, 'recipes.search').evidence.legacy.requests).toBe(0);
    expect(entry(report, 'grocery.list').judgement).toMatchObject({ state: 'held', hold: { gates: ['shadowAgreement'], evaluations: 3, since: new Date(T0 + 10).toISOString() } });
    expect(entry(report, 'reviews.list').judgement).toMatchObject({ state: 'rolled-back', detail: 'rolled back by an operator' });
    const text = renderText(report);
    expect(text).toContain(`held since ${new Date(T0 + 10).toISOString()} by shadowAgreement (3 evaluations)`);
    expect(text.match(/gate-failed/g) ?? []).toHaveLength(0);
    expect(text).toMatch(/rollback shadow → legacy \(rolled-back, by operator alice\)/);
  });

  it('counts 4xx and 5xx per side, a 409 among the api2 4xx', async () => {
    const report = await reportOf([
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'reviews.delete', method: 'DELETE', mode: 'legacy', routeMode: 'canary', status: i < 1 ? 404 : i < 2 ? 500 : 200, latencyMs: 8 })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'reviews.delete', method: 'DELETE', mode: 'api2', routeMode: 'canary', status: i < 5 ? 409 : 200, latencyMs: 12 })),
    ]);
    const deletes = entry(report, 'reviews.delete');
    expect(deletes.evidence.legacy).toEqual({ requests: 100, status4xx: 1, status5xx: 1, p50Ms: 10, p95Ms: 10 });
    expect(deletes.evidence.api2).toEqual({ requests: 100, status4xx: 5, status5xx: 0, p50Ms: 20, p95Ms: 20 });
  });

  it("reads the api2 breaker's openings from the log and holds an operation answered by api2 by the breaker gate", async () => {
    const report = await reportOf([
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'grocery.list', mode: 'api2', routeMode: 'api2', latencyMs: 5 })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'trysoons.list', mode: 'legacy', routeMode: 'legacy', latencyMs: 5 })),
      breakerLine(T0 + 50, 'open'),
      breakerLine(T0 + 60, 'half-open'),
      breakerLine(T0 + 70, 'open'),
    ]);
    expect(report.readiness.api2BreakerOpens).toBe(2);
    expect(entry(report, 'grocery.list').judgement).toMatchObject({ state: 'held', hold: { gates: ['breaker'] } });
    expect(stateOf(report, 'trysoons.list')).toBe('no-evidence');
  });

  it('groups the clients holding an operation back by blocker kind, with how many clients and requests', async () => {
    const report = await reportOf([
      ...[CLIENT_A, CLIENT_B, CLIENT_C].flatMap((client) =>
        times(10, (i) => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'legacy', scheme: 'http', insecure: true, client })),
      ),
      ...times(4, (i) => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'legacy', versionPrefix: 'v1', client: CLIENT_A })),
    ]);
    expect(entry(report, 'recipes.search').heldBackBy).toEqual([
      { kind: 'legacy-mode', detail: 'served by the legacy backend', clients: 3, requests: 34 },
      { kind: 'plain-http', detail: 'credentials over plain http', clients: 3, requests: 30 },
      { kind: 'version-prefix', detail: 'version path prefix', clients: 1, requests: 4 },
    ]);
    expect(report.clients.find((c) => c.client === CLIENT_A)?.blockers.map((b) => b.kind)).toEqual(['legacy-mode', 'plain-http', 'version-prefix']);
  });

  it('lists requests per day and side when the log spans days, and no day list within one day', async () => {
    const DAY = 86_400_000;
    const spanning = await reportOf([
      ...times(3, (i) => logLine({ time: T0 + i, operation: 'grocery.list', mode: 'legacy' })),
      ...times(2, (i) => logLine({ time: T0 + DAY + i, operation: 'grocery.list', mode: 'api2' })),
      ...times(4, (i) => logLine({ time: T0 + 2 * DAY + i, operation: 'grocery.list', mode: 'api2' })),
    ]);
    expect(spanning.trends.days).toEqual([
      { day: '2026-01-05', legacy: 3, api2: 0 },
      { day: '2026-01-06', legacy: 0, api2: 2 },
      { day: '2026-01-07', legacy: 0, api2: 4 },
    ]);
    expect(renderText(spanning)).toMatch(/TRENDS PER DAY[^\n]*\nday\s+legacy\s+api2\s+api2 share\n2026-01-05\s+3\s+0\s+0\.0%\n2026-01-06\s+0\s+2\s+100\.0%/);
    const oneDay = await reportOf(times(3, (i) => logLine({ time: T0 + i, operation: 'grocery.list', mode: 'legacy' })));
    expect(oneDay.trends.days).toHaveLength(1);
    expect(renderText(oneDay)).not.toContain('TRENDS PER DAY');
  });
});
