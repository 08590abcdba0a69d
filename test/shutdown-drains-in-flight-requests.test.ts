/**
 * Graceful shutdown. `npm start` (src/node/main.ts, a real child process) on SIGTERM stops
 * accepting connections at once, lets every request in flight finish (their answers close their
 * connections), writes out the usage log and exits 0: no accepted request is dropped. Past
 * `limits.shutdownGraceMs` it cuts what is left and still exits 0, on time. The drain itself
 * (src/node/server.ts `drain`) is also checked in process: keep-alive connections, the deadline,
 * a second call bringing the deadline closer.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultUpstream } from '../src/sandbox/faults.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { sleep, startRigGateway } from './reliability-support.js';
import { mainChildrenKilledAfterEach } from './support/started-process.js';
import type { MainChild } from './support/started-process.js';
import { waitFor } from './support/wait.js';

const UPSTREAM_DELAY_MS = 700;

let dir: string;
let slow: RecordingUpstream;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shutdown-'));
  // Answers every request after UPSTREAM_DELAY_MS, echoing its target.
  slow = await startRecordingUpstream((req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ target: req.url }));
    }, UPSTREAM_DELAY_MS);
  });
});
afterAll(async () => {
  await slow.close();
  await rm(dir, { recursive: true, force: true });
});

const startMainChild = mainChildrenKilledAfterEach();
let started = 0;

interface StartedChild extends MainChild {
  readonly origin: string;
}

/** `npm start -- --config FILE` as a child process; resolves once it listens. */
async function startMain(config: object): Promise<StartedChild> {
  const file = join(dir, `gateway-${started++}-${Date.now()}.json`);
  await writeFile(file, JSON.stringify(config));
  const main = await startMainChild(file, /listening on http:\/\/[^\s]+/, 20_000);
  const origin = /listening on (http:\/\/[^\s]+)/.exec(main.output())?.[1];
  if (!origin) throw new Error(`the gateway did not start:\n${main.output()}`);
  return { ...main, origin: origin.replace('0.0.0.0', '127.0.0.1') };
}

function configFor(upstream: string, logFile: string, limits: object, timeoutMs = 10_000): object {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: upstream } },
    timeouts: { defaultMs: timeoutMs },
    cache: { enabled: false },
    limits,
    observability: { log: { destination: logFile } },
  };
}

function connectRefused(origin: string): Promise<boolean> {
  return send(origin, { target: '/healthz', timeoutMs: 2000 }).then(
    () => false,
    (error: unknown) => (error as { code?: string }).code === 'ECONNREFUSED',
  );
}

