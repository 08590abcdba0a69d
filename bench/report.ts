/**
 * From the measurements to what is printed and written: the median per scenario over the rounds,
 * the ratios against their targets (PASS/MISS, reported, never asserted), the machine, the table.
 */
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { CacheFill } from './cache-fill.js';
import type { Measurement } from './load.js';
import type { ScenarioId } from './scenarios.js';

export interface ScenarioSummary {
  readonly id: ScenarioId;
  readonly label: string;
  /** A reference the gateway is compared with (bench/anchors.ts), not the gateway. */
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

export type RatioId =
  | 'cpu:passthrough/floor-log'
  | 'cpu:passthrough-nolog/floor'
  | 'cpu:passthrough/fastify'
  | 'cpu:cache-hit/hono-log'
  | 'cpu:cache-hit-nolog/hono'
  | 'cpu:api2-mapped/floor-api2'
  | 'cpu:cache-hit/nginx'
  | 'cpu:passthrough-2w/passthrough'
  | 'promoted-kb-per-request'
  | 'unqueued-p50-added-ms'
  | 'unqueued-p99-added-ms'
  | 'rss-over-cache-and-floor-mb';

/** The targets of issue 15, from CPU per request (medians), promoted bytes, latency and memory. */
export interface Ratio {
  readonly id: RatioId;
  readonly label: string;
  readonly value: number;
  readonly unit: 'ratio' | 'ms' | 'MB' | 'KB';
  readonly target: { readonly op: '<='; readonly value: number };
  readonly pass: boolean;
  readonly note?: string;
}

export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly node: string;
  readonly os: string;
  readonly memoryGiB: number;
  readonly loadAverage1m: number;
}

export interface RssReading {
  readonly target: string;
  readonly bytes: number;
}

export interface CacheMemory {
  readonly pages: number;
  readonly capBytes: number;
  readonly entries: number;
  readonly storedBytes: number;
  /** Heap + external memory left after inserting every page (after full collections). */
  readonly grewBytes: number;
  readonly evicted: number;
}

/**
 * Latency without queueing: direct and pass-through over one connection, one request at a time.
 * With 50 connections a single-threaded process answers requests that arrive together one after
 * the other, so the p99 there grows with the time each one takes times the queue (Little's law:
 * p50 ≈ connections / req/s) and says more about req/s than about the time the gateway adds to
 * one request; this says the latter. Reported, not judged (the target is for 50 connections).
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
  readonly machine: Machine;
  readonly settings: {
    readonly durationS: number;
    readonly connections: number;
    readonly rounds: number;
    readonly warmupS: number;
    readonly smoke: boolean;
    readonly request: string;
  };
  readonly pages: { readonly legacyBytes: number; readonly api2Bytes: number; readonly mappedBytes: number; readonly entries: number };
  readonly scenarios: readonly ScenarioSummary[];
  readonly ratios: readonly Ratio[];
  /** Anchors skipped and why (nginx not on PATH). */
  readonly notes: readonly string[];
  readonly rss: readonly RssReading[];
  readonly cacheFill: CacheFill;
  readonly startedAt: string;
  readonly seconds: number;
}

