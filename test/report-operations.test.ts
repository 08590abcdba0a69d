/**
 * The report's per-operation section against a generated log with known answers
 * (test/support/log-fixtures.ts: every figure below is worked out there).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { reportFromInputs } from '../src/report/run.js';
import type { OperationReport, Report } from '../src/report/types.js';
import { scenarioLines, writeLog } from './support/log-fixtures.js';

let report: Report;
beforeAll(async () => {
  report = await reportFromInputs([await writeLog(scenarioLines())]);
});

function op(id: string): OperationReport {
  const found = report.operations.find((o) => o.operation === id);
  if (!found) throw new Error(`no ${id} in the report`);
  return found;
}

/** Percentiles come from a sketch accurate to 0.5 %. */
function near(actual: number | null, expected: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual ?? 0) - expected)).toBeLessThanOrEqual(expected * 0.005 + 1e-9);
}

describe('report: per operation', () => {
  it('lists the operations by requests, with the catalogued ones never seen', () => {
    expect(report.operations.map((o) => [o.operation, o.requests])).toEqual([
      ['recipes.search', 300],
      ['grocery.list', 200],
      ['grocery.update', 40],
      ['favorites.list', 20],
      ['uncatalogued', 10],
      ['reviews.get', 5],
    ]);
    expect(report.unseenOperations).toContain('reviews.create');
    expect(report.unseenOperations).not.toContain('recipes.search');
  });

  it('counts requests, distinct clients, share by mode and the error rate', () => {
    const search = op('recipes.search');
    expect(search.clients).toBe(2);
    expect(search.modes.map((m) => [m.mode, m.requests])).toEqual([
      ['legacy', 200],
      ['api2', 100],
    ]);
    expect(search.modes[0]?.share).toBeCloseTo(2 / 3, 10);
    expect(search.modes[1]?.share).toBeCloseTo(1 / 3, 10);
    expect(search.errorRate).toBeCloseTo(5 / 300, 10);
    expect(search.modes[0]?.errorRate).toBeCloseTo(0.01, 10);
    expect(search.modes[1]?.errorRate).toBeCloseTo(0.03, 10);
    expect(op('reviews.get').clients).toBe(0);
    expect(op('reviews.get').clientErrorRate).toBe(1);
  });

  it('gives p50 and p95 latency, per operation and per mode', () => {
    const search = op('recipes.search');
    near(search.p50Ms, 25);
    near(search.p95Ms, 93);
    near(search.modes[0]?.p50Ms ?? null, 50);
    near(search.modes[0]?.p95Ms ?? null, 95);
    near(search.modes[1]?.p95Ms ?? null, 10);
  });

  it('counts malformed forms, version prefixes and plain http', () => {
    const update = op('grocery.update');
    expect(update.forms).toEqual({ malformed: 30, regular: 10 });
    expect(update.malformed).toEqual({ requests: 30, share: 0.75, clients: 1 });
    const search = op('recipes.search');
    expect(search.versionPrefixed.requests).toBe(20);
    expect(search.plainHttp).toEqual({ requests: 50, share: 50 / 300 });
    expect(search.insecure).toEqual({ requests: 50, share: 50 / 300, clients: 1 });
    expect(op('grocery.list').plainHttp.requests).toBe(0);
  });

  it('gives the cache hit rate, null where nothing went through a cache', () => {
    expect(op('grocery.list').cache).toEqual({ hit: 100, miss: 30, stale: 20, bypass: 0, hitRate: 0.8 });
    expect(op('recipes.search').cache.hitRate).toBeNull();
  });

  it('lists uncatalogued calls by path template', () => {
    expect(report.uncatalogued).toEqual([{ method: 'GET', pathTemplate: '/recipe/{n}', requests: 10, clients: 1 }]);
  });
});
