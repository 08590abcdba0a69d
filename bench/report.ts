/**
 * From measurements to the report: medians per scenario over the rounds, and the ratios against
 * their targets (PASS/MISS, never asserted). Printed by bench/report-text.ts.
 */
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { Measurement } from './load.js';
import type { Scenario } from './scenarios.js';

export type ScenarioSummary = ReturnType<typeof summarize>;
export type Ratio = ReturnType<typeof ratios>[number];
type Latency = { readonly p50Ms: number; readonly p99Ms: number };

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

/** Medians over the rounds; CPU µs per request of the process tree with min and max; promoted bytes (NaN for nginx); errors summed. */
export function summarize(scenario: Scenario, rounds: readonly Measurement[]) {
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
function cpuRatio(gateway: ScenarioSummary | undefined, anchor: ScenarioSummary | undefined): number {
  if (!gateway || !anchor) return Number.NaN;
  return median(gateway.rounds.map((m, round) => (m.cpuUsPerRequest ?? Number.NaN) / (anchor.rounds[round]?.cpuUsPerRequest ?? Number.NaN)));
}

/**
 * `unqueued`: latency over one connection, direct and pass-through. `cache`: the cache gateway's RSS
 * after the bench (cache filled to `cacheBytes`, its `cache.maxBytes`) and the floor's, what Node,
 * Hono and undici hold on their own.
 */
export function ratios(
  scenarios: readonly ScenarioSummary[],
  unqueued: { direct: Latency; passthrough: Latency },
  cache: { rssBytes: number; floorRssBytes: number; cacheBytes: number; cacheFull: boolean },
) {
  const of = (id: string) => scenarios.find((s) => s.id === id);
  const ratio = (id: string, label: string, value: number, unit: 'ratio' | 'ms' | 'MB' | 'KB', target: number, note?: string) => {
    return { id, label, value, unit, target: { op: '<=' as const, value: target }, pass: value <= target, ...(note ? { note } : {}) };
  };
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
    // Issue 48: traces at a 1 % head ratio within 3 % of export off; at 100 % the figure is stated (no target but that it be measured).
    cpu('passthrough-traces-1pct', 'passthrough', 'pass-through, traces exported at 1 % / export off (CPU)', 1.03),
    cpu('passthrough-traces-100pct', 'passthrough', 'pass-through, traces exported at 100 % / export off (CPU)', 2),
    ratio('promoted-kb-per-request', 'promoted per request, pass-through log on (KB)', (of('passthrough')?.promotedBytesPerRequest ?? Number.NaN) / 1000, 'KB', 0.5),
    ratio('unqueued-p50-added-ms', 'p50 added over one connection (pass-through - direct)', unqueued.passthrough.p50Ms - unqueued.direct.p50Ms, 'ms', 0.3),
    ratio('unqueued-p99-added-ms', 'p99 added over one connection (pass-through - direct)', unqueued.passthrough.p99Ms - unqueued.direct.p99Ms, 'ms', 1),
    ratio('rss-over-cache-and-floor-mb', 'RSS of the cache gateway after the bench - cache.maxBytes - RSS of the floor', (cache.rssBytes - cache.cacheBytes - cache.floorRssBytes) / 1_000_000, 'MB', 25,
      cache.cacheFull ? undefined : 'cache NOT full (fill budget ran out): not the figure the target is about'),
  ];
}
