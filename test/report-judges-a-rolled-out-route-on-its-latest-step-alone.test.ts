/**
 * Issue 37 item 2: the report judges a rolled-out route on the evidence of its step in force alone,
 * as the rollout runner does (each usage line names its step: `stepSince`, when the step began).
 * grocery.list goes through two canary steps: at 5 % api2 fails every answer, at 25 % none. The
 * report, from the log file and from ClickHouse, judges the 25 % step on its own answers (no failed
 * error gate), not on both steps mixed by their common mode (canary); lines of older writers, which
 * name no step, are still counted by their mode. Each step stays readable: per-step sections in
 * JSON, text and HTML, and `--since` (files and ClickHouse alike) leaves out the earlier lines but
 * not the rollout decisions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../src/report/render-html.js';
import { renderText } from '../src/report/render-text.js';
import { reportFrom, reportFromInputs } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { clickHouseTarget, execute } from '../src/report/sources/clickhouse-http.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import type { Report } from '../src/report/types.js';
import { clickHouseForThisFile } from './support/clickhouse-for-this-file.js';
import { logLine, T0, times, writeLog } from './support/log-fixtures.js';

const clickHouseUrl = clickHouseForThisFile();
const STEP_5 = T0;
const STEP_25 = T0 + 60_000;
const rolloutLine = (time: number, kind: string, from: string | number, to: string | number) =>
  JSON.stringify({ level: 30, time, operation: 'grocery.list', kind, from, to, status: 'running', by: 'controller', reason: kind, msg: 'rollout' });
const answers = (from: number, n: number, side: 'legacy' | 'api2', status: number, stepSince?: number) =>
  times(n, (i) => logLine({ time: from + i * 10, operation: 'grocery.list', mode: side, routeMode: 'canary', status, latencyMs: 10, ...(stepSince !== undefined ? { stepSince } : {}) }));

/** Two canary steps of grocery.list: api2 fails every answer at 5 %, none at 25 %. */
function twoSteps(stamped: boolean): string[] {
  const step = (since: number) => (stamped ? since : undefined);
  return [
    rolloutLine(STEP_5, 'start', 'legacy', 5),
    ...answers(STEP_5 + 1, 200, 'legacy', 200, step(STEP_5)),
    ...answers(STEP_5 + 2, 200, 'api2', 500, step(STEP_5)),
    rolloutLine(STEP_25, 'promote', 5, 25),
    ...answers(STEP_25 + 1, 300, 'legacy', 200, step(STEP_25)),
    ...answers(STEP_25 + 2, 300, 'api2', 200, step(STEP_25)),
  ];
}

const judged = (report: Report) => report.readiness.operations.find((op) => op.operation === 'grocery.list')!;
const errorGate = (report: Report) => judged(report).judgement.gates.find((g) => g.gate === 'errorRate');

