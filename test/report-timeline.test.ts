/**
 * The report's summary and its requests-over-time section.
 */
import { describe, expect, it } from 'vitest';
import { reportFromInputs } from '../src/report/run.js';
import { logLine, scenarioLines, T0, times, writeLog } from './support/log-fixtures.js';

describe('report: summary and requests over time', () => {
  it('sums the scenario: records, modes, time span, refused and anonymous requests', async () => {
    const report = await reportFromInputs([await writeLog(scenarioLines())]);
    expect(report.summary).toEqual({
      records: 578,
      brokenLines: 0,
      otherLines: 0,
      shadowLines: 0,
      firstTime: '2026-01-05T10:00:00.000Z',
      lastTime: '2026-01-05T10:09:37.000Z',
      clients: 3,
      anonymousRequests: 5,
      unrouted: 3,
      modes: { legacy: 305, api2: 270, gateway: 3 },
    });
    expect(report.timeline.stepSeconds).toBe(60);
    expect(report.timeline.buckets.map((b) => b.total)).toEqual([60, 60, 60, 60, 60, 60, 60, 60, 60, 38]);
    expect(report.timeline.buckets.reduce((sum, b) => sum + (b.modes['api2'] ?? 0), 0)).toBe(270);
  });

  it('counts per minute by mode, empty minutes included', async () => {
    const lines = [
      ...times(10, () => logLine({ time: T0 + 5_000, operation: 'recipes.search', mode: 'legacy' })),
      ...times(20, () => logLine({ time: T0 + 5 * 60_000 + 59_000, operation: 'recipes.search', mode: 'api2' })),
    ];
    const report = await reportFromInputs([await writeLog(lines)]);
    expect(report.timeline.modes).toEqual(['api2', 'legacy']);
    expect(report.timeline.buckets).toEqual([
      { start: '2026-01-05T10:00:00.000Z', total: 10, modes: { api2: 0, legacy: 10 } },
      ...[1, 2, 3, 4].map((m) => ({ start: `2026-01-05T10:0${m}:00.000Z`, total: 0, modes: { api2: 0, legacy: 0 } })),
      { start: '2026-01-05T10:05:00.000Z', total: 20, modes: { api2: 20, legacy: 0 } },
    ]);
  });

  it('widens the step for longer logs: at most 120 buckets', async () => {
    const lines = times(6, (h) => logLine({ time: T0 + h * 3_600_000, operation: 'grocery.list', mode: 'legacy' }));
    const report = await reportFromInputs([await writeLog(lines)]);
    expect(report.timeline.stepSeconds).toBe(300);
    expect(report.timeline.buckets).toHaveLength(61);
    expect(report.timeline.buckets.filter((b) => b.total > 0)).toHaveLength(6);
  });
});
