/**
 * The migration report shows a rollout: a real gateway moves recipes.search by itself (shadow →
 * 5 %, then back to shadow when api2 starts to differ), writing its decisions to the usage log.
 * The report read from that log lists, for the operation, each decision in time order (the same
 * the gateway itself shows: time, kind, from → to, reason, gates), in JSON, text and HTML; the
 * report read from ClickHouse after ingesting the same log lists the same.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RolloutEvent } from '../src/migration/rollout/state.js';
import { renderHtml } from '../src/report/render-html.js';
import { renderText } from '../src/report/render-text.js';
import { reportFrom, reportFromInputs } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { clickHouseTarget, execute } from '../src/report/sources/clickhouse-http.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import type { Report } from '../src/report/types.js';
import { clickHouseForThisFile } from './support/clickhouse-for-this-file.js';
import { TOKEN, promoteThenSendBack, startRolloutRig } from './support/rollout.js';

const clickHouseUrl = clickHouseForThisFile();
let logFile: string;
let shown: readonly RolloutEvent[];
let report: Report;
let cleanupDir: () => Promise<void> = async () => undefined;
afterAll(() => cleanupDir());

beforeAll(async () => {
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const dir = await mkdtemp(join(tmpdir(), 'rollout-report-'));
    cleanupDir = () => rm(dir, { recursive: true, force: true });
    logFile = join(dir, 'usage.log');
    const { gateway, front } = await startRolloutRig(cleanup, { observability: { admin: { bearerToken: TOKEN }, log: { destination: logFile } } });
    shown = (await promoteThenSendBack(gateway, front)).filter((e) => e.operation === 'recipes.search');
    await gateway.close(); // the usage log is written out
    report = await reportFromInputs([logFile]);
  } finally {
    while (cleanup.length > 0) await cleanup.pop()?.();
  }
}, 90_000);

describe('the migration report during a rollout', () => {
  it('lists each decision of the log per operation, in time order, as the gateway made it', async () => {
    const written = (await readFile(logFile, 'utf8')).split('\n').filter((line) => line.includes('"msg":"rollout"'));
    expect(report.rollouts.map((r) => r.operation)).toEqual(['recipes.search']);
    const lines = report.rollouts[0]!.lines;
    expect(lines).toHaveLength(written.length);
    expect(lines.map((l) => `${l.kind} ${l.from}→${l.to} ${l.reason}`)).toEqual(shown.map((e) => `${e.kind} ${e.from}→${e.to} ${e.reason}`));
    expect(lines.map((l) => l.gates)).toEqual(shown.map((e) => e.gates ?? []));
    // When: the line's time, written as the decision was made.
    lines.forEach((l, i) => expect(Date.parse(l.time) - Date.parse(shown[i]!.time)).toBeGreaterThanOrEqual(0));
    lines.forEach((l, i) => expect(Date.parse(l.time) - Date.parse(shown[i]!.time)).toBeLessThan(1_000));
    expect(lines.filter((l) => l.from !== l.to).map((l) => `${l.kind} ${l.from}→${l.to}`)).toEqual(['start legacy→shadow', 'promote shadow→5', 'gate-failed 5→shadow', 'rollback 5→shadow']);
    const failed = lines.find((l) => l.kind === 'gate-failed')!;
    expect(failed.gates.some((g) => g.outcome === 'fail')).toBe(true);
    expect(failed.evidence['recent.compared']).toBeGreaterThan(0);
    // Still counted apart from the requests, as before.
    expect(report.summary.otherLines).toBeGreaterThanOrEqual(written.length);
  });

  it('says it in text and HTML: when, from → to, why and the failed gates with their numbers', () => {
    const failed = report.rollouts[0]!.lines.find((l) => l.kind === 'gate-failed')!;
    const text = renderText(report);
    expect(text).toContain('ROLLOUTS');
    expect(text).toContain(`${failed.time}  gate-failed 5 % → shadow (running, by controller): ${failed.reason}`);
    expect(text).toMatch(/\n {6}failed: (\w+ \d+\/\d+ [^:\n]+: [\d.]+ % lower bound [\d.]+ % > [\d.]+ % \((step|recent)\)|\w+ [\d.-]+ > [\d.]+ \((step|recent), \d+ samples\))\n/);
    const page = renderHtml(report);
    expect(page).toContain(`<tr data-operation="recipes.search" data-kind="promote" data-from="shadow" data-to="5"`);
    expect(page).toMatch(/<li data-gate="\w+" data-window="(step|recent)" data-outcome="fail">failed: /);
  });

  it('lists the same decisions from ClickHouse after the log is ingested', async () => {
    const target = clickHouseTarget(clickHouseUrl());
    const table = 'rollout_report';
    try {
      await ingest(target, table, [logFile]);
      const fromClickHouse = await reportFrom(clickHouseSource(target, table));
      expect(fromClickHouse.rollouts).toEqual(report.rollouts);
    } finally {
      await execute(target, `DROP TABLE IF EXISTS ${table}`);
    }
  }, 60_000);
});
