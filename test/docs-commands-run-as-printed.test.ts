/**
 * Every command the README and docs/ show as `sh runnable` works as printed: the sandbox is started
 * the way the README says (`npm start`, and `npm start -- --api2` for `runnable api2` blocks) on
 * free ports (PORT=0, ADMIN_PORT=0: the gateway picks them and prints them), and each block runs in bash (`-e -o pipefail`) from the repository root, where it must
 * exit 0 and print the lines of the `output` block that follows it, if any. Substituted, and only
 * these: `127.0.0.1:8080` becomes the gateway's port, `127.0.0.1:9090` the admin port
 * (`ADMIN_PORT=9090` in the docs), and `usage.log` a file in a temporary folder that receives the
 * gateways' stdout (as `npm start > usage.log` does). Blocks that read `usage.log` run last, after
 * the gateways have stopped and flushed their log, as the docs tell the reader to.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellBlocks } from './support/doc-blocks.js';
import type { DocBlock } from './support/doc-blocks.js';
import { REPO_ROOT, printedPort, startProcess } from './support/started-process.js';
import type { StartedProcess } from './support/started-process.js';
import { runBounded } from './support/run-script.js';
import type { ScriptRun } from './support/run-script.js';

const blocks = await shellBlocks();
const runnable = blocks.filter((b) => /^runnable\b/.test(b.info));

describe('how each shell block of the docs is checked', () => {
  it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))('%s says it (runnable, by=FILE or manual)', (_, block) => {
    expect(block.info).toMatch(/^(runnable( api2)?|by=\S+( \S+)*|manual \(.+\))$/);
    for (const [, file] of block.info.matchAll(/(?:by=|\s)(\S+\.(?:ts|sh)|\.ci\/run)/g)) expect(existsSync(join(REPO_ROOT, file ?? '')), `${file} exists`).toBe(true);
  });

  it('has runnable blocks in the README, in legacy and in api2 mode', () => {
    expect(runnable.filter((b) => b.file === 'README.md' && b.info === 'runnable').length).toBeGreaterThan(0);
    expect(runnable.filter((b) => b.file === 'README.md' && b.info === 'runnable api2').length).toBeGreaterThan(0);
  });
});

interface Sandbox {
  readonly gateway: StartedProcess;
  readonly port: number;
  readonly adminPort: number;
}

let dir: string;
let usageLog: string;
const sandboxes: Sandbox[] = [];

async function startSandbox(args: readonly string[]): Promise<Sandbox> {
  // Port 0: free ports chosen by the gateway itself (no race with other tests for a port).
  const gateway = startProcess('npm', ['start', ...args], { PORT: '0', ADMIN_PORT: '0' });
  const log = createWriteStream(usageLog, { flags: 'a' });
  gateway.child.stdout?.pipe(log);
  await gateway.ready(/metrics: http/);
  return { gateway, port: printedPort(gateway.stderr(), 'listening on'), adminPort: printedPort(gateway.stderr(), 'metrics:') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docs-commands-'));
  usageLog = join(dir, 'usage.log');
  sandboxes.push(await startSandbox([]), await startSandbox(['--', '--api2']));
}, 120_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.gateway.stop()));
  await rm(dir, { recursive: true, force: true });
});

function run(block: DocBlock, sandbox: Sandbox): Promise<ScriptRun> {
  const script = block.code
    .replaceAll('127.0.0.1:8080', `127.0.0.1:${sandbox.port}`)
    .replaceAll('127.0.0.1:9090', `127.0.0.1:${sandbox.adminPort}`)
    .replace(/(?<![\w/.-])usage\.log/g, usageLog);
  return runBounded('bash', ['-e', '-o', 'pipefail', '-c', script], { timeoutMs: 90_000, until: 'close' });
}

const readsLog = (b: DocBlock): boolean => /(?<![\w/.-])usage\.log/.test(b.code);

describe('runnable commands of the README and docs/', () => {
  for (const block of [...runnable.filter((b) => !readsLog(b)), ...runnable.filter(readsLog)]) {
    it(`${block.file}:${block.line} (${block.info}) runs as printed`, async () => {
      if (readsLog(block)) await Promise.all(sandboxes.map((s) => s.gateway.stop()));
      const sandbox = block.info === 'runnable api2' ? sandboxes[1] : sandboxes[0];
      if (!sandbox) throw new Error('no sandbox');
      const result = await run(block, sandbox);
      expect(result.code, `${block.code}\n---\n${result.output}`).toBe(0);
      for (const line of block.expectedOutput) expect(result.output).toContain(line);
    }, 120_000);
  }
});
