/**
 * `npm run bench -- profile [--target T] [--duration S] [--out DIR] [--gc [--runs N] [--flags=…] [--compare=…]]`:
 * V8 CPU and allocation profiles of one process under test, or with `--gc` what its young generation
 * does in fresh processes (docs/benchmarks-anchors.md, "The other modes").
 */
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { forkUpstreams } from './children.js';
import type { Child, UpstreamInfo } from './children.js';
import { measureTarget } from './load.js';
import type { Measurement } from './load.js';
import type { Options, Outcome } from './options.js';
import { SEARCH_TARGET } from './pages.js';
import { treeRssBytes } from './proc.js';
import { BARE_HONO_US, OTHER_PART, budgetedAs, partLines, partOfModule, partTable } from './budget.js';
import { median } from './report.js';
import { startTarget } from './scenarios.js';

type CallFrame = { readonly functionName: string; readonly url: string; readonly lineNumber: number };
type CpuProfile = { readonly nodes: ReadonlyArray<{ id: number; callFrame: CallFrame; children?: readonly number[] }>; readonly samples: readonly number[]; readonly timeDeltas: readonly number[] };
type HeapNode = { readonly callFrame: CallFrame; readonly selfSize: number; readonly children: readonly HeapNode[] };

/** The gateway's own module a frame runs in (relative to src/; `mappings/…`), or undefined. */
function ownModuleOf(frame: CallFrame): string | undefined {
  const own = /\/(src|mappings)\/(.+?)\.[jt]s$/.exec(frame.url);
  return own && !frame.url.includes('node_modules') ? `${own[1] === 'src' ? '' : 'mappings/'}${own[2]}` : undefined;
}

/** The part of the code a frame belongs to. */
function partOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const own = ownModuleOf(frame);
  if (own !== undefined) return own;
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (library) return library[1]!;
  const internal = /^node:(?:internal\/)?([^/]+)/.exec(url);
  return internal ? `node:${internal[1]}` : url.replace(/^file:\/\/.*\//, '');
}

