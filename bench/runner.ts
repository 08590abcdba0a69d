/**
 * The anchors run: starts every process under test, probes, warms up, measures in rounds
 * (MEASURING_GROUPS), then one-connection latency and RSS with the cache full; stops every child.
 */
import { parseConfig } from '../src/config/schema.js';
import { forkChild, forkUpstreams, stopAll } from './children.js';
import type { Child } from './children.js';
import type { Measurement } from './load.js';
import { measureTarget } from './load.js';
import type { Options } from './options.js';
import { SEARCH_TARGET } from './pages.js';
import { closeProbes, fillCache, probe } from './probe.js';
import { treeRssBytes } from './proc.js';
import { machine, median, ratios, summarize } from './report.js';
import type { CacheMemory } from './cache-memory-child.js';
import { MEASURING_GROUPS, SCENARIOS, chosenScenarios, startTarget, targetNames } from './scenarios.js';
import type { Scenario } from './scenarios.js';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Scenario order of a round: the groups rotated by one per round, each group's order reversed every other round. */
function roundOrder<T>(groups: ReadonlyArray<readonly T[]>, round: number): T[] {
  const offset = round % groups.length;
  const rotated = [...groups.slice(offset), ...groups.slice(0, offset)];
  return rotated.flatMap((group) => (round % 2 === 0 ? [...group] : [...group].reverse()));
}

export type BenchReport = Awaited<ReturnType<typeof runBench>>;

