import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);

describe('config validation', () => {
  it('fills defaults: legacy everywhere, 10 s timeouts, uncatalogued passed through', () => {
    const result = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9000' } } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.listen.port).toBe(8080);
    expect(result.config.timeouts.defaultMs).toBe(10_000);
    expect(result.config.uncatalogued).toBe('pass');
    expect(result.config.plainHttpCredentials).toBe('allow');
  });

  it('names the key and the rule of every error', () => {
    const result = parseConfig({
      upstreams: { legacy: { baseUrl: 'ftp://legacy' } },
      routes: { 'recipes.serch': {}, 'recipes.search': { timeoutMs: 0 } },
      plainHttpCredentials: 'maybe',
      listen: { port: 70000 },
      surprise: true,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.errors.join('\n');
    expect(text).toContain('upstreams.legacy.baseUrl: must be an http:// or https:// URL');
    expect(text).toContain('routes["recipes.serch"]: is not an operation id');
    expect(text).toMatch(/routes\["recipes\.search"\]\.timeoutMs: .*>=1/);
    expect(text).toMatch(/plainHttpCredentials: .*"allow"\|"redirect"\|"reject"|plainHttpCredentials: .*allow/);
    expect(text).toMatch(/listen\.port: .*65535/);
    expect(text).toContain('Unrecognized key: "surprise"');
  });

  it('refuses a missing legacy upstream', () => {
    const result = parseConfig({});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.join('\n')).toContain('upstreams');
  });
});

describe('--check-config', () => {
  it('exits 0 on a valid file and 1 with the key and rule on an invalid one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
    const valid = join(dir, 'valid.json');
    const invalid = join(dir, 'invalid.json');
    await writeFile(valid, JSON.stringify({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9000' } } }));
    await writeFile(invalid, JSON.stringify({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9000' } }, uncatalogued: 'drop' }));
    const node = process.execPath;
    const ok = await run(node, [...nodeArgsOf('src/node/main.ts'), '--config', valid, '--check-config']);
    expect(ok.stdout).toContain('valid');
    await expect(run(node, [...nodeArgsOf('src/node/main.ts'), '--config', invalid, '--check-config'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('uncatalogued:'),
    });
    await expect(run(node, [...nodeArgsOf('src/node/main.ts'), '--check-config'], { env: { ...process.env, GATEWAY_CONFIG: valid } })).resolves.toMatchObject({
      stdout: expect.stringContaining('valid'),
    });
  }, 30_000);
});
