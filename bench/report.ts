/**
 * From the measurements to the report: the median per scenario over the rounds, and the ratios
 * against their targets (PASS/MISS, reported, never asserted). Printed by bench/report-text.ts.
 */
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { Measurement } from './load.js';
import type { CacheFill } from './probe.js';
import type { Scenario } from './scenarios.js';

export interface ScenarioSummary {
  readonly id: string;
  readonly label: string;
  /** A reference the gateway is compared with, not the gateway. */
  readonly anchor: boolean;
  /** Medians over the rounds. */
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU µs per request of the process under test (its process tree): median over the rounds, min, max. */
  readonly cpuUsPerRequest: number;
  readonly cpuMinUs: number;
  readonly cpuMaxUs: number;
  /** Bytes promoted to the old generation per request (median over the rounds; NaN for nginx). */
  readonly promotedBytesPerRequest: number;
  /** Summed over the rounds. */
  readonly errors: number;
  readonly rounds: readonly Measurement[];
}

export interface Ratio {
  readonly id: string;
  readonly label: string;
  readonly value: number;
  readonly unit: 'ratio' | 'ms' | 'MB' | 'KB';
  readonly target: { readonly op: '<='; readonly value: number };
  readonly pass: boolean;
  readonly note?: string;
}

/** What bench/cache-memory-child.ts measured: heap + external memory left after inserting every page (`grewBytes`). */
export interface CacheMemory {
  readonly pages: number;
  readonly capBytes: number;
  readonly entries: number;
  readonly storedBytes: number;
  readonly grewBytes: number;
  readonly evicted: number;
}

/**
 * Latency without queueing: direct and pass-through over one connection, one request at a time.
 * With 50 connections a single-threaded process answers requests that arrive together one after
 * the other, so the p99 there grows with the time each one takes times the queue (Little's law)
 * and says more about req/s than about the time the gateway adds to one request; this says the latter.
 */
export interface UnqueuedLatency {
  readonly connections: 1;
  readonly direct: { readonly p50Ms: number; readonly p99Ms: number };
  readonly passthrough: { readonly p50Ms: number; readonly p99Ms: number };
}

export interface BenchReport {
  readonly cacheMemory: CacheMemory;
  readonly unqueued: UnqueuedLatency;
  readonly command: string;
  readonly machine: ReturnType<typeof machine>;
  readonly settings: { readonly durationS: number; readonly connections: number; readonly rounds: number; readonly warmupS: number; readonly smoke: boolean; readonly request: string };
  readonly pages: { readonly legacyBytes: number; readonly api2Bytes: number; readonly mappedBytes: number; readonly entries: number };
  readonly scenarios: readonly ScenarioSummary[];
  readonly ratios: readonly Ratio[];
  /** Anchors skipped and why (nginx not on PATH). */
  readonly notes: readonly string[];
  readonly rss: ReadonlyArray<{ readonly target: string; readonly bytes: number }>;
  readonly cacheFill: CacheFill;
  readonly startedAt: string;
  readonly seconds: number;
}

