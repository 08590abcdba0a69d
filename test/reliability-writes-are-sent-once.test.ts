/**
 * Writes (POST, PUT, DELETE), every write operation of the catalogue in each of its forms (sent
 * with its sandbox example, src/sandbox/behaviour.ts), in every route mode its entry allows
 * (legacy, api2, canary to either side, shadow), with fallback off and on, against every upstream
 * outcome (success, 5xx, timeout after sending, reset after sending, connection refused):
 * - the write reaches exactly one upstream, exactly once (never retried, never repeated on the
 *   other side by fallback, never shadowed), also after the answer, when background work is done;
 * - a failure is never answered as a success: a timeout after sending is 504 and a reset 502,
 *   both saying the outcome is unknown; a refused connection is 502 without that warning (not
 *   sent); an upstream 5xx stays an error;
 * - an open breaker refuses the write (503) without sending it anywhere.
 * In process (the core app, sandboxes as upstreams, faults injected per write call), so all 440
 * cases run in a second; then once over real sockets with the most retry-prone config.
 *
 * (test/gateway-upstream-failures-answer-502-504.test.ts shows a legacy write sent once on a reset
 * and on a timeout; test/traffic-canary-shadow-fallback-breaker.test.ts that shadow never sends a
 * write to api2 and that grocery.create never falls back.)
 */
import { testRuntime } from './support/test-runtime.js';
import { describe, expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { movability } from '../src/catalogue/movability.js';
import { OPERATIONS } from '../src/catalogue/operations.js';
import type { OperationId } from '../src/catalogue/operations.js';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { createApi2SandboxApp } from '../src/sandbox/api2-app.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { startFaultUpstream } from '../src/sandbox/faults.js';
import { createLegacySandboxApp } from '../src/sandbox/legacy-app.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { UpstreamError } from '../src/upstream/types.js';
import type { UpstreamClient } from '../src/upstream/types.js';
import { basic, send } from './support/http.js';
import { exampleRequests } from './support/catalogue-examples.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { inProcessUpstream, isLegacyError, sleep, startRigGateway } from './reliability-support.js';
import type { UpstreamCall } from './reliability-support.js';

const ALICE = basic('alice', 'alice-pass');
const KEY = 'sandbox-free-key';

interface Write {
  readonly op: OperationId;
  readonly method: 'POST' | 'PUT' | 'DELETE';
  readonly target: string;
  readonly body?: object;
}

const WRITES: readonly Write[] = OPERATIONS.filter((op) => !op.safe).flatMap((op) =>
  exampleRequests(op, KEY).map(({ method, target, body }) => {
    if (method === 'GET') throw new Error(`${op.id} is a write answered on GET`);
    return { op: op.id, method, target, ...(body ? { body } : {}) };
  }),
);
const MAPPED_WRITES = WRITES.filter((write) => movability(write.op).canMove);

type Mode = 'legacy' | 'api2' | 'canary→api2' | 'canary→legacy' | 'shadow';
type Outcome = 'success' | 'status-5xx' | 'timeout' | 'reset' | 'refused';
const MODES: readonly Mode[] = ['legacy', 'api2', 'canary→api2', 'canary→legacy', 'shadow'];
const OUTCOMES: readonly Outcome[] = ['success', 'status-5xx', 'timeout', 'reset', 'refused'];

function routeFor(mode: Mode, fallback: boolean): NonNullable<GatewayConfigInput['routes']>[string] {
  switch (mode) {
    case 'legacy':
      return { mode: 'legacy', fallback };
    case 'api2':
      return { mode: 'api2', fallback };
    case 'canary→api2':
      return { mode: 'canary', canaryPercent: 100, fallback };
    case 'canary→legacy':
      return { mode: 'canary', canaryPercent: 0, fallback };
    case 'shadow':
      return { mode: 'shadow', fallback, shadow: { sampleRate: 1 } };
  }
}

const legacySandbox = createLegacySandboxApp(new LegacyStore()).fetch;
const api2Sandbox = createApi2SandboxApp(new Api2Store()).fetch;

/** The sandbox behind, with `outcome` injected into every write call (reads are answered). */
function faulty(name: 'legacy' | 'api2', outcome: Outcome, calls: UpstreamCall[]): UpstreamClient {
  const real = inProcessUpstream(name, name === 'legacy' ? legacySandbox : api2Sandbox, calls);
  return {
    name,
    close: real.close,
    async request(req) {
      if (outcome === 'success' || req.method === 'GET') return real.request(req);
      calls.push({ upstream: name, method: req.method, target: req.target, headers: req.headers });
      switch (outcome) {
        case 'status-5xx':
          return { status: 503, headers: { 'content-type': 'application/json; charset=utf-8' }, body: new TextEncoder().encode('{"Message":"down for maintenance"}') };
        case 'timeout':
          throw new UpstreamError('timeout', name, true, `upstream '${name}' did not answer within 100 ms`);
        case 'reset':
          throw new UpstreamError('reset', name, true, `the connection to upstream '${name}' broke (ECONNRESET)`);
        case 'refused':
          throw new UpstreamError('connect', name, false, `could not connect to upstream '${name}' (ECONNREFUSED)`);
      }
    },
  };
}

function appFor(write: Write, mode: Mode, fallback: boolean, outcome: Outcome, calls: UpstreamCall[]) {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://legacy.internal' }, api2: { baseUrl: 'https://api2.internal' } },
    routes: { [write.op]: routeFor(mode, fallback) },
    observability: { log: { enabled: false } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return createGatewayApp({
    config: parsed.config,
    upstreams: { legacy: faulty('legacy', outcome, calls), api2: faulty('api2', outcome, calls) },
    runtime: testRuntime(),
  });
}

async function sendWrite(app: ReturnType<typeof appFor>, write: Write): Promise<{ status: number; body: string; type: string | null }> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: ALICE };
  const body = write.body ? JSON.stringify(write.body) : undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const response = await app.fetch(new Request(`http://api.bigoven.com${write.target}`, { method: write.method, headers, ...(body !== undefined ? { body } : {}) }));
  return { status: response.status, body: await response.text(), type: response.headers.get('content-type') };
}

