/**
 * `npm run bench -- ab [--base REF] [--this-ref REF] [--rounds N] [--duration S] [--connections N]
 * [--this-flags=FLAGS] [--targets LIST] [--json FILE]`: this checkout's gateway (or commit
 * `--this-ref`'s) against the gateway of commit `--base` (default HEAD, so uncommitted work is
 * measured against its own base), in alternating rounds (A B, then B A), for the gateway targets
 * listed (default gw-legacy,gw-cache: pass-through and cache hit, log on). Prints the CPU µs per
 * request of each (median, min-max), the ratio this/base, req/s and promoted bytes per request.
 *
 * A commit is exported with `git archive` into .bench-ab/<commit>/, compiled there once with its
 * own tsconfig.bench.json against this checkout's node_modules (same libraries for both sides), and
 * started from its own bench/gateway-child.js with the same config document. `--this-flags` gives
 * this side's gateways extra Node flags (`--this-flags=--max-semi-space-size=8` measures a flag alone).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { forkChild, forkUpstreams } from './children.js';
import type { Child } from './children.js';
import { measureTarget } from './load.js';
import type { Measurement } from './load.js';
import type { Options, Outcome } from './options.js';
import { SEARCH_TARGET } from './pages.js';
import { probe } from './probe.js';
import { median } from './report.js';
import { GATEWAY_TARGETS, gatewayConfig } from './scenarios.js';
import type { GatewayTarget } from './scenarios.js';

/** Exports and compiles `ref` once; its gateway child's path. */
function buildCommit(ref: string): { commit: string; entry: string } {
  const root = resolve('.');
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(root, '.bench-ab', commit);
  const entry = join(dir, '.bench-build', 'bench', 'gateway-child.js');
  if (existsSync(entry)) return { commit, entry };
  process.stderr.write(`exporting and compiling ${commit.slice(0, 12)} into ${dir}…\n`);
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`]);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.bench.json'], { cwd: dir, stdio: 'ignore' });
  } catch {
    // Type errors against today's libraries still emit JavaScript; only a missing child is fatal.
  }
  if (!existsSync(entry)) throw new Error(`${ref}: no bench/gateway-child.js after compiling ${dir}`);
  return { commit, entry };
}

export async function ab(options: Options): Promise<Outcome> {
  const targets = options.targets.filter((target): target is GatewayTarget => (GATEWAY_TARGETS as readonly string[]).includes(target));
  if (targets.length !== options.targets.length || targets.length === 0) throw new Error(`--targets: a comma-separated list of ${GATEWAY_TARGETS.join(', ')}`);
  const base = buildCommit(options.base);
  const other = options.thisRef ? buildCommit(options.thisRef) : undefined;
  const sides = ['base', 'this'] as const;
  const { info } = await forkUpstreams();
  const gateways = new Map<string, Child>();
  for (const target of targets) {
    for (const side of sides) {
      const entry = side === 'base' ? base.entry : (other?.entry ?? './gateway-child.ts');
      const child = await forkChild(`${side} ${target}`, entry, { config: gatewayConfig(target, info) }, { gcTrace: true, execArgv: side === 'this' ? options.thisFlags : [] });
      gateways.set(child.name, child);
    }
  }
  const results = new Map<string, Measurement[]>([...gateways.keys()].map((key) => [key, []]));
  const measure = async (key: string, seconds: number): Promise<Measurement> => {
    const url = `${gateways.get(key)!.info['origin']}${SEARCH_TARGET}`;
    if (key.includes('gw-cache')) for (let i = 0; i < 3; i++) await probe(url);
    return measureTarget(gateways.get(key)!, url, options.connections, seconds);
  };
  for (const key of gateways.keys()) await measure(key, 1);
  for (let round = 0; round < options.rounds; round++) {
    for (const target of targets) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const key = `${side} ${target}`;
        const m = await measure(key, options.durationS);
        results.get(key)!.push(m);
        process.stderr.write(`round ${round + 1}/${options.rounds} ${key.padEnd(16)} CPU ${m.cpuUsPerRequest!.toFixed(0).padStart(4)} µs/req  ${m.reqPerSec.toFixed(0).padStart(6)} req/s  promoted ${m.promotedBytesPerRequest!.toFixed(0)} B/req\n`);
      }
    }
  }
  const rows = targets.map((target) => {
    const of = (side: string) => {
      const runs = results.get(`${side} ${target}`)!;
      const cpu = runs.map((r) => r.cpuUsPerRequest!);
      const [reqPerSec, promotedBytes] = [median(runs.map((r) => r.reqPerSec)), median(runs.map((r) => r.promotedBytesPerRequest!))];
      return { cpuUs: median(cpu), cpuMin: Math.min(...cpu), cpuMax: Math.max(...cpu), reqPerSec, promotedBytes };
    };
    const [b, t] = [of('base'), of('this')];
    return { target, base: b, this: t, ratio: t.cpuUs / b.cpuUs };
  });
  const lines = [
    `\nbase ${base.commit.slice(0, 12)} (${options.base}) vs ${other ? `${other.commit.slice(0, 12)} (${options.thisRef})` : 'this checkout'}${options.thisFlags.length ? ` with ${options.thisFlags.join(' ')}` : ''}; ${options.rounds} rounds of ${options.durationS} s, ${options.connections} connections, alternating`,
    '| target | base CPU µs/req (min-max) | this CPU µs/req (min-max) | this/base | req/s base / this | promoted B/req base / this |',
    '|---|---|---|---|---|---|',
  ];
  const cell = (s: (typeof rows)[number]['base']) => `${s.cpuUs.toFixed(0)} (${s.cpuMin.toFixed(0)}-${s.cpuMax.toFixed(0)})`;
  for (const r of rows) lines.push(`| ${r.target} | ${cell(r.base)} | ${cell(r.this)} | ${r.ratio.toFixed(2)}x | ${r.base.reqPerSec.toFixed(0)} / ${r.this.reqPerSec.toFixed(0)} | ${r.base.promotedBytes.toFixed(0)} / ${r.this.promotedBytes.toFixed(0)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return { json: { base: base.commit, ref: options.base, rounds: options.rounds, durationS: options.durationS, connections: options.connections, rows } };
}
