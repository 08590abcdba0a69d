/**
 * Hot reload: a valid config replaces the one in force atomically, under load, with zero failed
 * requests (requests in flight finish on the config they started with); an invalid one is
 * refused with its reasons and the old one stays; SIGHUP and a change of the file both reload;
 * the admin view shows the version in force and the traffic state, behind the admin token.
 */
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { watchConfigFile } from '../src/node/config-watch.js';
import { startGateway } from '../src/node/server.js';
import type { RunningGateway } from '../src/node/server.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { send } from './support/http.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';

const J = { accept: 'application/json' };
const TOKEN = 'admin-token-for-the-reload-test';
const cleanup = closedAfterEachTest();

async function rig() {
  const legacy = await startLegacySandbox();
  const api2 = await startApi2Sandbox();
  cleanup.push(() => legacy.close(), () => api2.close());
  const document = (searchMode: 'legacy' | 'api2' | 'shadow'): GatewayConfigInput => ({
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    routes: { 'recipes.search': { mode: searchMode } },
    observability: { log: { destination: '/dev/null' }, admin: { bearerToken: TOKEN }, hashKey: 'a-hash-key-that-is-long-enough' },
  });
  const parsed = parseConfig(document('legacy'));
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const records: Array<{ mode?: string }> = [];
  const gateway = await startGateway(parsed.config, { onRecord: (r) => records.push({ ...(r.mode ? { mode: r.mode } : {}) }) });
  cleanup.push(() => gateway.close());
  return { gateway, document, records };
}

/**
 * The gateway's legacy config written to a file in a folder of its own and watched (SIGHUP too);
 * `outcomes` lists each reload as `reason: ok VERSION` or `reason: refused`.
 */
async function watchedConfigFile(gateway: RunningGateway, document: (searchMode: 'legacy') => GatewayConfigInput, debounceMs: number) {
  const dir = await mkdtemp(join(tmpdir(), 'reload-'));
  const file = join(dir, 'gateway.json');
  await writeFile(file, JSON.stringify(document('legacy')));
  const outcomes: string[] = [];
  const watcher = watchConfigFile(file, gateway, { onSignal: true, debounceMs, report: (r, reason) => outcomes.push(`${reason}: ${r.ok ? `ok ${r.version}` : 'refused'}`) });
  cleanup.push(() => watcher.close());
  return { dir, file, outcomes, watcher };
}

function valid(document: GatewayConfigInput) {
  const parsed = parseConfig(document);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

/** Sends `total` searches, `concurrency` at a time, and returns their statuses. */
async function load(gateway: RunningGateway, total: number, concurrency: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const res = await send(gateway.httpOrigin, { target: `/recipes?title_kw=${['soup', 'pie', 'chicken', 'salad'][i % 4]}&pg=${(i % 5) + 1}&api_key=sandbox-free-key`, headers: J });
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

describe('hot reload', () => {
  it('switches modes under load with zero failed requests', async () => {
    const { gateway, document, records } = await rig();
    const traffic = load(gateway, 400, 12);
    for (const mode of ['api2', 'legacy', 'shadow', 'api2'] as const) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await gateway.reload(valid(document(mode)));
    }
    const statuses = await traffic;
    expect(statuses).toHaveLength(400);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(gateway.version()).toBe(5);
    expect(new Set(records.map((r) => r.mode))).toEqual(new Set(['legacy', 'api2']));
  });

  it('refuses an invalid file with its reasons and keeps the config in force; a file change reloads', async () => {
    const { gateway, document } = await rig();
    const { dir, file, outcomes, watcher } = await watchedConfigFile(gateway, document, 50);
    await new Promise((resolve) => setTimeout(resolve, 100));

    await writeFile(file, JSON.stringify({ ...document('api2'), routes: { 'favorites.create': { mode: 'api2' } } }));
    const refused = await watcher.reloadNow('test');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors.join('\n')).toContain('routes["favorites.create"].mode: favorites.create cannot be routed to api2');
    expect(gateway.version()).toBe(1);
    expect((await send(gateway.httpOrigin, { target: '/recipes?api_key=sandbox-free-key', headers: J })).status).toBe(200);

    // An editor that writes a temp file and renames it over the config.
    await writeFile(join(dir, 'tmp.json'), JSON.stringify(document('api2')));
    await rename(join(dir, 'tmp.json'), file);
    await waitFor(() => gateway.version() === 2, 10_000);
    expect(outcomes).toContain('test: refused');
    expect(outcomes).toContain('file changed: ok 2');
  });

  it('SIGHUP alone reloads the file (the file watcher is held off, so only the signal can)', async () => {
    const { gateway, document } = await rig();
    // A debounce far longer than the test: a change of the file cannot reload before close().
    const { file, outcomes, watcher } = await watchedConfigFile(gateway, document, 600_000);
    // The watcher reads its baseline asynchronously; a reload now settles it on the file as
    // written (it may or may not count as a new version, depending on which read finished first).
    await watcher.reloadNow('baseline');
    outcomes.length = 0;
    const before = gateway.version();

    await writeFile(file, JSON.stringify(document('shadow')));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(gateway.version(), 'nothing reloads on the file change alone').toBe(before);
    process.emit('SIGHUP');
    await waitFor(() => gateway.version() === before + 1, 10_000);
    expect(outcomes).toEqual([`SIGHUP: ok ${before + 1}`]);
    const view = await send(gateway.httpOrigin, { target: '/admin/config', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(view.json()).toMatchObject({ version: before + 1, config: { routes: { 'recipes.search': { mode: 'shadow' } } } });
  });

  it('shows the config in force and the traffic state behind the admin token, secrets redacted', async () => {
    const { gateway, document } = await rig();
    await gateway.reload(valid(document('shadow')));
    await send(gateway.httpOrigin, { target: '/recipes?title_kw=soup&api_key=sandbox-free-key', headers: J });
    expect((await send(gateway.httpOrigin, { target: '/admin/config' })).status).toBe(401);
    const config = await send(gateway.httpOrigin, { target: '/admin/config', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(config.status).toBe(200);
    expect(config.json()).toMatchObject({ version: 2, config: { routes: { 'recipes.search': { mode: 'shadow' } } } });
    expect(config.text()).not.toContain(TOKEN);
    expect(config.text()).not.toContain('a-hash-key-that-is-long-enough');
    await waitFor(async () => {
      const view = (await send(gateway.httpOrigin, { target: '/admin/traffic', headers: { authorization: `Bearer ${TOKEN}` } })).json() as {
        shadow: { operations: Array<{ operation: string; compared: number }> } | null;
      };
      return (view.shadow?.operations.find((o) => o.operation === 'recipes.search')?.compared ?? 0) >= 1;
    }, 10_000);
  });
});