export async function runBench(options: Options) {
  const started = Date.now();
  const host = machine();
  try {
    log('starting canned upstreams, gateways and anchors…');
    const { child: upstreams, info: upstreamInfo } = await forkUpstreams();
    const processes = new Map<string, Child>([['upstream', upstreams]]);
    // `--scenarios`: only those are measured, and only their processes started.
    const chosen = chosenScenarios(options.scenarios);
    const whole = options.scenarios === undefined;
    const names = targetNames().filter((target) => chosen.some((scenario) => scenario.target === target));
    const notes = names.includes('nginx') || !chosen.some((s) => s.id === 'nginx') ? [] : ['nginx is not on PATH: the nginx proxy_pass anchor is skipped'];
    if (!whole) notes.push(`--scenarios ${chosen.map((s) => s.id).join(',')}: the other scenarios, one-connection latency, RSS and cache memory are not measured`);
    for (const note of notes) log(`note: ${note}`);
    const outcomes = await Promise.allSettled(names.map(async (target) => void processes.set(target, await startTarget(target, upstreamInfo))));
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
    const measured = chosen.filter((s) => processes.has(s.target));
    const childOf = (scenario: Scenario): Child => processes.get(scenario.target)!;
    const urlOf = (scenario: Scenario): string => `${scenario.target === 'upstream' ? upstreamInfo.legacyOrigin : childOf(scenario).info['origin']}${SEARCH_TARGET}`;

    // Each target must answer 200 with a page of the expected size before it is measured.
    const pages = upstreams.info as Record<'legacyBytes' | 'api2Bytes' | 'entries', number>;
    let mappedBytes = Number.NaN;
    for (const scenario of measured) {
      const answer = await probe(urlOf(scenario));
      const expected = scenario.id === 'api2-mapped' ? answer.bytes : scenario.id === 'floor-api2' ? pages.api2Bytes : pages.legacyBytes;
      if (answer.status !== 200 || answer.bytes !== expected) {
        throw new Error(`${scenario.id}: probe answered ${answer.status} with ${answer.bytes} B, expected 200 with ${expected} B`);
      }
      if (scenario.id === 'api2-mapped') mappedBytes = answer.bytes;
    }

    const measure = async (scenario: Scenario, durationS: number, connections = options.connections): Promise<Measurement> => {
      if (scenario.cacheHit) {
        let hit = false;
        for (let attempt = 0; attempt < 5 && !hit; attempt++) hit = (await probe(urlOf(scenario))).xCache === 'HIT';
        if (!hit) throw new Error(`${scenario.id}: the warmed page is not a cache HIT`);
      }
      let result = await measureTarget(childOf(scenario), urlOf(scenario), connections, durationS);
      // A busy machine can leave a short run without a single answer: measure again rather than report nothing.
      for (let retry = 1; result.requests === 0 && retry <= 3; retry++) {
        log(`warning: ${scenario.id}: no answer in ${durationS} s, measuring again (${retry}/3)`);
        result = await measureTarget(childOf(scenario), urlOf(scenario), connections, durationS * 2 ** retry);
      }
      const after = scenario.cacheHit ? (await probe(urlOf(scenario))).xCache : 'HIT';
      if (after !== 'HIT') log(`warning: ${scenario.id}: X-Cache ${after ?? 'absent'} after the load`);
      return result;
    };

    if (options.warmupS > 0) {
      log(`warm-up: ${options.warmupS} s per scenario…`);
      for (const scenario of measured) await measure(scenario, options.warmupS);
    }

    const rounds = new Map<string, Measurement[]>(measured.map((s) => [s.id, []]));
    const groups = MEASURING_GROUPS.map((group) => group.flatMap((id) => measured.filter((s) => s.id === id)));
    if (groups.flat().length !== measured.length) throw new Error('a scenario is missing from MEASURING_GROUPS (bench/scenarios.ts)');
    for (let round = 0; round < options.rounds; round++) {
      for (const scenario of roundOrder(groups, round)) {
        const m = await measure(scenario, options.durationS);
        rounds.get(scenario.id)?.push(m);
        const fixed = (value: number | undefined, width: number) => (value ?? Number.NaN).toFixed(0).padStart(width);
        log(`round ${round + 1}/${options.rounds} ${scenario.id.padEnd(18)} ${fixed(m.reqPerSec, 7)} req/s  CPU ${fixed(m.cpuUsPerRequest, 4)} µs/req  promoted ${fixed(m.promotedBytesPerRequest, 5)} B/req  p50 ${m.p50Ms.toFixed(2)} ms  p99 ${m.p99Ms.toFixed(2)} ms  errors ${m.errors}`);
      }
    }
    const scenarios = measured.map((s) => summarize(s, rounds.get(s.id) ?? []));

    // Latency without queueing: one connection, direct and pass-through alternated, median p50/p99.
    const [direct, passthrough] = ['direct', 'passthrough'].map((id) => SCENARIOS.find((s) => s.id === id)!) as [Scenario, Scenario];
    const single = new Map<Scenario, Measurement[]>([[direct, []], [passthrough, []]]);
    for (let round = 0; whole && round < options.rounds; round++) {
      for (const scenario of round % 2 === 0 ? [direct, passthrough] : [passthrough, direct]) {
        const m = await measure(scenario, options.durationS / 2, 1);
        single.get(scenario)!.push(m);
        log(`one connection ${round + 1}/${options.rounds} ${scenario.id.padEnd(12)} p50 ${m.p50Ms.toFixed(3)} ms  p99 ${m.p99Ms.toFixed(3)} ms  errors ${m.errors}`);
      }
    }
    const latencyOf = (scenario: Scenario) => ({ p50Ms: median(single.get(scenario)!.map((m) => m.p50Ms)), p99Ms: median(single.get(scenario)!.map((m) => m.p99Ms)) });
    const unqueued = { connections: 1 as const, direct: latencyOf(direct), passthrough: latencyOf(passthrough) };

    // RSS: the cache gateway with its cache filled to the default byte bound; every other child for comparison.
    const defaults = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } } });
    if (!defaults.ok) throw new Error(defaults.errors.join('\n'));
    const { maxBytes } = defaults.config.cache;
    const memory = whole ? await memoryFigures(processes, pages.legacyBytes, defaults.config.cache, options.fillBudgetMs) : undefined;
    const rss = memory?.rss ?? [];

    return {
      cacheMemory: memory?.cacheMemory,
      command: options.command, machine: host,
      settings: { durationS: options.durationS, connections: options.connections, rounds: options.rounds, warmupS: options.warmupS, smoke: options.smoke, request: SEARCH_TARGET },
      pages: { legacyBytes: pages.legacyBytes, api2Bytes: pages.api2Bytes, mappedBytes, entries: pages.entries },
      scenarios,
      // With `--scenarios`, only the figures its scenarios give.
      ratios: ratios(scenarios, unqueued, { rssBytes: rss[0]?.bytes ?? Number.NaN, floorRssBytes: rss.find((r) => r.target === 'floor')?.bytes ?? Number.NaN, cacheBytes: maxBytes, cacheFull: memory?.cacheFill.full ?? false })
        .filter((ratio) => whole || Number.isFinite(ratio.value)),
      notes, unqueued, rss, cacheFill: memory?.cacheFill,
      startedAt: new Date(started).toISOString(),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await stopAll();
    await closeProbes();
  }
}

/** The cache gateway's RSS with its cache filled to `cache.maxBytes`, every other child's, and the cache's own memory bound. */
async function memoryFigures(processes: ReadonlyMap<string, Child>, pageBytes: number, cache: { maxBytes: number; maxEntries: number }, fillBudgetMs: number) {
  const cacheGateway = processes.get('gw-cache')!;
  log(`filling the cache gateway's cache (${cache.maxBytes} B bound)…`);
  const cacheFill = await fillCache(String(cacheGateway.info['origin']), { pageBytes, maxBytes: cache.maxBytes, maxEntries: cache.maxEntries }, fillBudgetMs);
  const rss = [cacheGateway, ...[...processes.values()].filter((child) => child !== cacheGateway)].map((child) => ({ target: child.name, bytes: treeRssBytes(child.pid) }));
  log('cache memory: 100,000 distinct pages into a 10 MB cache…');
  const cacheMemoryChild = await forkChild('cache-memory', './cache-memory-child.ts', {}, { execArgv: ['--expose-gc'] });
  await cacheMemoryChild.kill();
  return { cacheFill, rss, cacheMemory: cacheMemoryChild.info as unknown as CacheMemory };
}
