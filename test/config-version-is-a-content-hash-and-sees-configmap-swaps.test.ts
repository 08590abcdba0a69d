/**
 * Config across replicas: the version two replicas compare is the config's content hash (the
 * same document, whatever its key order, gives the same hash; the admin view shows it), and a
 * Kubernetes ConfigMap update (the kubelet's atomic `..data` symlink swap) is seen by the watcher.
 */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { watchConfigFile } from '../src/node/config-watch.js';
import { startGateway } from '../src/node/server.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { send } from './support/http.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';

const TOKEN = 'admin-token-for-the-hash-test';
const cleanup = closedAfterEachTest();

function documentFor(legacy: string, ttlMs: number): GatewayConfigInput {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: legacy } },
    routes: { 'recipes.search': { cache: { ttlMs } } },
    observability: { log: { destination: '/dev/null' }, admin: { bearerToken: TOKEN } },
  };
}

async function gatewayWith(document: GatewayConfigInput) {
  const parsed = parseConfig(document);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const gateway = await startGateway(parsed.config);
  cleanup.push(() => gateway.close());
  return gateway;
}

/** Writes the files of one ConfigMap version as the kubelet does: a `..<timestamp>` folder. */
async function writeVersion(dir: string, stamp: string, text: string): Promise<string> {
  const folder = `..${stamp}`;
  await mkdir(join(dir, folder));
  await writeFile(join(dir, folder, 'config.json'), text);
  return folder;
}

const reversedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversedKeys)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]))
      : value;

describe('config version across replicas', () => {
  it('gives two replicas of one config the same hash, shown in the admin view; another config another hash', async () => {
    const upstream = await startRecordingUpstream();
    cleanup.push(() => upstream.close());
    const a = await gatewayWith(documentFor(upstream.origin, 60_000));
    const b = await gatewayWith(reversedKeys(documentFor(upstream.origin, 60_000)) as GatewayConfigInput);
    const c = await gatewayWith(documentFor(upstream.origin, 30_000));
    expect(a.configHash()).toMatch(/^[0-9a-f]{16}$/);
    expect(b.configHash()).toBe(a.configHash());
    expect(c.configHash()).not.toBe(a.configHash());
    const view = await send(a.httpOrigin, { target: '/admin/config', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(view.json()).toMatchObject({ configHash: a.configHash() });
  });

  it('reloads when a ConfigMap update swaps the ..data symlink, as the kubelet does it', async () => {
    const upstream = await startRecordingUpstream();
    cleanup.push(() => upstream.close());
    const first = documentFor(upstream.origin, 60_000);
    const gateway = await gatewayWith(first);
    const dir = await mkdtemp(join(tmpdir(), 'configmap-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    // The mounted volume: config.json → ..data/config.json, ..data → ..<timestamp>.
    const old = await writeVersion(dir, '2026_11_23_23_40_00.000000001', JSON.stringify(first));
    await symlink(old, join(dir, '..data'));
    await symlink(join('..data', 'config.json'), join(dir, 'config.json'));
    const hashes: string[] = [];
    const watcher = watchConfigFile(join(dir, 'config.json'), gateway, { debounceMs: 50, report: (r) => void (r.ok && hashes.push(r.configHash)) });
    cleanup.push(() => watcher.close());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = gateway.configHash();

    // The update: a new timestamped folder, `..data_tmp` pointing at it renamed over `..data`, the old folder removed.
    const next = await writeVersion(dir, '2026_11_23_23_41_00.000000002', JSON.stringify(documentFor(upstream.origin, 30_000)));
    await symlink(next, join(dir, '..data_tmp'));
    await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    await rm(join(dir, old), { recursive: true });

    await waitFor(() => gateway.configHash() !== before, 15_000);
    expect(gateway.version()).toBe(2);
    expect(hashes).toContain(gateway.configHash());
    const view = await send(gateway.httpOrigin, { target: '/admin/config', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(view.json()).toMatchObject({ configHash: gateway.configHash(), config: { routes: { 'recipes.search': { cache: { ttlMs: 30_000 } } } } });
  });
});
