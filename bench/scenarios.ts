/**
 * What is measured: the processes under test (targets) with the gateway config of each, and the
 * scenarios, each one target hit with `GET /recipes?title_kw=soup&pg=1&rpp=50&api_key=bench-key`.
 *
 * Every gateway logs to /dev/null (the whole pino path runs, the disk does not) except the
 * logging-off ones; only the cache-hit gateways have their cache on (default size; a one-hour TTL
 * so the warmed page stays a HIT for the whole run). The anchors that log write the same kind of
 * line to /dev/null the same way (bench/anchor-log.ts).
 */
import { forkChild } from './children.js';
import type { Child, ForkOptions, UpstreamInfo } from './children.js';

export type TargetId =
  | 'upstream'
  | 'gw-legacy'
  | 'gw-legacy-nolog'
  | 'gw-api2'
  | 'gw-cache'
  | 'gw-cache-nolog'
  | 'gw-legacy-2w'
  | 'floor'
  | 'floor-log'
  | 'floor-api2'
  | 'fastify'
  | 'hono'
  | 'hono-log'
  | 'nginx';

export type ScenarioId =
  | 'direct'
  | 'passthrough'
  | 'passthrough-nolog'
  | 'api2-mapped'
  | 'cache-hit'
  | 'cache-hit-nolog'
  | 'passthrough-2w'
  | 'floor'
  | 'floor-log'
  | 'floor-api2'
  | 'fastify'
  | 'hono'
  | 'hono-log'
  | 'nginx';

export interface Scenario {
  readonly id: ScenarioId;
  readonly label: string;
  readonly target: TargetId;
  /** Answers must carry `X-Cache: HIT` (the cache is warmed and probed first). */
  readonly cacheHit: boolean;
  /** A reference the gateway is compared with, not the gateway. */
  readonly anchor: boolean;
}

/** The anchors (bench/anchors.ts) beside the gateway scenarios, each its own process. */
export const SCENARIOS: readonly Scenario[] = [
  { id: 'direct', label: 'direct upstream', target: 'upstream', cacheHit: false, anchor: true },
  { id: 'passthrough', label: 'gateway pass-through (legacy, log on)', target: 'gw-legacy', cacheHit: false, anchor: false },
  { id: 'passthrough-nolog', label: 'gateway pass-through (legacy, log off)', target: 'gw-legacy-nolog', cacheHit: false, anchor: false },
  { id: 'api2-mapped', label: 'api2-mapped search, cache off', target: 'gw-api2', cacheHit: false, anchor: false },
  { id: 'cache-hit', label: 'cache hit (legacy, log on)', target: 'gw-cache', cacheHit: true, anchor: false },
  { id: 'cache-hit-nolog', label: 'cache hit (legacy, log off)', target: 'gw-cache-nolog', cacheHit: true, anchor: false },
  { id: 'passthrough-2w', label: 'gateway pass-through, log on, 2 workers', target: 'gw-legacy-2w', cacheHit: false, anchor: false },
  { id: 'floor', label: 'floor: Hono + undici dispatch', target: 'floor', cacheHit: false, anchor: true },
  { id: 'floor-log', label: 'floor + one log line', target: 'floor-log', cacheHit: false, anchor: true },
  { id: 'floor-api2', label: 'https floor: the same, to the api2 page, one log line', target: 'floor-api2', cacheHit: false, anchor: true },
  { id: 'fastify', label: '@fastify/http-proxy', target: 'fastify', cacheHit: false, anchor: true },
  { id: 'hono', label: 'bare Hono, same bytes from memory', target: 'hono', cacheHit: false, anchor: true },
  { id: 'hono-log', label: 'bare Hono + one log line', target: 'hono-log', cacheHit: false, anchor: true },
  { id: 'nginx', label: 'nginx proxy_pass', target: 'nginx', cacheHit: false, anchor: true },
];

/**
 * How scenarios are measured, round after round: in groups, each gateway scenario beside the anchor
 * its ratio divides by, so a slow spell of this shared machine (about a minute, lifting everything
 * in it 1.5-2x) lifts a ratio's numerator and denominator alike. Each ratio is the median of its
 * per-round ratios (bench/report.ts). Rounds rotate the groups and reverse the order inside each
 * (bench/runner.ts `roundOrder`), so no scenario is always first.
 */
export const MEASURING_GROUPS: ReadonlyArray<readonly ScenarioId[]> = [
  ['floor-log', 'passthrough', 'fastify', 'passthrough-2w'],
  ['hono-log', 'cache-hit', 'nginx'],
  ['hono', 'cache-hit-nolog'],
  ['floor', 'passthrough-nolog', 'direct'],
  ['floor-api2', 'api2-mapped'],
];

export const REQUEST_HEADERS: Readonly<Record<string, string>> = { accept: 'application/json' };

export type GatewayTarget = 'gw-legacy' | 'gw-legacy-nolog' | 'gw-api2' | 'gw-cache' | 'gw-cache-nolog' | 'gw-legacy-2w';
export const GATEWAY_TARGETS: readonly GatewayTarget[] = ['gw-legacy', 'gw-legacy-nolog', 'gw-api2', 'gw-cache', 'gw-cache-nolog', 'gw-legacy-2w'];

/** The config document of each gateway under test (validated by parseConfig in the child). */
/** The anchors `bench:profile` and `bench:gc` can start on their own: entry and spec, given the legacy upstream. */
const ANCHOR_CHILDREN: Readonly<Record<string, { entry: string; spec: (upstream: string) => unknown }>> = {
  floor: { entry: './floor-child.ts', spec: (upstream) => ({ upstream, log: false }) },
  'floor-log': { entry: './floor-child.ts', spec: (upstream) => ({ upstream, log: true }) },
  hono: { entry: './hono-child.ts', spec: () => ({ log: false }) },
  'hono-log': { entry: './hono-child.ts', spec: () => ({ log: true }) },
};

/** Starts one process under test by name (a gateway target or an anchor above), for bench:profile and bench:gc. */
export function forkTarget(target: string, upstreams: UpstreamInfo, options: ForkOptions): Promise<Child> {
  const anchor = ANCHOR_CHILDREN[target];
  if (anchor) return forkChild(target, anchor.entry, anchor.spec(upstreams.legacyOrigin), options);
  if (!(GATEWAY_TARGETS as readonly string[]).includes(target)) throw new Error(`--target: one of ${[...GATEWAY_TARGETS, ...Object.keys(ANCHOR_CHILDREN)].join(', ')}`);
  return forkChild(target, './gateway-child.ts', { config: gatewayConfig(target as GatewayTarget, upstreams) }, options);
}

export function gatewayConfig(target: GatewayTarget, upstreams: UpstreamInfo): Record<string, unknown> {
  const log = { enabled: !target.endsWith('-nolog'), destination: '/dev/null' };
  const base = {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: upstreams.legacyOrigin } } as Record<string, unknown>,
    observability: { log },
    cache: { enabled: false },
  };
  switch (target) {
    case 'gw-legacy':
    case 'gw-legacy-nolog':
      return base;
    case 'gw-legacy-2w':
      return { ...base, workers: 2 };
    case 'gw-api2':
      return {
        ...base,
        upstreams: { ...base.upstreams, api2: { baseUrl: upstreams.api2Origin, caFile: upstreams.caFile } },
        routes: { 'recipes.search': { mode: 'api2' } },
      };
    case 'gw-cache':
    case 'gw-cache-nolog':
      return {
        ...base,
        cache: { enabled: true },
        routes: { 'recipes.search': { cache: { ttlMs: 3_600_000 } } },
      };
  }
}
