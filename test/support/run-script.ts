/**
 * Runs one of the project's TypeScript entry points (`bench/run.ts`, `bench/soak.ts`, …) as a child
 * Node process with tsx, from the repository root, and collects its exit code and output. Bounded:
 * the child is killed after `timeoutMs` (its own children exit with it: their IPC channel closes).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

export function runTsxScript(script: string, args: readonly string[], timeoutMs: number): Promise<ScriptRun> {
  return runNode(['--import', 'tsx', script, ...args], { cwd: root, timeoutMs });
}

/** Runs `node ARGS` in `cwd`, bounded the same way. */
export function runNode(args: readonly string[], options: { readonly cwd: string; readonly timeoutMs: number }): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
