/**
 * `npm run bench:ab -- [--base REF] [--this-ref REF] [--rounds N] [--duration S] [--connections N]
 * [--json FILE] [--this-flags=FLAGS] [--targets LIST]`: this checkout's gateway (or commit `--this-ref`)
 * against the gateway of commit `--base` (default HEAD, so uncommitted work is measured against its
 * own base), in the same run, in alternating rounds (A B, then B A), for pass-through and cache hit,
 * log on (`--targets gw-legacy,gw-cache`, the default; `gw-legacy-nolog`, `gw-cache-nolog` and
 * `gw-api2` add the same with the log off and the api2-mapped search).
 * Prints the CPU µs per request of each (median, min-max), the ratio this/base, req/s and
 * promoted bytes per request.
 *
 * A commit is exported with `git archive` into .bench-ab/<commit>/, compiled there with its own
 * tsconfig.bench.json against this checkout's node_modules (same libraries for both sides), and
 * started from its own bench/gateway-child.js with the same config document. `--this-flags`
 * gives this side's gateways extra Node flags (`--base HEAD --this-flags=--max-semi-space-size=8`
 * measures a flag alone).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCommit } from './base-build.js';
import { forkChild, forkUpstreams } from './children.js';
import type { Child } from './children.js';
import type { Measurement } from './load.js';
import { measureTarget } from './measure.js';
import { SEARCH_TARGET } from './pages.js';
import { closeProbes, probe } from './probe.js';
import { median } from './report.js';
import { REQUEST_HEADERS, gatewayConfig } from './scenarios.js';
import type { GatewayTarget } from './scenarios.js';

const ALL_SCENARIOS: ReadonlyArray<{ readonly target: GatewayTarget; readonly label: string; readonly hit: boolean }> = [
  { target: 'gw-legacy', label: 'pass-through, log on', hit: false },
  { target: 'gw-legacy-nolog', label: 'pass-through, log off', hit: false },
  { target: 'gw-cache', label: 'cache hit, log on', hit: true },
  { target: 'gw-cache-nolog', label: 'cache hit, log off', hit: true },
  { target: 'gw-api2', label: 'api2-mapped search, cache off, log on', hit: false },
];

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'HEAD' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    json: { type: 'string' },
    'this-flags': { type: 'string', default: '' },
    'this-ref': { type: 'string' },
    targets: { type: 'string', default: 'gw-legacy,gw-cache' },
  },
});
const wanted = values.targets.split(',').map((target) => target.trim());
const SCENARIOS = ALL_SCENARIOS.filter(({ target }) => wanted.includes(target));
if (SCENARIOS.length === 0) throw new Error(`--targets: a comma-separated list of ${ALL_SCENARIOS.map(({ target }) => target).join(', ')}`);
const thisFlags = values['this-flags'].split(/\s+/).filter((flag) => flag.length > 0);
const rounds = Number(values.rounds);
const durationS = Number(values.duration);
const connections = Number(values.connections);
const say = (text: string): void => void process.stderr.write(`${text}\n`);

/** The base commit, exported and compiled once per commit; returns its gateway child's path. */
function buildBase(ref: string): { commit: string; entry: string } {
  const { commit, buildDir } = buildCommit(ref, say);
  return { commit, entry: join(buildDir, 'bench', 'gateway-child.js') };
}

async function main(): Promise<void> {
  const base = buildBase(values.base);
  const other = values['this-ref'] ? buildBase(values['this-ref']) : undefined;
  const children: Child[] = [];
  try {
    const { child: upstreams, info: upstreamInfo } = await forkUpstreams();
    children.push(upstreams);
    const sides = ['base', 'this'] as const;
    const gateways = new Map<string, Child>();
    for (const { target } of SCENARIOS) {
      for (const side of sides) {
        const entry = side === 'base' ? base.entry : (other?.entry ?? './gateway-child.ts');
        const execArgv = side === 'this' ? thisFlags : [];
        const child = await forkChild(`${side} ${target}`, entry, { config: gatewayConfig(target, upstreamInfo) }, { gcTrace: true, execArgv });
        children.push(child);
        gateways.set(`${side} ${target}`, child);
      }
    }
    const urlOf = (key: string): string => `${gateways.get(key)!.info['origin']}${SEARCH_TARGET}`;
    const results = new Map<string, Measurement[]>();
    const measure = async (key: string, hit: boolean, seconds: number): Promise<Measurement> => {
      if (hit) for (let i = 0; i < 3; i++) await probe(urlOf(key), REQUEST_HEADERS);
      return measureTarget(gateways.get(key), urlOf(key), connections, seconds);
    };
    for (const { target, hit } of SCENARIOS) for (const side of sides) await measure(`${side} ${target}`, hit, 1);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides : ([...sides].reverse() as readonly string[]);
      for (const { target, hit } of SCENARIOS) {
        for (const side of order) {
          const key = `${side} ${target}`;
          const result = await measure(key, hit, durationS);
          results.set(key, [...(results.get(key) ?? []), result]);
          say(`round ${round + 1}/${rounds} ${key.padEnd(16)} CPU ${result.cpuUsPerRequest!.toFixed(0).padStart(4)} µs/req  ${result.reqPerSec.toFixed(0).padStart(6)} req/s  promoted ${result.promotedBytesPerRequest!.toFixed(0)} B/req`);
        }
      }
    }
    const rows = SCENARIOS.map(({ target, label }) => {
      const of = (side: string) => {
        const runs = results.get(`${side} ${target}`)!;
        const cpu = runs.map((r) => r.cpuUsPerRequest!);
        return {
          cpuUs: median(cpu),
          cpuMin: Math.min(...cpu),
          cpuMax: Math.max(...cpu),
          reqPerSec: median(runs.map((r) => r.reqPerSec)),
          promotedBytes: median(runs.map((r) => r.promotedBytesPerRequest!)),
        };
      };
      const [b, t] = [of('base'), of('this')];
      return { scenario: label, base: b, this: t, ratio: t.cpuUs / b.cpuUs };
    });
    console.log(`\nbase ${base.commit.slice(0, 12)} (${values.base}) vs ${other ? `${other.commit.slice(0, 12)} (${values['this-ref']})` : 'this checkout'}${thisFlags.length ? ` with ${thisFlags.join(' ')}` : ''}; ${rounds} rounds of ${durationS} s, ${connections} connections, alternating`);
    console.log('| scenario | base CPU µs/req (min-max) | this CPU µs/req (min-max) | this/base | req/s base / this | promoted B/req base / this |');
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) {
      const cell = (s: typeof row.base) => `${s.cpuUs.toFixed(0)} (${s.cpuMin.toFixed(0)}-${s.cpuMax.toFixed(0)})`;
      console.log(`| ${row.scenario} | ${cell(row.base)} | ${cell(row.this)} | ${row.ratio.toFixed(2)}x | ${row.base.reqPerSec.toFixed(0)} / ${row.this.reqPerSec.toFixed(0)} | ${row.base.promotedBytes.toFixed(0)} / ${row.this.promotedBytes.toFixed(0)} |`);
    }
    if (values.json) writeFileSync(values.json, `${JSON.stringify({ base: base.commit, ref: values.base, rounds, durationS, connections, rows }, null, 2)}\n`);
  } finally {
    await closeProbes();
    await Promise.all(children.map((child) => child.kill()));
  }
}

await main();
