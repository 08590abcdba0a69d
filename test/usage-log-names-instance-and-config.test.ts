/**
 * Every usage-log line names its origin, so a fleet's logs can be told apart and joined with the
 * config that produced them: `instance` (observability.instance, else HOSTNAME / POD_NAME, else
 * hostname:pid) and `config`, the content hash of the config in force, which a hot reload changes.
 */
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { createConsoleSink, edgeOrigin } from '../src/edge/log.js';
import { startGateway } from '../src/node/server.js';
import { instanceId } from '../src/observability/node/origin.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';

describe('the instance id of the usage log', () => {
  it('is observability.instance, else HOSTNAME, else POD_NAME, else hostname:pid', () => {
    expect(instanceId('edge-eu-1', { HOSTNAME: 'pod-a', POD_NAME: 'pod-b' })).toBe('edge-eu-1');
    expect(instanceId(undefined, { HOSTNAME: 'pod-a', POD_NAME: 'pod-b' })).toBe('pod-a');
    expect(instanceId(undefined, { HOSTNAME: '', POD_NAME: 'pod-b' })).toBe('pod-b');
    expect(instanceId(undefined, {})).toBe(`${hostname()}:${process.pid}`);
  });
});

describe('a usage-log line through a real gateway', () => {
  it('carries the instance and the content hash of the config in force, before and after a reload', async () => {
    const sandbox = await startLegacySandbox();
    const file = join(await tempDir(), 'usage.log');
    const parsed = parseConfig({
      listen: { host: '127.0.0.1', port: 0 },
      upstreams: { legacy: { baseUrl: sandbox.origin } },
      legacyHosts: ['api.bigoven.com'],
      observability: { instance: 'gateway-7', log: { destination: file } },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const gateway = await startGateway(parsed.config);
    const versions: string[] = [];
    try {
      versions.push(gateway.configHash());
      await send(gateway.httpOrigin, { target: '/recipes?any_kw=soup&api_key=sandbox-free-key', headers: { host: 'api.bigoven.com' } });
      await gateway.reload({ ...parsed.config, limits: { ...parsed.config.limits, maxUrlLength: parsed.config.limits.maxUrlLength + 1 } });
      versions.push(gateway.configHash());
      await send(gateway.httpOrigin, { target: '/recipes?any_kw=soup&api_key=sandbox-free-key', headers: { host: 'api.bigoven.com' } });
    } finally {
      await gateway.close();
      await sandbox.close();
    }
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line['msg'] === 'request');
    expect(versions[0]).not.toBe(versions[1]);
    expect(requests.map((line) => [line['instance'], line['config']])).toEqual([
      ['gateway-7', versions[0]],
      ['gateway-7', versions[1]],
    ]);
  }, 60_000);
});

describe('an edge usage-log line', () => {
  it('names the isolate (or observability.instance) and a hash of the config document', () => {
    const lines: string[] = [];
    const config = { enabled: true, level: 'info', destination: 'stdout' } as const;
    const record = { requestId: 'r1', startedAt: 0, method: 'GET', operation: 'recipes.search', insecure: false, mode: 'legacy', status: 200 } as const;
    createConsoleSink(config, (line) => lines.push(line), edgeOrigin(undefined, '{"upstreams":{}}'))!(record);
    createConsoleSink(config, (line) => lines.push(line), edgeOrigin(undefined, '{"upstreams":{"x":1}}'))!(record);
    createConsoleSink(config, (line) => lines.push(line), edgeOrigin('edge-eu-1', '{"upstreams":{}}'))!(record);
    const [first, second, named] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first!['instance']).toMatch(/^isolate-[0-9a-f-]{36}$/);
    expect(second!['instance']).toBe(first!['instance']);
    expect(first!['config']).toMatch(/^[0-9a-f]{8}$/);
    expect(second!['config']).not.toBe(first!['config']);
    expect([named!['instance'], named!['config']]).toEqual(['edge-eu-1', first!['config']]);
    expect(Object.keys(first!).slice(0, 4)).toEqual(['level', 'time', 'instance', 'config']);
  });
});
