/**
 * The benchmark run: starts the processes under test (canned upstreams, the gateways, the anchors
 * of bench/anchors.ts, each its own process), checks each target answers what its scenario
 * expects, warms up, measures the scenarios in rounds with the order rotated (drift hits all
 * alike), measures one-connection latency, fills the cache gateway's cache and reads the RSS,
 * then stops every child, also on error.
 */
import { parseConfig } from '../src/config/schema.js';
import { fillCache } from './cache-fill.js';
import type { CacheFill } from './cache-fill.js';
import { forkChild, forkUpstreams } from './children.js';
import { measureCacheMemory } from './cache-memory.js';
import type { Child } from './children.js';
import type { Measurement } from './load.js';
import { measureTarget } from './measure.js';
import { startAnchors } from './anchors.js';
import type { BenchOptions } from './options.js';
import { closeProbes, probe } from './probe.js';
import { machine, median, ratios, summarize } from './report.js';
import type { BenchReport, RssReading, UnqueuedLatency } from './report.js';
import { GATEWAY_TARGETS, MEASURING_GROUPS, REQUEST_HEADERS, SCENARIOS, gatewayConfig } from './scenarios.js';
import type { Scenario, ScenarioId, TargetId } from './scenarios.js';
import { SEARCH_TARGET } from './pages.js';

const FILL_CONCURRENCY = 16;

type Log = (line: string) => void;

/** Scenario order of a round: the groups rotated by one per round, each group's order reversed every other round. */
export function roundOrder<T>(groups: ReadonlyArray<readonly T[]>, round: number): T[] {
  const offset = round % groups.length;
  const rotated = [...groups.slice(offset), ...groups.slice(0, offset)];
  return rotated.flatMap((group) => (round % 2 === 0 ? [...group] : [...group].reverse()));
}

function text(info: Readonly<Record<string, string | number>>, key: string): string {
  const value = info[key];
  if (typeof value !== 'string') throw new Error(`child info lacks ${key}`);
  return value;
}

function count(info: Readonly<Record<string, string | number>>, key: string): number {
  const value = info[key];
  if (typeof value !== 'number') throw new Error(`child info lacks ${key}`);
  return value;
}

