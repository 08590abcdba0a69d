/**
 * `npm run bench -- --smoke` runs to the end: every scenario measured (the anchors too; nginx when
 * it is on PATH) and every target computed, with numbers and without a single failed request. No
 * speed threshold is asserted (the benchmark reports, it does not judge). The modes are those
 * docs/benchmarks-anchors.md lists (`ab` gone, `gc` is `profile --gc`), and `profile --gc` runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../bench/options.js';
import type { BenchReport } from '../bench/runner.js';
import { SCENARIOS, chosenScenarios } from '../bench/scenarios.js';
import { runTsxScript } from './support/run-script.js';

const RATIO_IDS = [
  'cpu:passthrough/floor-log',
  'cpu:passthrough-nolog/floor',
  'cpu:passthrough/fastify',
  'cpu:cache-hit/hono-log',
  'cpu:cache-hit-nolog/hono',
  'cpu:api2-mapped/floor-api2',
  'cpu:passthrough-2w/passthrough',
  'cpu:passthrough-traces-1pct/passthrough',
  'cpu:passthrough-traces-100pct/passthrough',
  'promoted-kb-per-request',
  'unqueued-p50-added-ms',
  'unqueued-p99-added-ms',
  'rss-over-cache-and-floor-mb',
];

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});


describe('npm run bench -- --smoke', () => {
  it('measures every scenario and computes every ratio, with numbers', { timeout: 300_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    const jsonFile = join(dir, 'bench.json');
    const run = await runTsxScript('bench/run.ts', ['--smoke', '--json', jsonFile], 290_000);
    expect(run.code, run.stderr).toBe(0);

    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as BenchReport;
    const nginxOnPath = spawnSync('sh', ['-c', 'command -v nginx']).status === 0;
    const expected = SCENARIOS.filter((s) => s.id !== 'nginx' || nginxOnPath).map((s) => s.id);
    expect(report.scenarios.map((s) => s.id)).toEqual(expected);
    if (!nginxOnPath) expect(report.notes.join('\n')).toContain('nginx');
    for (const scenario of report.scenarios) {
      expect(scenario.rounds.length, scenario.id).toBe(1);
      for (const value of [scenario.reqPerSec, scenario.p50Ms, scenario.p99Ms, scenario.errors, scenario.cpuUsPerRequest]) expect(Number.isFinite(value), scenario.id).toBe(true);
      expect(scenario.reqPerSec, scenario.id).toBeGreaterThan(0);
      expect(scenario.errors, `${scenario.id}: failed requests`).toBe(0);
      // Promoted bytes are read from V8's trace in every Node process under test (not nginx).
      if (scenario.id !== 'nginx' && scenario.id !== 'direct') expect(Number.isFinite(scenario.promotedBytesPerRequest), scenario.id).toBe(true);
    }
    expect(report.ratios.map((r) => r.id)).toEqual(nginxOnPath ? [...RATIO_IDS.slice(0, 6), 'cpu:cache-hit/nginx', ...RATIO_IDS.slice(6)] : RATIO_IDS);
    for (const ratio of report.ratios) {
      expect(Number.isFinite(ratio.value), ratio.id).toBe(true);
      expect(typeof ratio.pass, ratio.id).toBe('boolean');
    }
    for (const side of [report.unqueued.direct, report.unqueued.passthrough]) {
      expect(Number.isFinite(side.p50Ms) && Number.isFinite(side.p99Ms)).toBe(true);
    }
    expect(run.stdout).toContain('one connection (no queue)');
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.command).toContain('--smoke');

    // The printed report has the table, every ratio with its verdict, the machine and the command.
    for (const scenario of SCENARIOS) expect(run.stdout).toContain(scenario.label);
    const lines = run.stdout.split('\n');
    for (const ratio of report.ratios) {
      expect(lines.some((line) => line.startsWith(ratio.label) && /\s(PASS|MISS)\b/.test(line)), ratio.id).toBe(true);
    }
    expect(run.stdout).toContain('machine:');
    expect(run.stdout).toContain('command:');
  });
});

describe('npm run bench modes', () => {
  it('are profile (with --gc), soak and syscalls besides the anchors; ab and gc are refused by name', () => {
    expect(() => parseOptions(['ab'])).toThrow(/no mode "ab": one of profile, soak, syscalls/);
    expect(() => parseOptions(['gc'])).toThrow(/no mode "gc"/);
    expect(parseOptions(['profile'])).toMatchObject({ mode: 'profile', gc: false, durationS: 15 });
    expect(parseOptions(['profile', '--gc', '--compare=--max-semi-space-size=8'])).toMatchObject({ mode: 'profile', gc: true, durationS: 6, runs: 3, compare: ['--max-semi-space-size=8'] });
    expect(parseOptions(['--rounds', '2'])).toMatchObject({ mode: 'anchors', gc: false, rounds: 2, durationS: 6 });
  });

  it('--scenarios names the scenarios measured, by id; an unknown id is refused', () => {
    expect(parseOptions([]).scenarios).toBeUndefined();
    const { scenarios } = parseOptions(['--scenarios', 'floor-api2, api2-mapped']);
    expect(chosenScenarios(scenarios).map((s) => s.id)).toEqual(['api2-mapped', 'floor-api2']);
    expect(chosenScenarios(undefined)).toEqual(SCENARIOS);
    expect(() => chosenScenarios(parseOptions(['--scenarios', 'api2-mapped,api2']).scenarios)).toThrow(/--scenarios: ids from .* not "api2-mapped,api2"/);
  });

  it('profile --gc prints what the young generation did in a fresh process', { timeout: 120_000 }, async () => {
    dir ??= await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    const jsonFile = join(dir, 'gc.json');
    const run = await runTsxScript('bench/run.ts', ['profile', '--gc', '--runs', '1', '--duration', '2', '--json', jsonFile], 110_000);
    expect(run.code, run.stderr).toBe(0);
    // A short run on a busy machine may see no scavenge: its median pause is then NaN.
    expect(run.stdout).toMatch(/^gw-legacy run 1: \d+ requests, \d+ scavenges, median pause \S+ ms, .* mark-compacts, CPU [\d.]+ µs\/request, RSS \d+ MiB$/m);
    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as { results: Array<Array<{ cpuUs: number; rssBytes: number }>> };
    expect(report.results[0]).toHaveLength(1);
    expect(Number.isFinite(report.results[0]![0]!.cpuUs) && report.results[0]![0]!.rssBytes > 0).toBe(true);
  });
});
