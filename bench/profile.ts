/**
 * `npm run bench -- profile [--target T] [--duration S] [--out DIR]`: one process under test
 * (default gw-legacy; any Node target of bench/scenarios.ts) against the canned upstreams at 50
 * connections: 3 s of warm-up, then the V8 CPU and allocation sampling profilers (bench/ipc.ts)
 * over `--duration` seconds of load (default 15), written to DIR (default .bench-profiles/, to open
 * in Chrome DevTools), and a summary: main-thread self time and bytes allocated per request, by part
 * of the code (a file of src/ or mappings/, a library, Node's internals) and by function.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { forkUpstreams } from './children.js';
import { measureTarget } from './load.js';
import type { Options, Outcome } from './options.js';
import { SEARCH_TARGET } from './pages.js';
import { startTarget } from './scenarios.js';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface CpuProfile {
  readonly nodes: ReadonlyArray<{ readonly id: number; readonly callFrame: CallFrame }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}
interface HeapNode {
  readonly callFrame: CallFrame;
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}

/** The part of the code a frame belongs to. */
function partOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const own = /\/(src|mappings)\/(.+?)\.[jt]s$/.exec(url);
  if (own && !url.includes('node_modules')) return `${own[1] === 'src' ? '' : 'mappings/'}${own[2]}`;
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
  const top = (map: Map<string, number>, limit: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, amount]) => `  ${(amount / requests).toFixed(1).padStart(8)} ${unit}  ${name}`);
  return { total: total / requests, lines: ['by part:', ...top(byPart, parts), 'top functions:', ...top(byFunction, functions)] };
}

function* cpuSamples(cpu: CpuProfile): Generator<[CallFrame, number]> {
  const frames = new Map(cpu.nodes.map((node) => [node.id, node.callFrame]));
  for (const [index, id] of cpu.samples.entries()) {
    const frame = frames.get(id);
    if (frame && frame.functionName !== '(idle)') yield [frame, cpu.timeDeltas[index] ?? 0];
  }
}

function* heapSamples(node: HeapNode): Generator<[CallFrame, number]> {
  if (node.selfSize > 0) yield [node.callFrame, node.selfSize];
  for (const child of node.children) yield* heapSamples(child);
}

export async function profile(options: Options): Promise<Outcome> {
  const dir = resolve(options.out);
  await mkdir(dir, { recursive: true });
  const { info } = await forkUpstreams();
  const child = await startTarget(options.target, info);
  if (!child.ask) throw new Error(`--target ${options.target}: not a Node process`);
  const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
  process.stderr.write(`${options.target}: warm-up 3 s, then ${options.durationS} s profiled…\n`);
  await measureTarget(child, url, 50, 3);
  await child.ask({ type: 'profile-start' });
  const measured = await measureTarget(child, url, 50, options.durationS);
  const files = await child.ask<string[]>({ type: 'profile-stop', dir, name: `${options.target}-${Date.now()}` });
  const [cpu, heap] = (await Promise.all(files.map((file) => readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown)))) as [CpuProfile, { head: HeapNode }];
  const time = tally(cpuSamples(cpu), measured.requests, 'µs', 40, 30);
  const allocated = tally(heapSamples(heap.head), measured.requests, 'B ', 25, 25);
  process.stdout.write(
    [
      `${options.target}: CPU ${(measured.cpuUsPerRequest ?? Number.NaN).toFixed(1)} µs/request (process, all threads); main thread busy ${time.total.toFixed(1)} µs/request`,
      'main-thread self time per request',
      ...time.lines,
      `allocated ${allocated.total.toFixed(0)} B/request (sampled every 4 KiB)`,
      ...allocated.lines,
      `(${measured.requests} requests, ${measured.reqPerSec.toFixed(0)} req/s, promoted ${(measured.promotedBytesPerRequest ?? Number.NaN).toFixed(0)} B/request)`,
      `profiles: ${files.join(', ')}`,
    ].join('\n') + '\n',
  );
  return { json: { target: options.target, measured, files } };
}
