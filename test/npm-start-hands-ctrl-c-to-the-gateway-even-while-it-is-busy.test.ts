/**
 * The commands of `npm start`, `npm run report` and `npm run client-hash` hand Ctrl-C to the process
 * itself, even while its event loop is busy: run under the tsx CLI, a child that does not report the
 * signal back within 2 x 30 ms is killed with SIGKILL, so a demo under its own traffic stopped
 * without draining or a word (the demo's test saw it on a loaded machine). Each script's runner
 * (package.json, its entry replaced by a busy fixture) is started in a process group of its own,
 * interrupted while busy, and its SIGINT handler must run.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/started-process.js';
import { waitFor } from './support/wait.js';

const FIXTURE = 'test/fixtures/busy-until-interrupted.ts';

async function commandOf(script: string): Promise<string> {
  const scripts = (JSON.parse(await readFile(`${REPO_ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
  return scripts[script]!.replace(/src\/\S+\.ts/, FIXTURE);
}

describe.concurrent('the npm scripts that run a TypeScript entry', () => {
  for (const script of ['start', 'report', 'client-hash']) {
    it(`${script}: its SIGINT handler runs though its event loop is busy`, async () => {
      const child = spawn('sh', ['-c', `PATH="${REPO_ROOT}node_modules/.bin:$PATH" exec ${await commandOf(script)}`], { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      try {
        await waitFor(() => stderr.includes('ready'), 30_000, 'the fixture started');
        await new Promise((resolve) => setTimeout(resolve, 300)); // inside its busy second
        process.kill(-child.pid!, 'SIGINT');
        await exited;
        expect(stderr).toContain('handler ran');
      } finally {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }, 60_000);
  }
});
