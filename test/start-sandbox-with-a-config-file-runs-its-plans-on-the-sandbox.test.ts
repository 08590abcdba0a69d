/**
 * A config file run on the sandbox, as a migration owner tries a plan: `--demo --print-config`
 * writes the starting point, `npm start -- --sandbox --config FILE` points FILE's upstreams at the
 * sandbox backends (CA included), applies the sandbox's own settings and lists them, names the
 * console, serves FILE's rollout plans, and answers an admin POST sent to the main port by mistake
 * with where the admin listener is (never passed to legacy); `--print-config` with a file refuses.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { printedPort, startProcess } from './support/started-process.js';
import { runGateway } from './support/run-script.js';

let file: string;
let printed: { upstreams: { legacy: { baseUrl: string }; api2: { baseUrl: string; caFile?: string } }; routes: Record<string, { rollout?: { steps: unknown[] } }> };

const clean = { GATEWAY_CONFIG: '', PORT: '0', ADMIN_PORT: '0', GATEWAY_ADMIN_TOKEN: '', SANDBOX_API2_FAULT: '' };

beforeAll(async () => {
  const run = await runGateway(['--demo', '--print-config'], clean);
  expect(run.code, run.stderr).toBe(0);
  printed = JSON.parse(run.stdout) as typeof printed;
  file = join(await mkdtemp(join(tmpdir(), 'sandbox-config-')), 'gateway.json');
  await writeFile(file, run.stdout);
}, 60_000);

describe('--print-config', () => {
  it('prints the demo config with placeholder upstreams and a plan on each read and write that can move', () => {
    expect(printed.upstreams.legacy.baseUrl).toBe('http://legacy.example.internal');
    expect(printed.upstreams.api2).toEqual({ baseUrl: 'https://api2.example.internal' });
    expect(printed.routes['recipes.search']?.rollout?.steps).toEqual(['shadow', 20, 50, 100]);
    expect(printed.routes['grocery.create']?.rollout?.steps).toEqual([50, 100]);
    expect(printed.routes['favorites.create']).toBeUndefined();
  });

  it('refuses beside --config: the file is the config', async () => {
    const run = await runGateway(['--config', file, '--print-config'], clean);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--print-config prints the sandbox's own config/);
  }, 60_000);
});

describe('--sandbox --config FILE', () => {
  it('serves the plans of FILE on the sandbox backends, lists the settings applied, names the console, and answers an admin POST on the main port itself', async () => {
    const gateway = startProcess('npx', ['tsx', 'src/node/main.ts', '--sandbox', '--config', file], clean);
    try {
      await gateway.ready(/metrics: http/);
      const banner = gateway.stderr();
      const port = printedPort(banner, 'listening on');
      const adminPort = printedPort(banner, 'metrics:');
      expect(banner).toMatch(/sandbox settings applied: upstreams\.legacy\.baseUrl=http:\/\/127\.0\.0\.1:\d+; upstreams\.api2\.baseUrl=https:\/\/127\.0\.0\.1:\d+; upstreams\.api2\.caFile=\S+\.pem; api2\.noPhotoImageUrl=https:\/\/\S+/);
      expect(banner).toContain(`console: http://127.0.0.1:${adminPort}/admin`);
      expect(banner).toContain(`routes: as ${file} says (12 rollout plans)`);

      const rollout = (await (await request(`http://127.0.0.1:${adminPort}/admin/rollout`)).body.json()) as { operations: Array<{ operation: string; exposure: { mode: string } }> };
      expect(rollout.operations).toHaveLength(12);
      expect(rollout.operations.find((op) => op.operation === 'recipes.search')?.exposure.mode).toBe('shadow');

      // Answered by the sandbox legacy backend through the gateway, and compared with the sandbox api2 (its CA trusted).
      const search = await request(`http://127.0.0.1:${port}/recipes?title_kw=soup&pg=1&rpp=2&api_key=sandbox-key-07`, { headers: { accept: 'application/json' } });
      expect(search.statusCode).toBe(200);
      await search.body.text();

      const mistaken = await request(`http://127.0.0.1:${port}/admin/rollout/recipes.search/pause`, { method: 'POST', headers: { accept: 'application/json' } });
      expect(mistaken.statusCode).toBe(404);
      expect(await mistaken.body.text()).toMatch(/admin listener/);
      const paused = await request(`http://127.0.0.1:${adminPort}/admin/rollout/recipes.search/pause`, { method: 'POST' });
      expect(paused.statusCode).toBe(200);
      await paused.body.text();
    } finally {
      await gateway.stop();
    }
  }, 120_000);
});
