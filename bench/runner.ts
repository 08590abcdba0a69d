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
import { MEASURING_GROUPS, SCENARIOS, startTarget, targetNames } from './scenarios.js';
import type { Scenario } from './scenarios.js';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Scenario order of a round: the groups rotated by one per round, each group's order reversed every other round. */
function roundOrder<T>(groups: ReadonlyArray<readonly T[]>, round: number): T[] {
  const offset = round % groups.length;
  const rotated = [...groups.slice(offset), ...groups.slice(0, offset)];
  return rotated.flatMap((group) => (round % 2 === 0 ? [...group] : [...group].reverse()));
}

export type BenchReport = Awaited<ReturnType<typeof runBench>>;

/** The scenarios `--scenarios` names (every one without it); an unknown id is refused. */
function chosenScenarios(ids: readonly string[] | undefined): readonly Scenario[] {
  if (ids === undefined) return SCENARIOS;
  const unknown = ids.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`--scenarios: no scenario ${unknown.join(', ')}; one of ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return SCENARIOS.filter((s) => ids.includes(s.id));
}

export async function runBench(options: Options) {
  const started = Date.now();
  const host = machine();
  // `--scenarios a,b`: only those scenarios, and only their targets started; what needs others (one connection, RSS, cache memory) is skipped.
  const chosen = chosenScenarios(options.scenarios);
  try {
    log('starting canned upstreams, gateways and anchors…');
    const { child: upstreams, info: upstreamInfo } = await forkUpstreams();
    const processes = new Map<string, Child>([['upstream', upstreams]]);
    const names = targetNames().filter((target) => chosen.some((s) => s.target === target));
    const notes = names.includes('nginx') ? [] : ['nginx is not on PATH: the nginx proxy_pass anchor is skipped'];
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
    for (let round = 0; round < (measured.includes(direct) && measured.includes(passthrough) ? options.rounds : 0); round++) {
      for (const scenario of round % 2 === 0 ? [direct, passthrough] : [passthrough, direct]) {
        const m = await measure(scenario, options.durationS / 2, 1);
        single.get(scenario)!.push(m);
        log(`one connection ${round + 1}/${options.rounds} ${scenario.id.padEnd(12)} p50 ${m.p50Ms.toFixed(3)} ms  p99 ${m.p99Ms.toFixed(3)} ms  errors ${m.errors}`);
      }
    }
    const latencyOf = (scenario: Scenario) => ({ p50Ms: median(single.get(scenario)!.map((m) => m.p50Ms)), p99Ms: median(single.get(scenario)!.map((m) => m.p99Ms)) });
    const unqueued = { connections: 1 as const, direct: latencyOf(direct), passthrough: latencyOf(passthrough) };

    // RSS: the cache gateway with its cache filled to the default byte bound; every other child for comparison.
    const cacheGateway = processes.get('gw-cache');
    const defaults = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } } });
    if (!defaults.ok) throw new Error(defaults.errors.join('\n'));
    const { maxBytes, maxEntries } = defaults.config.cache;
    if (cacheGateway) log(`filling the cache gateway's cache (${maxBytes} B bound)…`);
    const cacheFill = cacheGateway ? await fillCache(String(cacheGateway.info['origin']), { pageBytes: pages.legacyBytes, maxBytes, maxEntries }, options.fillBudgetMs) : undefined;
    const rss = [...(cacheGateway ? [cacheGateway] : []), ...[...processes.values()].filter((child) => child !== cacheGateway)].map((child) => ({ target: child.name, bytes: treeRssBytes(child.pid) }));

    let cacheMemory: CacheMemory | undefined;
    if (options.scenarios === undefined) {
      log('cache memory: 100,000 distinct pages into a 10 MB cache…');
      const cacheMemoryChild = await forkChild('cache-memory', './cache-memory-child.ts', {}, { execArgv: ['--expose-gc'] });
      await cacheMemoryChild.kill();
      cacheMemory = cacheMemoryChild.info as unknown as CacheMemory;
    }
    const allRatios = ratios(scenarios, unqueued, { rssBytes: cacheGateway ? (rss[0]?.bytes ?? Number.NaN) : Number.NaN, floorRssBytes: rss.find((r) => r.target === 'floor')?.bytes ?? Number.NaN, cacheBytes: maxBytes, cacheFull: cacheFill?.full ?? false });

    return {
      cacheMemory,
      command: options.command, machine: host,
      settings: { durationS: options.durationS, connections: options.connections, rounds: options.rounds, warmupS: options.warmupS, smoke: options.smoke, request: SEARCH_TARGET },
      pages: { legacyBytes: pages.legacyBytes, api2Bytes: pages.api2Bytes, mappedBytes, entries: pages.entries },
      scenarios,
      // With --scenarios, only the ratios whose scenarios were measured.
      ratios: options.scenarios === undefined ? allRatios : allRatios.filter((r) => !Number.isNaN(r.value)),
      notes, unqueued, rss, cacheFill,
      startedAt: new Date(started).toISOString(),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await stopAll();
    await closeProbes();
  }
}