describe('SIGTERM (npm start)', () => {
  it('stops accepting, answers every request in flight, writes the usage log and exits 0', { timeout: 40_000 }, async () => {
    const logFile = join(dir, 'drain.log');
    const gateway = await startMain(configFor(slow.origin, logFile, { shutdownGraceMs: 10_000 }));

    // Four keep-alive connections, each already used once (idle, kept open by the agent).
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const url = new URL(gateway.origin);
    const viaAgent = (target: string): Promise<{ status: number; body: string; connection: string | undefined }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: target, agent, headers: { accept: 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    const warm = await Promise.all(Array.from({ length: 4 }, (_, i) => viaAgent(`/reviews?rid=${100 + i}&api_key=k`)));
    expect(warm.map((w) => w.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive']);
    const before = slow.requests.length;

    // 20 requests in flight: 16 on connections of their own (reads and writes), 4 on the reused keep-alive connections.
    const single: Array<Promise<RawResponse>> = Array.from({ length: 16 }, (_, i) =>
      i % 4 === 3
        ? send(gateway.origin, {
            method: 'POST',
            target: `/grocerylist?api_key=k&name=item${i}&quantity=1`,
            headers: { accept: 'application/json', authorization: 'Basic YWxpY2U6YWxpY2UtcGFzcw==' },
          })
        : send(gateway.origin, { target: `/review/${i + 1}?api_key=k`, headers: { accept: 'application/json' } }),
    );
    const kept = Array.from({ length: 4 }, (_, i) => viaAgent(`/reviews?rid=${i + 1}&api_key=k`));

    // SIGTERM once all 20 reached the upstream (they are in flight for UPSTREAM_DELAY_MS).
    await waitFor(() => slow.requests.length - before >= 20, 10_000, 'requests in flight');
    const signalled = Date.now();
    gateway.child.kill('SIGTERM');
    await sleep(100);
    expect(await connectRefused(gateway.origin), 'new connections are refused while draining').toBe(true);

    const answers = await Promise.all(single);
    const keptAnswers = await Promise.all(kept);
    agent.destroy();
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, answer.text()).toBe(200);
      expect((answer.json() as { target: string }).target).toMatch(i % 4 === 3 ? `/grocerylist?quantity=1&name=item${i}&api_key=k` : `/review/${i + 1}?api_key=k`);
    }
    for (const answer of keptAnswers) {
      expect(answer.status, answer.body).toBe(200);
      expect(answer.connection, 'an answer written while draining closes its connection').toBe('close');
    }
    expect(slow.requests.length - before).toBe(20);

    const exit = await gateway.exited;
    expect(exit.code, gateway.output()).toBe(0);
    expect(exit.at - signalled).toBeLessThan(10_000);
    expect(gateway.output()).toContain('SIGTERM: refusing new connections');
    expect(gateway.output()).toContain('every request in flight answered');
    const lines = (await readFile(logFile, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { status?: number; msg: string });
    expect(lines.filter((line) => line.msg === 'request' && line.status === 200)).toHaveLength(24);
  });

  it('cuts what is still in flight at limits.shutdownGraceMs, and still exits 0 on time', { timeout: 30_000 }, async () => {
    const silent = await startFaultUpstream({ mode: 'silent' });
    try {
      const gateway = await startMain(configFor(silent.origin, join(dir, 'cut.log'), { shutdownGraceMs: 500 }, 60_000));
      const pending = send(gateway.origin, { target: '/review/1?api_key=k', headers: { accept: 'application/json' }, timeoutMs: 20_000 }).then(
        (res) => `answered ${res.status}`,
        (error: unknown) => `cut: ${(error as Error).message}`,
      );
      await waitFor(() => silent.requests.length === 1, 10_000, 'request in flight');
      const signalled = Date.now();
      gateway.child.kill('SIGTERM');
      const exit = await gateway.exited;
      expect(exit.code, gateway.output()).toBe(0);
      // The deadline, then at most the upstream pools' own close grace (2 s).
      expect(exit.at - signalled).toBeLessThan(500 + 2_000 + 1_500);
      expect(exit.at - signalled).toBeGreaterThanOrEqual(450);
      expect(await pending).toMatch(/^cut/);
      expect(gateway.output()).toContain('1 request(s) cut at the deadline');
      await waitFor(() => silent.requests[0]?.aborted === true, 3000, 'the upstream request cancelled');
    } finally {
      await silent.close();
    }
  });
});

describe('drain (in process)', () => {
  it('closes idle keep-alive connections at once and closes busy ones after their answer', async () => {
    const gateway = await startRigGateway({ upstreams: { legacy: { baseUrl: slow.origin } }, cache: { enabled: false } });
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const url = new URL(gateway.origin);
    const get = (target: string): Promise<{ status: number; connection: string | undefined }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: target, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      // Two connections: one idle after its answer, one busy when the drain begins.
      await Promise.all([get('/review/1?api_key=k'), get('/review/2?api_key=k')]);
      expect(gateway.running.stats().connections).toBe(2);
      const busy = get('/review/3?api_key=k');
      await waitFor(() => gateway.running.stats().inFlight === 1, 3000, 'one request in flight');
      const draining = gateway.running.drain(5_000);
      await waitFor(() => gateway.running.stats().connections === 1, 1000, 'the idle connection closed at once');
      const answer = await busy;
      expect(answer).toEqual({ status: 200, connection: 'close' });
      const outcome = await draining;
      expect(outcome).toMatchObject({ drained: true, cut: 0 });
      expect(outcome.ms).toBeLessThan(UPSTREAM_DELAY_MS + 1000);
      expect(gateway.running.stats()).toEqual({ connections: 0, inFlight: 0 });
    } finally {
      agent.destroy();
      await gateway.close();
    }
  });

  it('a second call brings the deadline closer; both resolve with the same outcome', async () => {
    const silent = await startFaultUpstream({ mode: 'silent' });
    const gateway = await startRigGateway({ upstreams: { legacy: { baseUrl: silent.origin } }, timeouts: { defaultMs: 60_000 } });
    try {
      const pending = send(gateway.origin, { target: '/review/1?api_key=k', timeoutMs: 20_000 }).then(
        () => 'answered',
        () => 'cut',
      );
      await waitFor(() => silent.requests.length === 1, 3000, 'request in flight');
      const started = Date.now();
      const first = gateway.running.drain(30_000);
      await sleep(100);
      const second = gateway.running.drain(0);
      const [a, b] = await Promise.all([first, second]);
      expect(a).toBe(b);
      expect(a).toMatchObject({ drained: false, cut: 1 });
      expect(Date.now() - started).toBeLessThan(100 + 2_000 + 1_000);
      expect(await pending).toBe('cut');
    } finally {
      await silent.close();
    }
  });
});
