/**
 * Runs a command to its end as a child process and collects its exit code and output: the
 * project's TypeScript entry points (`bench/run.ts`, `scripts/docs.ts`, the gateway's
 * `src/node/main.ts` …) with node and tsx, from the repository root, or any command. Bounded: the
 * child is killed (SIGKILL) after `timeoutMs`; a node child's own children exit with it (their IPC
 * channel closes).
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from './started-process.js';
import { nodeArgsOf } from './entry.js';

export interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together, in the order they arrived. */
  readonly output: string;
}

export interface RunOptions {
  /** Default: the repository root. */
  readonly cwd?: string;
  /** The child's whole environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  /**
   * `exit` (default): done when the child has exited and its output is read to the end (at most 2 s
   * more if its own children still hold it). `close`: done once every process holding its output has
   * closed it too (a shell's background children included).
   */
  readonly until?: 'exit' | 'close';
}

/** Runs `command ARGS`; rejects only when it cannot be started. */
export function runBounded(command: string, args: readonly string[], options: RunOptions): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const done = (code: number | null): void => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output });
    };
    child.once('close', done);
    // 'exit' can come before the last of the output has been read (Node's docs: the stdio streams may
    // still be open): a `--help` once read as empty on a busy machine. So the output is read to its
    // end, unless the child's own children still hold it 2 s after the child exited.
    if ((options.until ?? 'exit') === 'exit') child.once('exit', (code: number | null) => setTimeout(() => done(code), 2_000).unref());
  });
}

/** Runs `node ARGS`. */
export function runNode(args: readonly string[], options: RunOptions): Promise<ScriptRun> {
  return runBounded(process.execPath, args, options);
}

/** Runs a TypeScript entry point of the repository (entry.ts: from the transpiled sources under src/, else with tsx). */
export function runTsxScript(script: string, args: readonly string[], timeoutMs: number): Promise<ScriptRun> {
  return runNode([...nodeArgsOf(script), ...args], { timeoutMs });
}

/**
 * `node src/node/main.ts …` (transpiled, entry.ts): the process `npm start` runs, without npm around it;
 * `env` added to this process's. Its code, stdout and stderr only (tests compare them whole).
 */
export async function runGateway(args: readonly string[], env: Record<string, string> = {}): Promise<Omit<ScriptRun, 'output'>> {
  const { code, stdout, stderr } = await runNode([...nodeArgsOf('src/node/main.ts'), ...args], { env: { ...process.env, ...env }, timeoutMs: 60_000 });
  return { code, stdout, stderr };
}