export async function runBench(options: BenchOptions, log: Log = (line) => process.stderr.write(`${line}\n`)): Promise<BenchReport> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const host = machine();
  const children: Child[] = [];
  try {
    log('starting canned upstreams…');
    const { child: upstreams, info: upstreamInfo } = await forkUpstreams();
    children.push(upstreams);

    log('starting gateways and anchors…');
    const processes = new Map<TargetId, Child>([['upstream', upstreams]]);
    const gatewayStarts = GATEWAY_TARGETS.map(async (target) => {
      const execArgv = target === (process.env['BENCH_PROFILE_TARGET'] ?? 'gw-legacy') && options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
      const child = await forkChild(target, './gateway-child.ts', { config: gatewayConfig(target, upstreamInfo) }, { execArgv, gcTrace: true });
      children.push(child);
      processes.set(target, child);
    });
    const anchorStart = startAnchors(upstreamInfo, (child) => children.push(child));
    const outcomes = await Promise.allSettled([...gatewayStarts, anchorStart]);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
    const anchors = await anchorStart;
    for (const [target, child] of anchors.children) processes.set(target, child);
    for (const note of anchors.notes) log(`note: ${note}`);
    const measured = SCENARIOS.filter((s) => processes.has(s.target));

    const urlOf = (scenario: Scenario): string => {
      const origin = processes.get(scenario.target)?.info['origin'] ?? (scenario.target === 'upstream' ? upstreamInfo.legacyOrigin : undefined);
      if (typeof origin !== 'string') throw new Error(`no origin for ${scenario.target}`);
      return origin + SEARCH_TARGET;
    };

    // Each target must answer 200 with a page of the expected size before it is measured.
    const legacyBytes = count(upstreams.info, 'legacyBytes');
    let mappedBytes = Number.NaN;
    for (const scenario of measured) {
      const answer = await probe(urlOf(scenario), REQUEST_HEADERS);
      if (answer.status !== 200) throw new Error(`${scenario.id}: probe answered ${answer.status}`);
      if (scenario.id === 'api2-mapped') mappedBytes = answer.bytes;
      else if (scenario.id === 'floor-api2') {
        if (answer.bytes !== count(upstreams.info, 'api2Bytes')) throw new Error(`floor-api2: probe page is ${answer.bytes} B, expected the api2 page`);
      } else if (answer.bytes !== legacyBytes) throw new Error(`${scenario.id}: probe page is ${answer.bytes} B, expected ${legacyBytes} B`);
    }

    const ensureHit = async (scenario: Scenario) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const answer = await probe(urlOf(scenario), REQUEST_HEADERS);
        if (answer.status === 200 && answer.xCache === 'HIT') return;
      }
      throw new Error(`${scenario.id}: the warmed page is not a cache HIT`);
    };

    const measure = async (scenario: Scenario, durationS: number, connections = options.connections): Promise<Measurement> => {
      if (scenario.cacheHit) await ensureHit(scenario);
      let result = await measureTarget(processes.get(scenario.target), urlOf(scenario), connections, durationS);
      // A busy machine can leave a short run without a single answer: measure again rather than report nothing.
      for (let retry = 1; result.requests === 0 && retry <= 3; retry++) {
        log(`warning: ${scenario.id}: no answer in ${durationS} s, measuring again (${retry}/3)`);
        result = await measureTarget(processes.get(scenario.target), urlOf(scenario), connections, durationS * 2 ** retry);
      }
      if (scenario.cacheHit) {
        const after = await probe(urlOf(scenario), REQUEST_HEADERS);
        if (after.xCache !== 'HIT') log(`warning: ${scenario.id}: X-Cache ${after.xCache ?? 'absent'} after the load`);
      }
      return result;
    };

    if (options.warmupS > 0) {
      log(`warm-up: ${options.warmupS} s per scenario…`);
      for (const scenario of measured) await measure(scenario, options.warmupS);
    }

    const rounds = new Map<ScenarioId, Measurement[]>(measured.map((s) => [s.id, []]));
    const groups = MEASURING_GROUPS.map((group) => group.flatMap((id) => measured.filter((s) => s.id === id)));
    if (groups.flat().length !== measured.length) throw new Error('a scenario is missing from MEASURING_GROUPS (bench/scenarios.ts)');
    for (let round = 0; round < options.rounds; round++) {
      for (const scenario of roundOrder(groups, round)) {
        const result = await measure(scenario, options.durationS);
        rounds.get(scenario.id)?.push(result);
        log(
          `round ${round + 1}/${options.rounds} ${scenario.id.padEnd(18)} ${result.reqPerSec.toFixed(0).padStart(7)} req/s  CPU ${(result.cpuUsPerRequest ?? Number.NaN).toFixed(0).padStart(4)} µs/req  promoted ${(result.promotedBytesPerRequest ?? Number.NaN).toFixed(0).padStart(5)} B/req  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  errors ${result.errors}`,
        );
      }
    }
    const scenarios = measured.map((s) => summarize(s.id, s.label, s.anchor, rounds.get(s.id) ?? []));

    // Latency without queueing: one connection, direct and pass-through alternated, median p50/p99.
    const passthroughScenario = SCENARIOS.find((s) => s.id === 'passthrough');
    const directScenario = SCENARIOS.find((s) => s.id === 'direct');
    if (!passthroughScenario || !directScenario) throw new Error('direct and pass-through scenarios are required');
    const single: Record<'direct' | 'passthrough', Measurement[]> = { direct: [], passthrough: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const scenario of round % 2 === 0 ? [directScenario, passthroughScenario] : [passthroughScenario, directScenario]) {
        const result = await measure(scenario, options.durationS / 2, 1);
        single[scenario.id as 'direct' | 'passthrough'].push(result);
        log(`one connection ${round + 1}/${options.rounds} ${scenario.id.padEnd(12)} p50 ${result.p50Ms.toFixed(3)} ms  p99 ${result.p99Ms.toFixed(3)} ms  errors ${result.errors}`);
      }
    }
    const latencyOf = (runs: readonly Measurement[]) => ({ p50Ms: median(runs.map((m) => m.p50Ms)), p99Ms: median(runs.map((m) => m.p99Ms)) });
    const unqueued: UnqueuedLatency = { connections: 1, direct: latencyOf(single.direct), passthrough: latencyOf(single.passthrough) };

    // RSS: the cache gateway with its cache filled to the default byte bound.
    const cacheGateway = processes.get('gw-cache');
    if (!cacheGateway) throw new Error('cache gateway missing');
    const defaults = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } } });
    if (!defaults.ok) throw new Error(defaults.errors.join('\n'));
    log(`filling the cache gateway's cache (${defaults.config.cache.maxBytes} B bound)…`);
    const cacheFill: CacheFill = await fillCache({
      origin: text(cacheGateway.info, 'origin'),
      headers: REQUEST_HEADERS,
      pageBytes: legacyBytes,
      maxBytes: defaults.config.cache.maxBytes,
      maxEntries: defaults.config.cache.maxEntries,
      concurrency: FILL_CONCURRENCY,
      budgetMs: options.fillBudgetMs,
    });
    // Every child, the cache gateway first (the others give the baseline of a node + tsx process).
    const rss: RssReading[] = [{ target: 'gw-cache', bytes: await cacheGateway.rss() }];
    for (const child of children) if (child !== cacheGateway) rss.push({ target: child.name, bytes: await child.rss() });
    const cacheRss = rss[0]?.bytes ?? Number.NaN;
    const cacheBytes = defaults.config.cache.maxBytes;

    log('cache memory: 100,000 distinct pages into a 10 MB cache…');
    const cacheMemory = await measureCacheMemory();

    return {
      cacheMemory,
      command: options.command,
      machine: host,
      settings: {
        durationS: options.durationS,
        connections: options.connections,
        rounds: options.rounds,
        warmupS: options.warmupS,
        smoke: options.smoke,
        request: SEARCH_TARGET,
      },
      pages: { legacyBytes, api2Bytes: count(upstreams.info, 'api2Bytes'), mappedBytes, entries: count(upstreams.info, 'entries') },
      scenarios,
      ratios: ratios(scenarios, unqueued, { rssBytes: cacheRss, floorRssBytes: rss.find((r) => r.target === 'floor')?.bytes ?? Number.NaN, cacheBytes, cacheFull: cacheFill.full }),
      notes: anchors.notes,
      unqueued,
      rss,
      cacheFill,
      startedAt,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await Promise.allSettled(children.map((child) => child.kill()));
    await closeProbes();
  }
}
