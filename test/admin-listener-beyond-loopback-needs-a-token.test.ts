/**
 * The admin listener is safe to expose: bound beyond loopback (deploy/k8s binds 0.0.0.0:9090) it
 * needs a bearer token (from GATEWAY_ADMIN_TOKEN, a file, or the config) and does not start
 * without one; every admin path, and any mounted under the admin app later, refuses a request
 * without the token; /healthz stays open to probes, and /metrics only when the config says so.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { startGateway } from '../src/node/server.js';
import type { RunningGateway } from '../src/node/server.js';
import { send } from './support/http.js';
import { startProcess } from './support/started-process.js';
import { nodeArgsOf } from './support/entry.js';

const TOKEN = 'admin-token-0123456789abcdef';
let dir: string;
const running: RunningGateway[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-'));
});
afterAll(async () => {
  await Promise.all(running.map((gateway) => gateway.close()));
});

function configOf(admin: NonNullable<GatewayConfigInput['observability']>['admin']): ReturnType<typeof parseConfig> {
  return parseConfig({
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } },
    observability: { log: { enabled: false }, admin },
  });
}

async function start(admin: NonNullable<GatewayConfigInput['observability']>['admin']): Promise<RunningGateway> {
  const parsed = configOf(admin);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const gateway = await startGateway(parsed.config);
  running.push(gateway);
  return gateway;
}

/** The admin listener as a client reaches it (0.0.0.0 is reached through loopback here). */
const adminOf = (gateway: RunningGateway): string => gateway.adminOrigin!.replace('0.0.0.0', '127.0.0.1');

describe('an admin listener bound beyond loopback', () => {
  it('does not start without a token, and says how to give one', async () => {
    await expect(start({ listen: { host: '0.0.0.0', port: 0 } })).rejects.toThrow(/observability\.admin\.listen\.host: 0\.0\.0\.0 is beyond loopback.*GATEWAY_ADMIN_TOKEN/);
  });

  it('with a token from a file: refuses every admin path without it, answers with it, leaves /healthz open', async () => {
    const file = join(dir, 'token');
    await writeFile(file, `${TOKEN}\n`);
    const gateway = await start({ listen: { host: '0.0.0.0', port: 0 }, bearerTokenFile: file });
    const admin = adminOf(gateway);
    for (const target of ['/metrics', '/admin/config', '/admin/traffic', '/', '/admin']) {
      const refused = await send(admin, { target });
      expect(refused.status, target).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await send(admin, { target, headers: { authorization: `Bearer ${TOKEN}x` } })).status, target).toBe(401);
    }
    for (const target of ['/metrics', '/admin/config', '/admin/traffic']) {
      expect((await send(admin, { target, headers: { authorization: `Bearer ${TOKEN}` } })).status, target).toBe(200);
    }
    expect((await send(admin, { target: '/healthz' })).status).toBe(200);
    const config = await send(admin, { target: '/admin/config', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(config.text()).not.toContain(TOKEN);
  });

  it('openMetrics: /metrics answers scrapers without the token, the other views still need it', async () => {
    const gateway = await start({ listen: { host: '0.0.0.0', port: 0 }, bearerToken: TOKEN, openMetrics: true });
    const admin = adminOf(gateway);
    const metrics = await send(admin, { target: '/metrics' });
    expect(metrics.status).toBe(200);
    expect(metrics.text()).toContain('gateway_requests_total');
    expect((await send(admin, { target: '/admin/config' })).status).toBe(401);
  });

  it('a token file that cannot be read, or is too short, is named with its key', async () => {
    const short = join(dir, 'short');
    await writeFile(short, 'short\n');
    await expect(start({ listen: { host: '0.0.0.0', port: 0 }, bearerTokenFile: join(dir, 'missing') })).rejects.toThrow(/observability\.admin\.bearerTokenFile: .*missing cannot be read \(ENOENT\)/);
    await expect(start({ listen: { host: '0.0.0.0', port: 0 }, bearerTokenFile: short })).rejects.toThrow(/observability\.admin\.bearerTokenFile: .* at least 16 characters/);
  });
});

describe('on loopback', () => {
  it('starts without a token, as before', async () => {
    const gateway = await start({ listen: { host: '127.0.0.1', port: 0 } });
    expect((await send(gateway.adminOrigin!, { target: '/metrics' })).status).toBe(200);
  });
});

describe('the gateway process', () => {
  it('refuses to start with the admin listener on 0.0.0.0 and no token; GATEWAY_ADMIN_TOKEN lets it start and guards it', async () => {
    const file = join(dir, 'gateway.json');
    await writeFile(file, JSON.stringify({ listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } }, observability: { log: { destination: 'stdout' }, admin: { listen: { host: '0.0.0.0', port: 0 } } } }));
    const node = [process.execPath, [...nodeArgsOf('src/node/main.ts'), '--config', file]] as const;
    const refused = startProcess(node[0], node[1], { GATEWAY_ADMIN_TOKEN: '' });
    const exit = await refused.exited;
    expect(exit.code).toBe(1);
    expect(refused.stderr().trim().split('\n')).toHaveLength(1);
    expect(refused.stderr()).toMatch(/beyond loopback.*GATEWAY_ADMIN_TOKEN/);

    const started = startProcess(node[0], node[1], { GATEWAY_ADMIN_TOKEN: TOKEN });
    try {
      await started.ready(/metrics: http:\/\/[^ ]+\/metrics/);
      const metricsUrl = /metrics: (http:\/\/\S+)\/metrics/.exec(started.stdout() + started.stderr())![1]!.replace('0.0.0.0', '127.0.0.1');
      expect((await send(metricsUrl, { target: '/metrics' })).status).toBe(401);
      expect((await send(metricsUrl, { target: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await started.stop();
    }
  }, 60_000);
});
