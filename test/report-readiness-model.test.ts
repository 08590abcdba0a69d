/**
 * The report through the one readiness model (src/migration/readiness.ts): a legacy-only
 * operation reads "cannot move" with its reason and a JSON flag, never "no traffic in api2 mode";
 * a headline counts the catalogue; api2 4xx (a 409 not-mappable refusal among them) are counted
 * per side and judged against legacy's; api2 breaker opens come from the log's breaker lines;
 * clients holding an operation back are grouped by blocker kind; days are listed when the log
 * spans days.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../src/report/render-html.js';
import { renderText } from '../src/report/render-text.js';
import { reportFromInputs } from '../src/report/run.js';
import type { Report } from '../src/report/types.js';
import { CLIENT_A, CLIENT_B, CLIENT_C, logLine, T0, times, writeLog } from './support/log-fixtures.js';

const reportOf = async (lines: string[]): Promise<Report> => reportFromInputs([await writeLog(lines)]);
const entry = (report: Report, operation: string) => report.readiness.operations.find((op) => op.operation === operation)!;
const breakerLine = (time: number, to: string) => JSON.stringify({ level: 40, time, upstream: 'api2', from: 'closed', to, msg: 'breaker' });

describe('report: the readiness model', () => {
  it('says a legacy-only operation cannot move, with its reason and canMove false, and counts it in the headline', async () => {
    const report = await reportOf([
      ...times(120, (i) => logLine({ time: T0 + i, operation: 'favorites.create', method: 'POST', mode: 'legacy', client: CLIENT_A })),
      ...times(120, (i) => logLine({ time: T0 + i, operation: 'grocery.list', mode: 'api2', latencyMs: 5, client: CLIENT_A })),
    ]);
    const favorites = entry(report, 'favorites.create');
    expect(favorites).toMatchObject({ verdict: 'cannot-move', canMove: false });
    expect(favorites.reasons).toEqual([favorites.cannotMoveReason]);
    expect(favorites.cannotMoveReason).toMatch(/api2 publishes no endpoint/);
    expect(report.operations.find((op) => op.operation === 'favorites.create')?.readiness.canMove).toBe(false);
    expect(entry(report, 'grocery.list')).toMatchObject({ verdict: 'ready', canMove: true, cannotMoveReason: null });
    expect(report.readiness.operations).toHaveLength(16);
    expect(report.readiness.headline).toMatch(/^1 of 16 operations ready to move; 4 cannot move: favorites\.create, favorites\.delete, trysoons\.create, trysoons\.delete \(api2 publishes no endpoint/);
    const text = renderText(report);
    expect(text).toMatch(/favorites\.create\s+CANNOT MOVE\s+120 \(4xx 0, 5xx 0\)/);
    expect(text).not.toMatch(/favorites\.create.*no traffic in api2 mode/);
    expect(renderHtml(report)).toContain('data-value="cannot-move" data-can-move="false"');
  });

  it('counts 4xx and 5xx per side, a 409 among the api2 4xx, and judges an api2 4xx rate above legacy', async () => {
    const report = await reportOf([
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'reviews.delete', method: 'DELETE', mode: 'legacy', status: i < 1 ? 404 : i < 2 ? 500 : 200, latencyMs: 8 })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'reviews.delete', method: 'DELETE', mode: 'api2', status: i < 5 ? 409 : 200, latencyMs: 12 })),
    ]);
    const deletes = entry(report, 'reviews.delete');
    expect(deletes.evidence.legacy).toEqual({ requests: 100, status4xx: 1, status5xx: 1, p50Ms: 10, p95Ms: 10 });
    expect(deletes.evidence.api2).toEqual({ requests: 100, status4xx: 5, status5xx: 0, p50Ms: 20, p95Ms: 20 });
    expect(deletes.reasons).toEqual(['4xx rate in api2 mode (5%) above legacy (1%)']);
  });

  it("reads the api2 breaker's openings from the log and holds back operations that had api2 traffic", async () => {
    const report = await reportOf([
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'grocery.list', mode: 'api2', latencyMs: 5 })),
      ...times(100, (i) => logLine({ time: T0 + i, operation: 'trysoons.list', mode: 'legacy', latencyMs: 5 })),
      breakerLine(T0 + 50, 'open'),
      breakerLine(T0 + 60, 'half-open'),
      breakerLine(T0 + 70, 'open'),
    ]);
    expect(report.readiness.api2BreakerOpens).toBe(2);
    expect(entry(report, 'grocery.list').reasons).toEqual(['api2 circuit breaker opened 2 times']);
    expect(entry(report, 'trysoons.list').reasons).toEqual(['no traffic in api2 mode yet']);
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