export function machine() {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    node: process.version,
    os: `${process.platform} ${release()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: loadavg()[0] ?? 0,
  };
}

export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(scenario: Scenario, rounds: readonly Measurement[]): ScenarioSummary {
  const cpu = rounds.map((m) => m.cpuUsPerRequest ?? Number.NaN).filter((v) => !Number.isNaN(v));
  return {
    id: scenario.id,
    label: scenario.label,
    anchor: scenario.anchor === true,
    reqPerSec: median(rounds.map((m) => m.reqPerSec)),
    p50Ms: median(rounds.map((m) => m.p50Ms)),
    p99Ms: median(rounds.map((m) => m.p99Ms)),
    cpuUsPerRequest: median(cpu),
    cpuMinUs: cpu.length > 0 ? Math.min(...cpu) : Number.NaN,
    cpuMaxUs: cpu.length > 0 ? Math.max(...cpu) : Number.NaN,
    promotedBytesPerRequest: median(rounds.map((m) => m.promotedBytesPerRequest ?? Number.NaN)),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    rounds,
  };
}

/**
 * A CPU ratio: the median of its per-round ratios. The gateway and its anchor are measured side by
 * side in every round (MEASURING_GROUPS), so each round's ratio compares two windows of the same
 * machine state; the median drops the rounds a slow spell split.
 */
export function cpuRatio(gateway: ScenarioSummary | undefined, anchor: ScenarioSummary | undefined): number {
  if (!gateway || !anchor) return Number.NaN;
  return median(gateway.rounds.map((m, round) => (m.cpuUsPerRequest ?? Number.NaN) / (anchor.rounds[round]?.cpuUsPerRequest ?? Number.NaN)));
}

/** The cache gateway's RSS after the bench (cache filled to `cacheBytes`, its `cache.maxBytes`) and the floor's, what Node, Hono and undici hold on their own. */
export interface CacheRss {
  readonly rssBytes: number;
  readonly floorRssBytes: number;
  readonly cacheBytes: number;
  readonly cacheFull: boolean;
}

export function ratios(scenarios: readonly ScenarioSummary[], unqueued: UnqueuedLatency, cache: CacheRss): Ratio[] {
  const of = (id: string) => scenarios.find((s) => s.id === id);
  const ratio = (id: string, label: string, value: number, unit: Ratio['unit'], target: number, note?: string): Ratio => ({ id, label, value, unit, target: { op: '<=', value: target }, pass: value <= target, ...(note ? { note } : {}) });
  const cpu = (gateway: string, anchor: string, label: string, target: number) => ratio(`cpu:${gateway}/${anchor}`, label, cpuRatio(of(gateway), of(anchor)), 'ratio', target);
  return [
    cpu('passthrough', 'floor-log', 'pass-through, log on / floor + one log line (CPU)', 1.25),
    cpu('passthrough-nolog', 'floor', 'pass-through, log off / floor (CPU)', 1.25),
    cpu('passthrough', 'fastify', 'pass-through, log on / @fastify/http-proxy (CPU)', 1),
    cpu('cache-hit', 'hono-log', 'cache hit, log on / bare Hono + one log line (CPU)', 1.5),
    cpu('cache-hit-nolog', 'hono', 'cache hit, log off / bare Hono (CPU)', 1.5),
    cpu('api2-mapped', 'floor-api2', 'api2-mapped search, cache off / https floor to the api2 page (CPU)', 2),
    ...(of('nginx') ? [cpu('cache-hit', 'nginx', 'cache hit, log on / nginx proxy_pass (CPU)', 2)] : []),
    // DECISION: "should not rise" is judged against the round-to-round noise of CPU per request (~10 %).
    cpu('passthrough-2w', 'passthrough', 'pass-through, 2 workers / 1 worker (CPU per request)', 1.1),
    ratio('promoted-kb-per-request', 'promoted per request, pass-through log on (KB)', (of('passthrough')?.promotedBytesPerRequest ?? Number.NaN) / 1000, 'KB', 0.5),
    ratio('unqueued-p50-added-ms', 'p50 added over one connection (pass-through - direct)', unqueued.passthrough.p50Ms - unqueued.direct.p50Ms, 'ms', 0.3),
    ratio('unqueued-p99-added-ms', 'p99 added over one connection (pass-through - direct)', unqueued.passthrough.p99Ms - unqueued.direct.p99Ms, 'ms', 1),
    ratio(
      'rss-over-cache-and-floor-mb',
      'RSS of the cache gateway after the bench - cache.maxBytes - RSS of the floor',
      (cache.rssBytes - cache.cacheBytes - cache.floorRssBytes) / 1_000_000,
      'MB',
      25,
      cache.cacheFull ? undefined : 'cache NOT full (fill budget ran out): not the figure the target is about',
    ),
  ];
}
