/**
 * The two ways to start the gateway, as a user runs them (and stops them: Ctrl-C), write nothing but usage-log lines on
 * stdout (so `npm start > usage.log` gives the report a clean log), and a start that cannot happen
 * is one line on stderr and exit code 1, never a stack trace.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { freePort, printedPort, startProcess } from './support/started-process.js';
import { runGateway } from './support/run-script.js';

let dir: string;
let legacy: StartedLegacySandbox;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'start-'));
  legacy = await startLegacySandbox();
});
afterAll(async () => {
  await legacy.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every non-empty stdout line is a usage-log record (JSON with a `msg`), and the requests made are there. */
function expectOnlyUsageLines(stdout: string, requests: number): void {
  const lines = stdout.split('\n').filter((line) => line.length > 0);
  for (const line of lines) expect(() => JSON.parse(line), `not a usage-log line: ${line}`).not.toThrow();
  expect(lines.map((line) => (JSON.parse(line) as { msg?: string }).msg).filter((msg) => msg === 'request')).toHaveLength(requests);
}

async function twoSearches(port: number): Promise<void> {
  for (const key of ['sandbox-free-key', 'sandbox-paid-key']) {
    const res = await fetch(`http://127.0.0.1:${port}/recipes?title_kw=soup&api_key=${key}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
}

async function gatewayConfig(extra: Record<string, unknown> = {}): Promise<{ file: string; port: number }> {
  const port = await freePort();
  const file = join(dir, `gateway-${port}.json`);
  await writeFile(file, JSON.stringify({ listen: { host: '127.0.0.1', port }, upstreams: { legacy: { baseUrl: legacy.origin } }, ...extra }));
  return { file, port };
}

// Each test starts its own processes on its own ports and files: they run side by side (issue 49).
describe.concurrent('stdout carries the usage log only', () => {
  it('npm start (sandbox): no npm banner, no human lines on stdout; Ctrl-C drains and stops', async () => {
    // PORT=0: a free port chosen by the gateway itself (no race with other tests for a port).
    const gateway = startProcess('npm', ['start'], { PORT: '0', ADMIN_PORT: '0' });
    try {
      await gateway.ready(/recipe-gateway listening on/);
      await twoSearches(printedPort(gateway.stderr(), 'listening on'));
    } finally {
      await gateway.stop();
    }
    expectOnlyUsageLines(gateway.stdout(), 2);
    expect(gateway.stderr()).toContain('recipe-gateway listening on');
    expect(gateway.stderr()).toMatch(/SIGINT: .*; closing/);
  }, 120_000);

  it('production start (npm run build && npm run serve -- --config FILE): the compiled build, usage lines only on stdout; --check-config says valid', async () => {
    const { file, port } = await gatewayConfig();
    const gateway = startProcess('sh', ['-c', `npm run build && exec npm run serve -- --config ${file}`]);
    try {
      await gateway.ready(/recipe-gateway listening on/, 180_000);
      await twoSearches(port);
    } finally {
      await gateway.stop();
    }
    expectOnlyUsageLines(gateway.stdout(), 2);
    expect(gateway.stderr()).toMatch(/SIGINT: .*; closing/);
    // The compiled build, run with production's Node flags (package.json `serve`).
    expect(gateway.stderr()).toMatch(/> node (?:--\S+ )*dist\/src\/node\/main\.js --config /);

    const check = startProcess('npm', ['run', 'serve', '--', '--config', file, '--check-config']);
    expect(await check.exited).toEqual({ code: 0, signal: null });
    expect(check.stdout()).toBe(`${file}: valid\n`);
  }, 240_000);
});

describe.concurrent('a start that cannot happen: one line on stderr, exit 1', () => {
  let holder: Server;
  let busy: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '0.0.0.0', resolve));
    busy = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('a busy port (sandbox, PORT=busy)', async () => {
    const run = await runGateway([], { PORT: String(busy), ADMIN_PORT: '0' });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `recipe-gateway: cannot listen on 0.0.0.0:${busy}: the port is already in use (set PORT, or listen.port in the config, to a free port)\n`,
    });
  }, 90_000);

  it('a busy admin port names ADMIN_PORT and observability.admin.listen.port', async () => {
    const { file } = await gatewayConfig({ observability: { log: { enabled: false }, admin: { listen: { host: '127.0.0.1', port: 0 } } } });
    expect(await runGateway(['--config', file], { ADMIN_PORT: String(busy) })).toEqual({
      code: 1,
      stdout: '',
      stderr: `recipe-gateway: cannot listen on 127.0.0.1:${busy}: the port is already in use (set ADMIN_PORT, or observability.admin.listen.port in the config, to a free port)\n`,
    });
  }, 90_000);

  it('a garbage PEM: one line naming its key and its file, not a bare OpenSSL line', async () => {
    const garbage = join(dir, 'garbage.pem');
    await writeFile(garbage, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
    const { file } = await gatewayConfig({ listen: { host: '127.0.0.1', port: 0, https: { port: 0, certFile: garbage, keyFile: garbage } } });
    const run = await runGateway(['--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`listen.https.certFile: ${garbage} certificate 1 of 1 cannot be parsed`);
    expect(run.stderr).toContain(`listen.https.keyFile: ${garbage} is not a PEM private key`);
  }, 90_000);

  it('a config file that cannot be read', async () => {
    const missing = join(dir, 'no-such-gateway.json');
    expect(await runGateway(['--config', missing])).toEqual({ code: 1, stdout: '', stderr: `${missing}: cannot be read (ENOENT)\n` });
  }, 90_000);

  it('a usage-log file that cannot be opened (its folder would be a file)', async () => {
    const notAFolder = join(dir, 'a-file');
    await writeFile(notAFolder, '');
    const destination = join(notAFolder, 'usage.log');
    const { file } = await gatewayConfig({ observability: { log: { enabled: true, destination } } });
    expect(await runGateway(['--config', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `recipe-gateway: cannot start: observability.log.destination: ${destination} cannot be opened for appending (EEXIST)\n`,
    });
  }, 90_000);

  it('a certificate file that is missing (listen.https)', async () => {
    const cert = join(dir, 'no-cert.pem');
    const key = join(dir, 'no-key.pem');
    const { file } = await gatewayConfig({ listen: { host: '127.0.0.1', port: 0, https: { port: 0, certFile: cert, keyFile: key } } });
    expect(await runGateway(['--config', file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `recipe-gateway: listen.https.certFile: ${cert} cannot be read (ENOENT); listen.https.keyFile: ${key} cannot be read (ENOENT)\n`,
    });
  }, 90_000);
});