export function machine(): Machine {
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
  const sorted = [...values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function summarize(id: ScenarioId, label: string, anchor: boolean, rounds: readonly Measurement[]): ScenarioSummary {
  const cpu = rounds.map((m) => m.cpuUsPerRequest ?? Number.NaN).filter((v) => !Number.isNaN(v));
  return {
    id,
    label,
    anchor,
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

const MB = 1_000_000;

export interface CacheRss {
  /** RSS of the cache gateway after the bench, cache filled. */
  readonly rssBytes: number;
  /** RSS of the floor anchor after the bench: what Node, Hono and undici hold on their own. */
  readonly floorRssBytes: number;
  /** Its configured `cache.maxBytes`. */
  readonly cacheBytes: number;
  readonly cacheFull: boolean;
}

/**
 * A CPU ratio: the median of its per-round ratios. The gateway and its anchor are measured side by
 * side in every round (MEASURING_GROUPS), so each round's ratio compares two windows of the same
 * machine state; the median drops the rounds a slow spell split.
 */
export function cpuRatio(gateway: ScenarioSummary | undefined, anchor: ScenarioSummary | undefined): number {
  if (!gateway || !anchor) return Number.NaN;
  const perRound = gateway.rounds.map((m, round) => (m.cpuUsPerRequest ?? Number.NaN) / (anchor.rounds[round]?.cpuUsPerRequest ?? Number.NaN));
  return median(perRound);
}

export function ratios(scenarios: readonly ScenarioSummary[], unqueued: UnqueuedLatency, cache: CacheRss): Ratio[] {
  const of = (id: ScenarioId) => scenarios.find((s) => s.id === id);
  const cpu = (gateway: ScenarioId, anchor: ScenarioId): number => cpuRatio(of(gateway), of(anchor));
  const ratio = (id: RatioId, label: string, value: number, unit: Ratio['unit'], target: number, note?: string): Ratio => ({
    id,
    label,
    value,
    unit,
    target: { op: '<=', value: target },
    pass: value <= target,
    ...(note ? { note } : {}),
  });
  const pass = of('passthrough');
  return [
    ratio('cpu:passthrough/floor-log', 'pass-through, log on / floor + one log line (CPU)', cpu('passthrough', 'floor-log'), 'ratio', 1.25),
    ratio('cpu:passthrough-nolog/floor', 'pass-through, log off / floor (CPU)', cpu('passthrough-nolog', 'floor'), 'ratio', 1.25),
    ratio('cpu:passthrough/fastify', 'pass-through, log on / @fastify/http-proxy (CPU)', cpu('passthrough', 'fastify'), 'ratio', 1),
    ratio('cpu:cache-hit/hono-log', 'cache hit, log on / bare Hono + one log line (CPU)', cpu('cache-hit', 'hono-log'), 'ratio', 1.5),
    ratio('cpu:cache-hit-nolog/hono', 'cache hit, log off / bare Hono (CPU)', cpu('cache-hit-nolog', 'hono'), 'ratio', 1.5),
    ratio('cpu:api2-mapped/floor-api2', 'api2-mapped search, cache off / https floor to the api2 page (CPU)', cpu('api2-mapped', 'floor-api2'), 'ratio', 2),
    ...(of('nginx') ? [ratio('cpu:cache-hit/nginx', 'cache hit, log on / nginx proxy_pass (CPU)', cpu('cache-hit', 'nginx'), 'ratio', 2)] : []),
    // DECISION: "should not rise" is judged against the round-to-round noise of CPU per request (~10 %).
    ratio('cpu:passthrough-2w/passthrough', 'pass-through, 2 workers / 1 worker (CPU per request)', cpu('passthrough-2w', 'passthrough'), 'ratio', 1.1),
    ratio('promoted-kb-per-request', 'promoted per request, pass-through log on (KB)', (pass?.promotedBytesPerRequest ?? Number.NaN) / 1000, 'KB', 0.5),
    ratio('unqueued-p50-added-ms', 'p50 added over one connection (pass-through - direct)', unqueued.passthrough.p50Ms - unqueued.direct.p50Ms, 'ms', 0.3),
    ratio('unqueued-p99-added-ms', 'p99 added over one connection (pass-through - direct)', unqueued.passthrough.p99Ms - unqueued.direct.p99Ms, 'ms', 1),
    ratio(
      'rss-over-cache-and-floor-mb',
      'RSS of the cache gateway after the bench - cache.maxBytes - RSS of the floor',
      (cache.rssBytes - cache.cacheBytes - cache.floorRssBytes) / MB,
      'MB',
      25,
      cache.cacheFull ? undefined : 'cache NOT full (fill budget ran out): not the figure the target is about',
    ),
  ];
}
