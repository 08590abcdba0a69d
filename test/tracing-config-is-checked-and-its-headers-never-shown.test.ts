/**
 * `observability.tracing` as an operator meets it: `--check-config` refuses an export without an
 * endpoint, a bad protocol, a ratio past 1, an unknown kept kind, naming each key, and never echoes
 * the export headers (a backend's API key); a valid one passes; /admin/config shows them redacted.
 * (The edge Worker exports too: test/edge-exports-kept-traces-to-an-otlp-receiver-from-workerd.test.ts.)
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configView } from '../src/admin/config-and-traffic.js';
import { parseConfig } from '../src/config/schema.js';
import { runGateway } from './support/run-script.js';

const SECRET = 'honeycomb-key-0123456789';
const base = { listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } } };

async function checked(tracing: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'tracing-config-'));
  const file = join(dir, 'config.json');
  await writeFile(file, JSON.stringify({ ...base, observability: { tracing } }));
  return runGateway(['--config', file, '--check-config']);
}

describe('--check-config', () => {
  it('refuses each bad key by name, never printing the headers', async () => {
    const result = await checked({ enabled: true, endpoint: 'http://otel-collector:4318/v1/traces', protocol: 'grpc', headRatio: 1.5, keep: ['failed', 'slow'], headers: { 'x-honeycomb-team': SECRET } });
    expect(result.code).toBe(1);
    for (const key of ['observability.tracing.protocol', 'observability.tracing.headRatio', 'observability.tracing.keep']) expect(result.stderr).toContain(key);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    const noEndpoint = await checked({ enabled: true, headers: { 'x-honeycomb-team': SECRET } });
    expect(noEndpoint.code).toBe(1);
    expect(noEndpoint.stderr).toContain('observability.tracing.endpoint: is required when tracing is enabled');
    expect(noEndpoint.stdout + noEndpoint.stderr).not.toContain(SECRET);
  }, 60_000);

  it('passes a valid export', async () => {
    const result = await checked({ enabled: true, endpoint: 'http://otel-collector:4318/v1/traces', protocol: 'http/json', headRatio: 0.01, headers: { 'x-honeycomb-team': SECRET } });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  }, 60_000);
});

describe('/admin/config', () => {
  it('shows the export headers redacted', () => {
    const parsed = parseConfig({ ...base, observability: { tracing: { enabled: true, endpoint: 'http://127.0.0.1:4318/v1/traces', headers: { 'x-honeycomb-team': SECRET } } } });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const shown = JSON.stringify(configView({ version: 1, configHash: 'h', loadedAt: '', config: parsed.config, traffic: undefined }));
    expect(shown).not.toContain(SECRET);
    expect(shown).toContain('"x-honeycomb-team":"[redacted]"');
    expect(parsed.config.observability.tracing.headers['x-honeycomb-team'], 'the config itself keeps it for the exporter').toBe(SECRET);
  });
});
