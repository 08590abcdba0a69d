/**
 * The parent side of the child processes: fork a bench entry (compiled JS, or TS under tsx), wait for it to say
 * where it listens, ask for its RSS, and kill it (politely, then SIGKILL).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGcTrace } from './gc-trace.js';
import type { GcTrace } from './gc-trace.js';
import type { ChildMessage, ParentMessage } from './ipc.js';
import { HAS_PROC, treeCpuMicros, treeRssBytes } from './proc.js';
import { servedNodeFlags } from './node-flags.js';

// Generous: a dozen children start at once, on a machine that may be busy.
const START_TIMEOUT_MS = 120_000;

export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly info: Readonly<Record<string, string | number>>;
  /** Resident memory of the child and its descendants (cluster workers). */
  rss(): Promise<number>;
  /** CPU time (user + system) the child and its descendants have used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  /** Starts the child's profilers (bench/profiler.ts); `stop` writes them and says where. */
  profile?: { start(): Promise<void>; stop(dir: string, name: string): Promise<readonly string[]> };
  /** Set when forked with `gcTrace`. */
  readonly gc?: GcTrace;
  kill(): Promise<void>;
}

export interface ForkOptions {
  /** Extra node flags for the child (e.g. --cpu-prof). */
  readonly execArgv?: readonly string[];
  /** Run with --trace-gc-nvp and count the bytes its scavenges promote (bench/gc-trace.ts). */
  readonly gcTrace?: boolean;
}

/** Compiled (npm run bench builds first): children run as plain JS, so RSS is the gateway's own. */
const COMPILED = import.meta.url.endsWith('.js');

/** Production's Node flags, for every child (bench/node-flags.ts). */
const SERVED_FLAGS = servedNodeFlags();

/**
 * Forks `bench/<entry>` (or `entry` itself when it is an absolute path: another build, bench/ab.ts)
 * with `spec` as its argument; resolves once it reports ready.
 */
export async function forkChild(name: string, entry: string, spec: unknown, options: ForkOptions = {}): Promise<Child> {
  const file = isAbsolute(entry) ? entry : fileURLToPath(new URL(COMPILED ? entry.replace(/\.ts$/, '.js') : entry, import.meta.url));
  const child = fork(file, [JSON.stringify(spec)], {
    execArgv: [...(COMPILED ? [] : ['--import', 'tsx']), ...SERVED_FLAGS, ...(options.execArgv ?? []), ...(options.gcTrace ? ['--trace-gc-nvp'] : [])],
    stdio: ['ignore', options.gcTrace ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  const pid = child.pid ?? -1;
  const gc = options.gcTrace && child.stdout ? readGcTrace(child.stdout) : undefined;
  try {
    const info = await waitReady(name, child);
    return { ...wrap(name, pid, child, info), ...(gc ? { gc } : {}) };
  } catch (error) {
    await killChild(child);
    throw error;
  }
}

function waitReady(name: string, child: ChildProcess): Promise<Readonly<Record<string, string | number>>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${name}: not ready after ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'ready') done(undefined, message.info);
      else if (message.type === 'failed') done(new Error(`${name} failed to start: ${message.message}`));
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`${name} exited before ready (code ${code}, signal ${signal})`));
    const onError = (error: Error) => done(error);
    function done(error: Error | undefined, info?: Readonly<Record<string, string | number>>) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
      if (error || !info) reject(error ?? new Error(`${name}: no info`));
      else resolve(info);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

function wrap(name: string, pid: number, child: ChildProcess, info: Readonly<Record<string, string | number>>): Child {
  let nextId = 1;
  const usage = (): Promise<{ rss: number; cpuMicros: number }> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${name}: no usage answer`)), 5000);
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'rss' && message.id === id) finish(undefined, { rss: message.rss, cpuMicros: message.cpuMicros });
      };
      function finish(error: Error | undefined, value?: { rss: number; cpuMicros: number }) {
        clearTimeout(timer);
        child.off('message', onMessage);
        if (error || value === undefined) reject(error ?? new Error('no usage'));
        else resolve(value);
      }
      child.on('message', onMessage);
      const request: ParentMessage = { type: 'rss', id };
      child.send(request);
    });
  };
  const profiled = (message: ParentMessage): Promise<readonly string[]> =>
    new Promise((resolve) => {
      const onMessage = (reply: ChildMessage) => {
        if (reply.type !== 'profiled') return;
        child.off('message', onMessage);
        resolve(reply.files);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  return {
    name,
    pid,
    info,
    profile: {
      start: () => profiled({ type: 'profile-start' }).then(() => undefined),
      stop: (dir, file) => profiled({ type: 'profile-stop', dir, name: file }),
    },
    rss: () => (HAS_PROC ? Promise.resolve(treeRssBytes(pid)) : usage().then((u) => u.rss)),
    cpuMicros: () => (HAS_PROC ? Promise.resolve(treeCpuMicros(pid)) : usage().then((u) => u.cpuMicros)),
    kill: () => killChild(child),
  };
}

/** Asks the child to stop, then SIGKILLs it after a grace period; resolves once it has exited. */
export function killChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      if (child.connected) {
        const stop: ParentMessage = { type: 'stop' };
        child.send(stop);
      } else {
        child.kill('SIGTERM');
      }
    } catch {
      child.kill('SIGKILL');
    }
  });
}

/** The canned upstreams (bench/upstreams-child.ts), and where they listen. */
/** Where the canned upstreams (bench/upstreams-child.ts) listen, and the CA their https side is signed with. */
export interface UpstreamInfo {
  readonly legacyOrigin: string;
  readonly api2Origin: string;
  readonly caFile: string;
}

export async function forkUpstreams(): Promise<{ readonly child: Child; readonly info: UpstreamInfo }> {
  const child = await forkChild('upstreams', './upstreams-child.ts', {});
  const info = child.info as Record<string, string>;
  return { child, info: { legacyOrigin: info['legacyOrigin']!, api2Origin: info['api2Origin']!, caFile: info['caFile']! } };
}