/** Per request: the total and the largest shares by part and by function, of samples (frame, amount). */
function tally(samples: Iterable<[CallFrame, number]>, requests: number, unit: string, parts: number, functions: number): { total: number; lines: string[] } {
  const byPart = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [frame, amount] of samples) {
    total += amount;
    const part = partOf(frame);
    byPart.set(part, (byPart.get(part) ?? 0) + amount);
    const name = `${frame.functionName || '(anonymous)'} ${part}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + amount);
  }
  const top = (map: Map<string, number>, limit: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([name, amount]) => `  ${(amount / requests).toFixed(1).padStart(8)} ${unit}  ${name}`);
  return { total: total / requests, lines: ['by part:', ...top(byPart, parts), 'top functions:', ...top(byFunction, functions)] };
}

function* cpuSamples(cpu: CpuProfile): Generator<[CallFrame, number]> {
  const frames = new Map(cpu.nodes.map((node) => [node.id, node.callFrame]));
  for (const [index, id] of cpu.samples.entries()) {
    const frame = frames.get(id);
    if (frame && frame.functionName !== '(idle)') yield [frame, cpu.timeDeltas[index] ?? 0];
  }
}

/**
 * The main thread's self time in the gateway's own modules, summed by the part of the request
 * each does (bench/budget.ts): a helper's, or a module no rule names, goes to its nearest caller's part.
 */
function ownPartTimes(cpu: CpuProfile): Map<string, number> {
  const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of cpu.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const placed = new Map<number, string | null>();
  const placeOf = (id: number): string | null => {
    const known = placed.get(id);
    if (known !== undefined) return known;
    const module = ownModuleOf(byId.get(id)!.callFrame);
    if (module === undefined) return null;
    let part: string | undefined = partOfModule(module);
    for (let up = parent.get(id); part === undefined && up !== undefined; up = parent.get(up)) {
      const caller = ownModuleOf(byId.get(up)!.callFrame);
      if (caller !== undefined) part = partOfModule(caller);
    }
    const found = part ?? OTHER_PART;
    placed.set(id, found);
    return found;
  };
  const times = new Map<string, number>();
  for (const [index, id] of cpu.samples.entries()) {
    const part = placeOf(id);
    if (part !== null) times.set(part, (times.get(part) ?? 0) + (cpu.timeDeltas[index] ?? 0));
  }
  return times;
}

function* heapSamples(node: HeapNode): Generator<[CallFrame, number]> {
  if (node.selfSize > 0) yield [node.callFrame, node.selfSize];
  for (const child of node.children) yield* heapSamples(child);
}

/** Starts the target, warms it up 3 s, measures `around` S seconds of load, and stops it. */
async function underLoad<T>(options: Options, upstreams: UpstreamInfo, execArgv: readonly string[], around: (child: Child, load: () => Promise<Measurement>) => Promise<T>, target = options.target): Promise<T> {
  const child = await startTarget(target, upstreams, { gcTrace: true, execArgv });
  try {
    if (!child.ask) throw new Error(`--target ${target}: not a Node process`);
    const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
    await measureTarget(child, url, 50, 3);
    return await around(child, () => measureTarget(child, url, 50, options.durationS));
  } finally {
    await child.kill();
  }
}

/** `target` warmed up 3 s, then profiled over `options.durationS` seconds of load: what was measured, and the profiles' files. */
function profiledLoad(options: Options, upstreams: UpstreamInfo, dir: string, target: string): Promise<{ measured: Measurement; files: string[] }> {
  return underLoad(
    options,
    upstreams,
    [],
    async (child, load) => {
      await child.ask!({ type: 'profile-start' });
      const measured = await load();
      return { measured, files: await child.ask!<string[]>({ type: 'profile-stop', dir, name: `${target}-${Date.now()}` }) };
    },
    target,
  );
}

async function profiles(options: Options, upstreams: UpstreamInfo): Promise<Outcome> {
  const dir = resolve(options.out);
  await mkdir(dir, { recursive: true });
  process.stderr.write(`${options.target}: warm-up 3 s, then ${options.durationS} s profiled…\n`);
  const { measured, files } = await profiledLoad(options, upstreams, dir, options.target);
  const [cpu, heap] = (await Promise.all(files.map((file) => readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown)))) as [CpuProfile, { head: HeapNode }];
  const time = tally(cpuSamples(cpu), measured.requests, 'µs', 40, 30);
  const kind = budgetedAs(options.target);
  // The budgets' yardstick: bare Hono right after, profiled alike (the profiler's cost lands on both), its CPU per request.
  const anchorUs = kind ? (await profiledLoad({ ...options, durationS: Math.min(options.durationS, 5) }, upstreams, dir, 'hono')).measured.cpuUsPerRequest : undefined;
  const scale = anchorUs !== undefined && Number.isFinite(anchorUs) ? anchorUs / BARE_HONO_US : 1;
  const parts = partTable(ownPartTimes(cpu), measured.requests, kind, scale);
  const allocated = tally(heapSamples(heap.head), measured.requests, 'B ', 25, 25);
  process.stdout.write(
    [
      `${options.target}: CPU ${(measured.cpuUsPerRequest ?? Number.NaN).toFixed(1)} µs/request (process, all threads); main thread busy ${time.total.toFixed(1)} µs/request`,
      'main-thread self time per request',
      ...time.lines,
      `allocated ${allocated.total.toFixed(0)} B/request (sampled every 4 KiB)`,
      ...allocated.lines,
      ...partLines(parts, kind, scale, anchorUs),
      `(${measured.requests} requests, ${measured.reqPerSec.toFixed(0)} req/s, promoted ${(measured.promotedBytesPerRequest ?? Number.NaN).toFixed(0)} B/request)`,
      `profiles: ${files.join(', ')}`,
    ].join('\n') + '\n',
  );
  return { json: { target: options.target, measured, files, parts, budget: kind ? { kind, scale, bareHonoUs: anchorUs } : undefined } };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** `--gc`: one fresh process per run and flag set; the scavenges, mark-compacts, CPU and RSS of the measured load. */
async function youngGeneration(options: Options, upstreams: UpstreamInfo): Promise<Outcome> {
  const sides = [options.flags, ...(options.compare ? [options.compare] : [])];
  const named = (flags: readonly string[]) => flags.join(' ') || 'production flags';
  const results = sides.map(() => [] as Array<{ cpuUs: number; promotedBytes: number; rssBytes: number }>);
  for (let pair = 1; pair <= options.runs; pair++) {
    for (const side of (pair % 2 === 1 ? [0, 1] : [1, 0]).filter((s) => s < sides.length)) {
      const label = `${options.target}${sides.length > 1 ? ` [${named(sides[side]!)}]` : ''} run ${pair}`;
      const result = await underLoad(options, upstreams, sides[side]!, async (child, load) => {
        const trace = child.gc!;
        const [before, compactsBefore] = [trace.scavenges.length, trace.markCompacts()];
        const measured = await load();
        const scavenges = trace.scavenges.slice(before);
        const mid = (pick: (s: (typeof scavenges)[number]) => number) => median(scavenges.map(pick));
        const run = { cpuUs: measured.cpuUsPerRequest ?? Number.NaN, promotedBytes: measured.promotedBytesPerRequest ?? Number.NaN, rssBytes: treeRssBytes(child.pid) };
        process.stdout.write(
          `${label}: ${measured.requests} requests, ${scavenges.length} scavenges, median pause ${mid((s) => s.pauseMs).toFixed(2)} ms, ` +
            `promoted ${kb(mid((s) => s.promoted))} and survived ${kb(mid((s) => s.survived))} per scavenge (median), ` +
            `${run.promotedBytes.toFixed(0)} B/request promoted, ${trace.markCompacts() - compactsBefore} mark-compacts, CPU ${run.cpuUs.toFixed(1)} µs/request, RSS ${mib(run.rssBytes)}\n`,
        );
        return run;
      });
      results[side]!.push(result);
    }
  }
  if (sides.length > 1) {
    for (const [side, runs] of results.entries()) {
      const stat = (pick: (r: (typeof runs)[number]) => number, digits: number) => `median ${median(runs.map(pick)).toFixed(digits)} max ${Math.max(...runs.map(pick)).toFixed(digits)}`;
      process.stdout.write(
        `${named(sides[side]!).padEnd(40)} CPU ${stat((r) => r.cpuUs, 1)} µs/request, promoted ${stat((r) => r.promotedBytes, 0)} B/request, RSS median ${mib(median(runs.map((r) => r.rssBytes)))} (${runs.length} runs)\n`,
      );
    }
  }
  return { json: { target: options.target, sides, results } };
}

export async function profile(options: Options): Promise<Outcome> {
  const { info } = await forkUpstreams();
  return options.gc ? youngGeneration(options, info) : profiles(options, info);
}
