/**
 * Reading the profiles of bench/profile.ts: where the main thread's time and the allocations of a
 * request go, per part of the code (a file of src/, or a library, or Node's internals), in µs and
 * bytes per request, and the functions that cost most.
 */

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

export interface Share {
  readonly name: string;
  /** µs of main-thread time (CPU profile) or bytes allocated (heap profile) per request. */
  readonly perRequest: number;
}

export interface ProfileSummary {
  /** Main-thread time per request, idle excluded. */
  readonly busyUsPerRequest: number;
  readonly byPart: readonly Share[];
  readonly topFunctions: readonly Share[];
  readonly allocatedBytesPerRequest: number;
  readonly allocationsByPart: readonly Share[];
  readonly topAllocators: readonly Share[];
}

/** The part of the code a frame belongs to. */
export function partOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const src = /\/(src|mappings)\/(.+?)\.[jt]s$/.exec(url);
  if (src && !url.includes('node_modules')) return `${src[1] === 'src' ? '' : 'mappings/'}${src[2]}`;
  const lib = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (lib) return lib[1]!;
  const internal = /^node:(?:internal\/)?([^/]+)/.exec(url);
  if (internal) return `node:${internal[1]}`;
  return url.replace(/^file:\/\/.*\//, '');
}

function where(frame: CallFrame): string {
  return `${frame.functionName || '(anonymous)'} ${partOf(frame)}:${frame.lineNumber + 1}`;
}

function ranked(totals: Map<string, number>, divisor: number, limit: number): Share[] {
  return [...totals]
    .map(([name, value]) => ({ name, perRequest: value / divisor }))
    .sort((a, b) => b.perRequest - a.perRequest)
    .slice(0, limit);
}

const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

export function summarizeProfiles(cpu: CpuProfile, heap: { head: HeapNode }, requests: number): ProfileSummary {
  const frames = new Map(cpu.nodes.map((node) => [node.id, node.callFrame]));
  const byPart = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  cpu.samples.forEach((id, index) => {
    const frame = frames.get(id);
    const delta = cpu.timeDeltas[index] ?? 0;
    if (!frame || frame.functionName === '(idle)') return;
    busy += delta;
    add(byPart, partOf(frame), delta);
    add(byFunction, where(frame), delta);
  });

  const allocByPart = new Map<string, number>();
  const allocByFunction = new Map<string, number>();
  let allocated = 0;
  const walk = (node: HeapNode) => {
    if (node.selfSize > 0) {
      allocated += node.selfSize;
      add(allocByPart, partOf(node.callFrame), node.selfSize);
      add(allocByFunction, where(node.callFrame), node.selfSize);
    }
    node.children.forEach(walk);
  };
  walk(heap.head);

  return {
    busyUsPerRequest: busy / requests,
    byPart: ranked(byPart, requests, 40),
    topFunctions: ranked(byFunction, requests, 30),
    allocatedBytesPerRequest: allocated / requests,
    allocationsByPart: ranked(allocByPart, requests, 25),
    topAllocators: ranked(allocByFunction, requests, 25),
  };
}

export function renderSummary(title: string, summary: ProfileSummary, cpuUsPerRequest: number): string {
  const rows = (shares: readonly Share[], unit: string) => shares.map((s) => `  ${s.perRequest.toFixed(1).padStart(8)} ${unit}  ${s.name}`);
  return [
    `${title}: CPU ${cpuUsPerRequest.toFixed(1)} µs/request (process, all threads); main thread busy ${summary.busyUsPerRequest.toFixed(1)} µs/request`,
    'main-thread time per request, by part (self time):',
    ...rows(summary.byPart, 'µs'),
    'top functions (self time):',
    ...rows(summary.topFunctions, 'µs'),
    `allocated ${summary.allocatedBytesPerRequest.toFixed(0)} B/request (sampled every 4 KiB), by part:`,
    ...rows(summary.allocationsByPart, 'B '),
    'top allocating functions:',
    ...rows(summary.topAllocators, 'B '),
  ].join('\n');
}
