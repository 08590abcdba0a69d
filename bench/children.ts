/**
 * The parent side of the processes under test (the child side is bench/ipc.ts): fork a bench entry
 * with production's Node flags, wait until it listens, ask it questions, kill it (politely, then SIGKILL).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, Info, ParentMessage, Question } from './ipc.js';
import { servedNodeFlags } from './node-flags.js';

// Generous: a dozen children start at once, on a machine that may be busy.
const START_TIMEOUT_MS = 120_000;

export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly info: Info;
  /** A question to the child (bench/ipc.ts); absent for nginx. */
  readonly ask?: <T>(question: Question) => Promise<T>;
  /** Set when forked with `gcTrace`. */
  readonly gc?: GcTrace;
  kill(): Promise<void>;
}

/** `execArgv`: Node flags after production's (e.g. --expose-gc); `gcTrace`: run with --trace-gc-nvp and read its scavenges (readGcTrace). */
export type ForkOptions = { readonly execArgv?: readonly string[]; readonly gcTrace?: boolean };

/** Compiled (npm run bench builds first): children run as plain JS, so RSS is the gateway's own. */
const COMPILED = import.meta.url.endsWith('.js');

/** Production's Node flags, for every child (bench/node-flags.ts). */
const SERVED_FLAGS = servedNodeFlags();

/** The kill of every child started and not stopped yet: bench/run.ts stops them after every mode, the runner after every run. */
const running = new Set<() => Promise<void>>();

/** `kill`, registered until it is called, so that `stopAll` ends the child if nothing else has. */
export function tracked(kill: () => Promise<void>): () => Promise<void> {
  const once = () => {
    running.delete(once);
    return kill();
  };
  running.add(once);
  return once;
}

export async function stopAll(): Promise<void> {
  await Promise.allSettled([...running].map((kill) => kill()));
}

/** Forks `bench/<entry>` with `spec`; resolves once ready. */
export async function forkChild(name: string, entry: string, spec: unknown, options: ForkOptions = {}): Promise<Child> {
  const file = fileURLToPath(new URL(COMPILED ? entry.replace(/\.ts$/, '.js') : entry, import.meta.url));
  const child = fork(file, [JSON.stringify(spec)], {
    execArgv: [...(COMPILED ? [] : ['--import', 'tsx']), ...SERVED_FLAGS, ...(options.execArgv ?? []), ...(options.gcTrace ? ['--trace-gc-nvp'] : [])],
    stdio: ['ignore', options.gcTrace ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  const gc = options.gcTrace && child.stdout ? readGcTrace(child.stdout) : undefined;
  try {
    const info = await reply<Info>(child, START_TIMEOUT_MS, `${name}: not ready`, (message) => {
      if (message.type === 'failed') throw new Error(`${name} failed to start: ${message.message}`);
      return message.type === 'ready' ? message.info : undefined;
    });
    let nextId = 1;
    const ask = <T>(question: Question): Promise<T> => {
      const id = nextId++;
      child.send({ type: 'ask', id, question } satisfies ParentMessage);
      return reply<T>(child, 60_000, `${name}: no answer to ${question.type}`, (message) => (message.type === 'reply' && message.id === id ? (message.value as T) : undefined));
    };
    return { name, pid: child.pid ?? -1, info, ask, ...(gc ? { gc } : {}), kill: tracked(() => killChild(child)) };
  } catch (error) {
    await killChild(child);
    throw error;
  }
}

/** The first message `pick` turns into a value (or throws on), failing on exit or after `timeoutMs`. */
function reply<T>(child: ChildProcess, timeoutMs: number, late: string, pick: (message: ChildMessage) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${late} after ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: ChildMessage) => {
      try {
        const value = pick(message);
        if (value !== undefined) done(undefined, value);
      } catch (error) {
        done(error as Error);
      }
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`${late}: exited (code ${code}, signal ${signal})`));
    function done(error: Error | undefined, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit).off('error', done);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage).once('exit', onExit).once('error', done);
  });
}

/** Asks the child to stop, then SIGKILLs it after a grace period; resolves once it has exited. */
function killChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
      else child.kill('SIGTERM');
    } catch {
      child.kill('SIGKILL');
    }
  });
}

/** Where the canned upstreams (bench/upstreams-child.ts) or the sandboxes (bench/sandbox-child.ts) listen, and the CA of their https side. */
export type UpstreamInfo = { readonly legacyOrigin: string; readonly api2Origin: string; readonly caFile: string };

export async function forkUpstreams(entry = './upstreams-child.ts', options: ForkOptions = {}): Promise<{ readonly child: Child; readonly info: UpstreamInfo }> {
  const child = await forkChild(entry.replace(/^\.\/|-child\.ts$/g, ''), entry, {}, options);
  const info = child.info as Record<string, string>;
  return { child, info: { legacyOrigin: info['legacyOrigin']!, api2Origin: info['api2Origin']!, caFile: info['caFile']! } };
}

/**
 * `--trace-gc-nvp` prints a line per collection on the child's stdout; a scavenge's `promoted=N` is
 * what a request still reachable moved to the old generation. Other lines pass through.
 */
/** A scavenge: its pause, the bytes it promoted, and the bytes that survived it and stayed young. */
export type Scavenge = { readonly pauseMs: number; readonly promoted: number; readonly survived: number };
/** Every scavenge so far, the bytes they promoted, the mark-compacts. */
export type GcTrace = { readonly scavenges: readonly Scavenge[]; promotedBytes(): number; markCompacts(): number };

const field = (line: string, name: string): number => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? Number.NaN);

export function readGcTrace(stdout: Readable): GcTrace {
  const scavenges: Scavenge[] = [];
  let promoted = 0;
  let markCompacts = 0;
  let pending = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (/\bgc=s\b/.test(line) && /\bpromoted=\d/.test(line)) {
        scavenges.push({ pauseMs: field(line, 'pause'), promoted: field(line, 'promoted'), survived: field(line, 'new_space_survived') });
        promoted += field(line, 'promoted');
      } else if (/\bgc=mc\b/.test(line)) markCompacts += 1;
      else if (!line.includes('pause=') && !line.includes('promoted=')) process.stdout.write(`${line}\n`);
    }
  });
  return { scavenges, promotedBytes: () => promoted, markCompacts: () => markCompacts };
}
