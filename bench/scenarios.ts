/**
 * The processes under test (targets), how each starts, and the scenarios: each one target hit with
 * SEARCH_TARGET. What each stands for: docs/benchmarks-anchors.md and each child's header.
 */
import { forkChild } from './children.js';
import type { Child, ForkOptions, UpstreamInfo } from './children.js';
import { findNginx, startNginx } from './nginx.js';

export type GatewayTarget = 'gw-legacy' | 'gw-legacy-nolog' | 'gw-api2' | 'gw-cache' | 'gw-cache-nolog' | 'gw-legacy-2w' | 'gw-traces-1pct' | 'gw-traces-100pct';
export const GATEWAY_TARGETS: readonly GatewayTarget[] = ['gw-legacy', 'gw-legacy-nolog', 'gw-api2', 'gw-cache', 'gw-cache-nolog', 'gw-legacy-2w', 'gw-traces-1pct', 'gw-traces-100pct'];

type AnchorTarget = 'floor' | 'floor-log' | 'floor-api2' | 'fastify' | 'hono' | 'hono-log';

/** The Node anchors: entry and start spec, given the canned upstreams. */
const ANCHORS: Readonly<Record<AnchorTarget, (up: UpstreamInfo) => readonly [string, unknown]>> = {
  floor: (up: UpstreamInfo) => ['./floor-child.ts', { upstream: up.legacyOrigin, log: false }],
  'floor-log': (up: UpstreamInfo) => ['./floor-child.ts', { upstream: up.legacyOrigin, log: true }],
  'floor-api2': (up: UpstreamInfo) => ['./floor-child.ts', { upstream: up.api2Origin, log: true, caFile: up.caFile }],
  fastify: (up: UpstreamInfo) => ['./fastify-child.ts', { upstream: up.legacyOrigin }],
  hono: () => ['./hono-child.ts', { log: false }],
  'hono-log': () => ['./hono-child.ts', { log: true }],
};

/** `upstream` is the canned upstreams' own process (bench/upstreams-child.ts). */
export type TargetId = 'upstream' | GatewayTarget | AnchorTarget | 'nginx';

/** `cacheHit`: answers must carry `X-Cache: HIT` (warmed and probed first); `anchor`: a reference the gateway is compared with. */
export type Scenario = { readonly id: string; readonly label: string; readonly target: TargetId; readonly cacheHit?: true; readonly anchor?: true };

export const SCENARIOS: readonly Scenario[] = [
  { id: 'direct', label: 'direct upstream', target: 'upstream', anchor: true },
  { id: 'passthrough', label: 'gateway pass-through (legacy, log on)', target: 'gw-legacy' },
  { id: 'passthrough-nolog', label: 'gateway pass-through (legacy, log off)', target: 'gw-legacy-nolog' },
  { id: 'api2-mapped', label: 'api2-mapped search, cache off', target: 'gw-api2' },
  { id: 'cache-hit', label: 'cache hit (legacy, log on)', target: 'gw-cache', cacheHit: true },
  { id: 'cache-hit-nolog', label: 'cache hit (legacy, log off)', target: 'gw-cache-nolog', cacheHit: true },
  { id: 'passthrough-2w', label: 'gateway pass-through, log on, 2 workers', target: 'gw-legacy-2w' },
  { id: 'passthrough-traces-1pct', label: 'gateway pass-through, log on, traces exported at 1 %', target: 'gw-traces-1pct' },
  { id: 'passthrough-traces-100pct', label: 'gateway pass-through, log on, traces exported at 100 %', target: 'gw-traces-100pct' },
  { id: 'floor', label: 'floor: Hono + undici dispatch', target: 'floor', anchor: true },
  { id: 'floor-log', label: 'floor + one log line', target: 'floor-log', anchor: true },
  { id: 'floor-api2', label: 'https floor: the same, to the api2 page, one log line', target: 'floor-api2', anchor: true },
  { id: 'fastify', label: '@fastify/http-proxy', target: 'fastify', anchor: true },
  { id: 'hono', label: 'bare Hono, same bytes from memory', target: 'hono', anchor: true },
  { id: 'hono-log', label: 'bare Hono + one log line', target: 'hono-log', anchor: true },
  { id: 'nginx', label: 'nginx proxy_pass', target: 'nginx', anchor: true },
];

