/**
 * Reload = start (issue 28, item 3): two gateway processes with PORT and GATEWAY_HASH_KEY set, as
 * deploy/k8s sets them. One runs while its ConfigMap-style folder is swapped (`..data`, as the
 * kubelet does it); the other starts fresh on the new file. The reloaded one applies the same
 * environment the start applied: it shows the fresh replica's config hash and asks for no restart;
 * a swap to the same content says it changed nothing.
 */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { startProcess } from './support/started-process.js';
import type { StartedProcess } from './support/started-process.js';
import { nodeArgsOf } from './support/entry.js';

const ENV = { PORT: '0', GATEWAY_HASH_KEY: 'replica-hash-key-0123456789abcdef', GATEWAY_ADMIN_TOKEN: '' };
const running: StartedProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((process) => process.stop()));
});

function documentFor(ttlMs: number): string {
  return JSON.stringify({
    listen: { host: '127.0.0.1', port: 8080 },
    upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } },
    routes: { 'recipes.search': { cache: { ttlMs } } },
    observability: { log: { destination: 'stdout' }, admin: { listen: { host: '127.0.0.1', port: 0 } } },
  });
}

/** One ConfigMap version as the kubelet writes it, then `..data` swapped to it. */
async function swapTo(dir: string, stamp: string, text: string): Promise<void> {
  const folder = `..${stamp}`;
  await mkdir(join(dir, folder));
  await writeFile(join(dir, folder, 'gateway.json'), text);
  await symlink(folder, join(dir, '..data_tmp'));
  await rename(join(dir, '..data_tmp'), join(dir, '..data'));
}

async function startReplica(file: string): Promise<{ process: StartedProcess; adminOrigin: string }> {
  const replica = startProcess(process.execPath, [...nodeArgsOf('src/node/main.ts'), '--config', file], ENV);
  running.push(replica);
  await replica.ready(/metrics: http:\/\/\S+\/metrics/);
  const adminOrigin = /metrics: (http:\/\/\S+)\/metrics/.exec(replica.stderr())![1]!;
  return { process: replica, adminOrigin };
}

async function hashOf(adminOrigin: string): Promise<string> {
  const view = await send(adminOrigin, { target: '/admin/config' });
  return (view.json() as { configHash: string }).configHash;
}

async function nextReload(replica: StartedProcess, count: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const lines = replica.stderr().split('\n').filter((line) => line.startsWith('config file changed:'));
    if (lines.length >= count) return lines[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no reload line ${count}; stderr:\n${replica.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a reload applies the environment the start applied', () => {
  it('a ..data swap with PORT and GATEWAY_HASH_KEY set: the fresh replica\'s hash, no restart asked; the same content again: unchanged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'configmap-'));
    await swapTo(dir, '2026_11_24_22_00_00.000000001', documentFor(60_000));
    await symlink(join('..data', 'gateway.json'), join(dir, 'gateway.json'));
    const file = join(dir, 'gateway.json');

    const reloaded = await startReplica(file);
    const before = await hashOf(reloaded.adminOrigin);
    await swapTo(dir, '2026_11_24_22_01_00.000000002', documentFor(30_000));
    const line = await nextReload(reloaded.process, 1);
    expect(line).not.toContain('restart');
    const after = await hashOf(reloaded.adminOrigin);
    expect(after).not.toBe(before);
    expect(line).toContain(`config ${after} in force (version 2)`);

    const fresh = await startReplica(file);
    expect(await hashOf(fresh.adminOrigin)).toBe(after);

    await swapTo(dir, '2026_11_24_22_02_00.000000003', documentFor(30_000));
    expect(await nextReload(reloaded.process, 2)).toBe('config file changed: unchanged');
    expect(await hashOf(reloaded.adminOrigin)).toBe(after);
    await rm(dir, { recursive: true, force: true });
  }, 90_000);
});
