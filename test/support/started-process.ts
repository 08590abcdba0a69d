/**
 * A long-running child process started the way a user starts it (`npm start`, `npm run serve`),
 * from the repository root, in a process group of its own: its output is collected, `ready` waits
 * for a line on stderr, `stop` sends SIGINT to the group (as Ctrl-C in a terminal does) and waits
 * until every process of it has closed its output (SIGKILL after a bound, so a test never hangs).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess, ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { waitFor } from './wait.js';
import { nodeArgsOf } from './entry.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface StartedProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches; rejects if the process exits first or after `timeoutMs`. */
  ready(pattern: RegExp, timeoutMs?: number): Promise<void>;
  readonly exited: Promise<Exit>;
  stop(): Promise<Exit>;
}

export function startProcess(command: string, args: readonly string[], env: Record<string, string> = {}): StartedProcess {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // 'close': the process exited and every process holding its stdout and stderr (npm's child) too.
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    ready: (pattern, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`not ready after ${timeoutMs} ms; stderr:\n${err}`)), timeoutMs);
        const check = (): void => {
          if (pattern.test(err)) finish();
        };
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          child.stderr.off('data', check);
          if (error) reject(error);
          else resolve();
        };
        child.stderr.on('data', check);
        void exited.then((exit) => finish(new Error(`exited (${exit.code ?? exit.signal}) before it was ready; stderr:\n${err}`)));
        check();
      }),
    stop: async () => {
      signalGroup(child, 'SIGINT');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 30_000);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

/** The whole process group: npm and the gateway it runs. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** The port a started gateway printed: `recipe-gateway listening on http://0.0.0.0:PORT` (or `metrics: http://…:PORT/`). */
export function printedPort(stderr: string, what: 'listening on' | 'metrics:'): number {
  const port = new RegExp(`${what} https?://[^\\s]*:(\\d+)`).exec(stderr)?.[1];
  if (!port) throw new Error(`no "${what}" port in:\n${stderr}`);
  return Number(port);
}

/** A loopback port free at the time of asking: one to listen on, or one nothing listens on (a refused connection). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface MainChild {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** stdout and stderr together, in the order they arrived. */
  output(): string;
  /** How it exited, and when (Date.now()); resolved once its output is read to the end. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/**
 * For a test file that runs the gateway's main (`node src/node/main.ts --config FILE`, transpiled:
 * entry.ts; what `npm start -- --config FILE` runs) as child processes, each signalled on its own (no
 * process group, no npm around it): the starter, which resolves once the output matches `ready`
 * or the child exited; after each test, SIGKILL to every one still running.
 */
export function mainChildrenKilledAfterEach(): (configFile: string, ready: RegExp, timeoutMs: number) => Promise<MainChild> {
  const children: Array<ChildProcessByStdio<null, Readable, Readable>> = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return async (configFile, ready, timeoutMs) => {
    const child = spawn(process.execPath, [...nodeArgsOf('src/node/main.ts'), '--config', configFile], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // When it exited, told once its output is read to the end ('close'; 'exit' may come first), or
    // 2 s after it exited when its own children (cluster workers) still hold the output.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
      child.once('exit', (code, signal) => {
        const at = Date.now();
        const done = (): void => resolve({ code, signal, at });
        child.once('close', done);
        setTimeout(done, 2_000).unref();
      }),
    );
    await waitFor(() => ready.test(output) || child.exitCode !== null, timeoutMs, 'the gateway listening');
    return { child, output: () => output, exited };
  };
}