describe('report: a rolled-out route judged on its latest step alone', () => {
  const tables: string[] = [];
  afterAll(async () => {
    for (const table of tables) await execute(clickHouseTarget(clickHouseUrl()), `DROP TABLE IF EXISTS ${table}`);
  });

  it('counts only the 25 % step’s answers, so its error gate does not fail on the 5 % step’s 5xx; ClickHouse says the same', async () => {
    const file = await writeLog(twoSteps(true));
    const fromFile = await reportFromInputs([file]);
    expect(judged(fromFile).judgement).toMatchObject({ state: 'rolling-out', step: 25 });
    expect(judged(fromFile).evidence.api2).toMatchObject({ requests: 300, status5xx: 0 });
    expect(judged(fromFile).evidence.legacy).toMatchObject({ requests: 300, status5xx: 0 });
    expect(errorGate(fromFile)).toMatchObject({ samples: 300, adverse: 0 });
    expect(errorGate(fromFile)?.outcome).not.toBe('fail');

    const target = clickHouseTarget(clickHouseUrl());
    const table = 'latest_step_alone';
    tables.push(table);
    await ingest(target, table, [file]);
    const fromClickHouse = await reportFrom(clickHouseSource(target, table));
    expect(judged(fromClickHouse)).toEqual(judged(fromFile));
  }, 60_000);

  it('shows each step apart, the latest marked as judged, in JSON, text and HTML', async () => {
    const report = await reportFromInputs([await writeLog(twoSteps(true))]);
    expect(judged(report).steps).toEqual([
      { since: new Date(STEP_5).toISOString(), mode: 'canary', judged: false, legacy: 200, api2: 200, api2Status5xx: 200, fallbacks: 0, compared: 0, agreed: 0 },
      { since: new Date(STEP_25).toISOString(), mode: 'canary', judged: true, legacy: 300, api2: 300, api2Status5xx: 0, fallbacks: 0, compared: 0, agreed: 0 },
    ]);
    const text = renderText(report);
    expect(text).toContain('STEPS OF ROLLED-OUT ROUTES');
    expect(text).toContain(`grocery.list  ${new Date(STEP_5).toISOString()} (canary): legacy 200, api2 200 (5xx 200), fallbacks 0`);
    expect(text).toContain(`grocery.list  ${new Date(STEP_25).toISOString()} (canary) [judged]: legacy 300, api2 300 (5xx 0), fallbacks 0`);
    const page = renderHtml(report);
    expect(page).toContain(`<li data-operation="grocery.list" data-since="${new Date(STEP_25).toISOString()}" data-judged="true">`);
    expect(page).toContain(`<li data-operation="grocery.list" data-since="${new Date(STEP_5).toISOString()}" data-judged="false">`);
  });

  it('with --since, leaves out the earlier lines but keeps the rollout decisions, from files and ClickHouse alike', async () => {
    const file = await writeLog(twoSteps(false));
    const fromFile = await reportFromInputs([file], { since: STEP_25 + 1 });
    expect(judged(fromFile).judgement).toMatchObject({ state: 'rolling-out', step: 25 });
    expect(judged(fromFile).evidence.api2).toMatchObject({ requests: 300, status5xx: 0 });
    expect(fromFile.summary.records).toBe(600);
    const target = clickHouseTarget(clickHouseUrl());
    const table = 'since_step_25';
    tables.push(table);
    await ingest(target, table, [file]);
    const fromClickHouse = await reportFrom(clickHouseSource(target, table, { since: STEP_25 + 1 }));
    expect(judged(fromClickHouse)).toEqual(judged(fromFile));
    expect(fromClickHouse.summary.records).toBe(600);
  }, 60_000);

  it('judges a route that has just moved on its new step, which no line names yet: no evidence, as the runner sees it (files and ClickHouse)', async () => {
    const moved = JSON.stringify({ level: 30, time: STEP_25 + 5, operation: 'grocery.list', kind: 'promote', from: 5, to: 25, status: 'running', by: 'controller', reason: 'promote', stepSince: STEP_25, msg: 'rollout' });
    const lines = [rolloutLine(STEP_5, 'start', 'legacy', 5), ...answers(STEP_5 + 1, 200, 'legacy', 200, STEP_5), ...answers(STEP_5 + 2, 200, 'api2', 500, STEP_5), moved];
    const file = await writeLog(lines);
    const fromFile = await reportFromInputs([file]);
    expect(judged(fromFile).judgement).toMatchObject({ state: 'rolling-out', step: 25 });
    expect(judged(fromFile).evidence.api2).toMatchObject({ requests: 0, status5xx: 0 });
    expect(errorGate(fromFile)?.outcome).not.toBe('fail');
    // The step it left stays readable, and is not the one marked as judged.
    expect(judged(fromFile).steps?.map((step) => [step.since, step.judged])).toEqual([[new Date(STEP_5).toISOString(), false]]);
    const target = clickHouseTarget(clickHouseUrl());
    const table = 'just_moved';
    tables.push(table);
    await ingest(target, table, [file]);
    expect(judged(await reportFrom(clickHouseSource(target, table)))).toEqual(judged(fromFile));
  }, 60_000);

  it('still counts the lines of older writers (no step named) by their mode, both steps together', async () => {
    const report = await reportFromInputs([await writeLog(twoSteps(false))]);
    expect(judged(report).evidence.api2).toMatchObject({ requests: 500, status5xx: 200 });
    expect(errorGate(report)?.outcome).toBe('fail');
    expect(judged(report).steps).toBeUndefined();
  });
});
