/**
 * The wrangler.toml example (deploy/edge/wrangler.toml) stays deployable with this code: its `main`
 * is the edge entry, it asks for no Node compatibility, and its GATEWAY_CONFIG builds a gateway
 * through the edge entry's own config path (src/edge/worker.ts). No TOML library is installed, so
 * the few keys checked are read with patterns; the config is a JSON text in a TOML literal string.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEdgeGateway } from '../src/edge/worker.js';

const FILE = new URL('../deploy/edge/wrangler.toml', import.meta.url).pathname;
const text = await readFile(FILE, 'utf8');
const uncommented = text
  .split('\n')
  .filter((line) => !line.trimStart().startsWith('#'))
  .join('\n');

function stringKey(name: string): string | undefined {
  return new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm').exec(uncommented)?.[1];
}

describe('deploy/edge/wrangler.toml', () => {
  it('points main at the edge entry and needs no Node compatibility', () => {
    const main = stringKey('main');
    expect(main).toBeDefined();
    expect(resolve(dirname(FILE), main ?? '')).toBe(new URL('../src/edge/worker.ts', import.meta.url).pathname);
    expect(existsSync(resolve(dirname(FILE), main ?? ''))).toBe(true);
    expect(stringKey('compatibility_date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(uncommented).not.toMatch(/nodejs_compat|node_compat/);
  });

  it('carries a GATEWAY_CONFIG that the edge entry accepts', () => {
    const config = /^GATEWAY_CONFIG\s*=\s*'''\n?([\s\S]*?)'''/m.exec(uncommented)?.[1];
    expect(config, 'GATEWAY_CONFIG as a multi-line literal string').toBeDefined();
    const lines: string[] = [];
    const gateway = buildEdgeGateway({ GATEWAY_CONFIG: config, GATEWAY_HASH_KEY: 'a-hash-key-of-32-characters-xxxx' }, (line) => lines.push(line));
    expect(gateway.ok ? [] : gateway.errors).toEqual([]);
    if (!gateway.ok) return;
    expect(gateway.config.observability.hashKey).toBe('a-hash-key-of-32-characters-xxxx');
    expect(gateway.config.upstreams.api2?.baseUrl).toMatch(/^https:/);
    expect(gateway.notes.filter((note) => /hashKey/.test(note))).toEqual([]);
  });
});