function expectedSide(mode: Mode): 'legacy' | 'api2' {
  return mode === 'api2' || mode === 'canary→api2' ? 'api2' : 'legacy';
}

describe.each(MODES)('writes in %s mode', (mode) => {
  it.each(OUTCOMES)('upstream outcome %s: one upstream, once; a failure is never a success', async (outcome) => {
    const problems: string[] = [];
    const writes = mode === 'legacy' ? WRITES : MAPPED_WRITES;
    for (const write of writes) {
      for (const fallback of [false, true]) {
        const calls: UpstreamCall[] = [];
        const answer = await sendWrite(appFor(write, mode, fallback, outcome, calls), write);
        await sleep(0);
        const label = `${write.method} ${write.target} (fallback ${fallback}) → ${answer.status} ${answer.body.slice(0, 160)}`;
        const side = expectedSide(mode);
        const sent = calls.filter((c) => c.method !== 'GET');
        if (sent.length !== 1) problems.push(`${label}: ${sent.length} write calls (${sent.map((c) => `${c.upstream} ${c.method}`).join(', ')})`);
        if (sent.some((c) => c.upstream !== side)) problems.push(`${label}: write sent to ${sent.map((c) => c.upstream).join(', ')}, expected ${side}`);
        if (calls.some((c) => c.upstream !== side)) problems.push(`${label}: the other upstream was called`);
        const message = answer.status >= 400 ? ((JSON.parse(answer.body) as { Message?: string }).Message ?? '') : '';
        if (answer.status >= 400 && !isLegacyError(answer.type ?? undefined, answer.body)) problems.push(`${label}: not the legacy error shape`);
        switch (outcome) {
          case 'success':
            if (answer.status >= 500) problems.push(`${label}: a 5xx from a healthy upstream`);
            break;
          case 'status-5xx':
            if (answer.status !== (side === 'legacy' ? 503 : 502)) problems.push(`${label}: expected ${side === 'legacy' ? 503 : 502}`);
            break;
          case 'timeout':
            if (answer.status !== 504 || !message.includes('outcome is unknown')) problems.push(`${label}: expected 504 saying the outcome is unknown`);
            break;
          case 'reset':
            if (answer.status !== 502 || !message.includes('outcome is unknown')) problems.push(`${label}: expected 502 saying the outcome is unknown`);
            break;
          case 'refused':
            if (answer.status !== 502 || message.includes('outcome is unknown')) problems.push(`${label}: expected 502 without an unknown outcome (never sent)`);
            break;
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('with the breaker open', () => {
  it('a write is refused with 503 and sent nowhere without fallback; with fallback it goes to legacy, once (ffd9dd8)', async () => {
    for (const fallback of [false, true]) {
      const calls: UpstreamCall[] = [];
      const write = MAPPED_WRITES.find((w) => w.op === 'grocery.create') as Write;
      const app = appFor(write, 'api2', fallback, 'reset', calls);
      for (let i = 0; i < 5; i++) expect((await sendWrite(app, write)).status).toBe(502);
      const before = calls.length;
      const answer = await sendWrite(app, write);
      if (fallback) {
        // Legacy is faulty too ('reset'): the write reached it once, and its outcome is unknown.
        expect(calls.slice(before).map((c) => `${c.upstream} ${c.method}`)).toEqual(['legacy POST']);
        expect(answer.status).toBe(502);
        continue;
      }
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ Message: expect.stringContaining('circuit breaker is open') });
      expect(calls.length).toBe(before);
    }
  });
});

describe('over real sockets', () => {
  const cleanup = closedAfterAllTests();

  it('canary to api2 with fallback: a timed-out POST reaches api2 once, legacy never, and the client gets 504', async () => {
    const api2 = await startFaultUpstream({ mode: 'silent', tls: true });
    const legacy = await startFaultUpstream({ mode: 'ok' });
    cleanup.push(() => api2.close(), () => legacy.close());
    const gateway = await startRigGateway({
      upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
      routes: { 'grocery.create': { mode: 'canary', canaryPercent: 100, fallback: true } },
      timeouts: { defaultMs: 300 },
    });
    cleanup.push(() => gateway.close());
    const res = await send(gateway.origin, {
      method: 'POST',
      target: `/grocerylist?api_key=${KEY}`,
      headers: { accept: 'application/json', authorization: ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: '1 lb', name: 'flour' }),
    });
    expect(res.status).toBe(504);
    expect((res.json() as { Message: string }).Message).toContain('outcome is unknown');
    await sleep(500);
    expect(api2.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(legacy.connections()).toBe(0);
  });
});
