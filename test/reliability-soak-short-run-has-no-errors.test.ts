/**
 * `npm run bench -- soak` run short (4 s of load after 1 s of warm-up, 50 connections): the mixed workload
 * of every catalogued operation through a legacy-mode and an api2-mode gateway (cache on) ends with 0
 * errors, every operation answered 2xx in both modes, and prints errors, p99 and the RSS of each
 * gateway with its growth. Correctness, not speed: RSS growth is printed, not asserted (it needs
 * the full 60 s run, by hand).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SoakReport } from '../bench/soak.js';
import { OPERATION_IDS } from '../src/catalogue/operations.js';
import { runTsxScript } from './support/run-script.js';


let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});


describe('npm run bench -- soak, short', () => {
  it('runs every operation in both modes at 50 connections with 0 errors, and reports p99 and RSS', { timeout: 90_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'soak-'));
    const jsonFile = join(dir, 'soak.json');
    const run = await runTsxScript('bench/run.ts', ['soak', '--duration', '4', '--warmup', '1', '--connections', '50', '--json', jsonFile], 80_000);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as SoakReport;
    expect(report.connections).toEqual({ legacy: 25, api2: 25 });
    expect(report.errors, run.stdout).toBe(0);
    expect(report.uncovered).toEqual([]);
    expect(report.requests).toBeGreaterThan(500);
    for (const op of OPERATION_IDS) {
      for (const mode of ['legacy', 'api2'] as const) {
        const statuses = report.answers[op]?.[mode] ?? {};
        expect(Object.keys(statuses).every((status) => status.startsWith('2')), `${op} in ${mode} mode: ${JSON.stringify(statuses)}`).toBe(true);
      }
    }
    expect(Number.isFinite(report.p99Ms) && report.p99Ms > 0).toBe(true);
    for (const name of ['gateway legacy', 'gateway api2']) {
      const rss = report.rssMb[name];
      expect(rss && rss.start > 0 && rss.end > 0 && Number.isFinite(rss.growthPct), name).toBe(true);
    }

    expect(run.stdout).toMatch(/^errors {5}0 /m);
    expect(run.stdout).toMatch(/p99 [\d.]+ ms/);
    expect(run.stdout).toMatch(/^gateway legacy +[\d.]+ +[\d.]+ +[\d.]+ +[+-][\d.]+ %/m);
    expect(run.stdout).toMatch(/^gateway api2 +[\d.]+ +[\d.]+ +[\d.]+ +[+-][\d.]+ %/m);
    expect(run.stdout).toContain('gateway RSS growth (target < 10 %)');
  });
});