/** The scenarios `--scenarios` names (ids, bench/options.ts), in SCENARIOS' order; every one when none is named. */
export function chosenScenarios(ids: readonly string[] | undefined): readonly Scenario[] {
  if (ids === undefined) return SCENARIOS;
  const unknown = ids.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id));
  if (unknown.length > 0 || ids.length === 0) throw new Error(`--scenarios: ids from ${SCENARIOS.map((s) => s.id).join(', ')}, not ${JSON.stringify(ids.join(','))}`);
  return SCENARIOS.filter((scenario) => ids.includes(scenario.id));
}

/**
 * How scenarios are measured, round after round: in groups, each gateway scenario beside the anchor
 * its ratio divides by, so a slow spell of this shared machine (about a minute, lifting everything
 * in it 1.5-2x) lifts a ratio's numerator and denominator alike. Each ratio is the median of its
 * per-round ratios (bench/report.ts `cpuRatio`). Rounds rotate the groups and reverse the order
 * inside each (bench/runner.ts `roundOrder`), so no scenario is always first.
 */
export const MEASURING_GROUPS: ReadonlyArray<readonly string[]> = [
  ['floor-log', 'passthrough', 'fastify', 'passthrough-2w', 'passthrough-traces-1pct', 'passthrough-traces-100pct'],
  ['hono-log', 'cache-hit', 'nginx'],
  ['hono', 'cache-hit-nolog'],
  ['floor', 'passthrough-nolog', 'direct'],
  ['floor-api2', 'api2-mapped'],
];

/** The config document of each gateway under test (validated by parseConfig in the child). */
function gatewayConfig(target: GatewayTarget, upstreams: UpstreamInfo): Record<string, unknown> {
  const legacy = { legacy: { baseUrl: upstreams.legacyOrigin } };
  const log = { enabled: !target.endsWith('-nolog'), destination: '/dev/null' };
  // Every gateway sends the deprecation headers (issue 40: their cost is inside every ratio).
  const base = { listen: { host: '127.0.0.1', port: 0 }, upstreams: legacy, observability: { log }, cache: { enabled: false }, deprecation: { everyOperation: { deprecatedAt: '2026-12-01', sunsetAt: '2027-06-30', deprecationLink: 'https://developer.example.com/legacy' } } };
  if (target === 'gw-legacy-2w') return { ...base, workers: 2 };
  if (target === 'gw-traces-1pct' || target === 'gw-traces-100pct') {
    // Spans over OTLP/HTTP protobuf to the canned upstreams' receiver (its POST /v1/traces takes every export).
    const tracing = { enabled: true, endpoint: `${upstreams.legacyOrigin}/v1/traces`, headRatio: target === 'gw-traces-1pct' ? 0.01 : 1 };
    return { ...base, observability: { log, tracing } };
  }
  if (target === 'gw-api2') {
    const api2 = { baseUrl: upstreams.api2Origin, caFile: upstreams.caFile };
    return { ...base, upstreams: { ...legacy, api2 }, routes: { 'recipes.search': { mode: 'api2' } } };
  }
  if (target.startsWith('gw-cache')) return { ...base, cache: { enabled: true }, routes: { 'recipes.search': { cache: { ttlMs: 3_600_000 } } } };
  return base;
}

/** The targets one can start by name: every gateway and Node anchor, and nginx when it is on PATH. */
export const targetNames = (): string[] => [...GATEWAY_TARGETS, ...Object.keys(ANCHORS), ...(findNginx() ? ['nginx'] : [])];

/** Starts one process under test by name, against the canned upstreams; Node ones with their GC traced. */
export function startTarget(named: string, upstreams: UpstreamInfo, options: ForkOptions = { gcTrace: true }): Promise<Child> {
  // A scenario's id (as the bench prints it: `passthrough`) names its target too.
  const target = SCENARIOS.find((scenario) => scenario.id === named && scenario.target !== 'upstream')?.target ?? named;
  const nginx = target === 'nginx' ? findNginx() : undefined;
  if (nginx) return startNginx(nginx, upstreams.legacyOrigin);
  if ((GATEWAY_TARGETS as readonly string[]).includes(target)) return forkChild(target, './gateway-child.ts', { config: gatewayConfig(target as GatewayTarget, upstreams) }, options);
  const anchor = ANCHORS[target as AnchorTarget] as (typeof ANCHORS)[AnchorTarget] | undefined;
  if (!anchor) return Promise.reject(new Error(`--target: one of ${targetNames().join(', ')} (or a scenario's id: ${SCENARIOS.map((s) => s.id).join(', ')}), not ${JSON.stringify(named)}`));
  const [entry, spec] = anchor(upstreams);
  return forkChild(target, entry, spec, options);
}
