/**
 * Every upstream fault, with a real misbehaving upstream on loopback (src/sandbox/faults.ts), in
 * front of the legacy pass-through and of api2 (over TLS): a read through the search cache, a
 * read without it and a write, at once. For each fault:
 * - the client gets the right answer (502, 504, or the upstream's own legacy error) in the legacy
 *   error shape, within the configured timeout;
 * - a write reaches the upstream at most once, and is told its outcome is unknown when it was sent
 *   and no answer came back;
 * - no unhandled rejection or uncaught exception;
 * - afterwards the fault upstream's sockets, the gateway's client connections and requests in
 *   flight, and this process's open TCP sockets are back to their baseline.
 *
 * (test/gateway-upstream-failures-answer-502-504.test.ts and
 * test/api2-mode-failures-answer-legacy-errors.test.ts check the messages and status mapping of
 * single failures; this suite adds the full fault matrix, the deadline and the leak checks.)
 */
import { describe, expect, it } from 'vitest';
import { startFaultUpstream } from '../src/sandbox/faults.js';
import type { FaultMode, StartedFaultUpstream } from '../src/sandbox/faults.js';
import { basic, send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { isLegacyError, openTcpSockets, recordUnhandled, startRigGateway } from './reliability-support.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';
import type { RigGateway } from './reliability-support.js';

const TIMEOUT_MS = 400;
/** Scheduling slack on a loaded CI machine; the deadline itself is TIMEOUT_MS. */
const SLACK_MS = 700;
const MAX_RESPONSE_BYTES = 64 * 1024;

const J = { accept: 'application/json' };
const ALICE = basic('alice', 'alice-pass');

const cleanup = closedAfterEachTest();

type Side = 'legacy' | 'api2';
interface Expected {
  readonly status: number;
  /** X-Gateway-Error, or null for an answer passed through from the upstream. */
  readonly code: string | null;
  /** The write was sent and no answer came back: its message says the outcome is unknown. */
  readonly unknown: boolean;
}
type Row = readonly [FaultMode, Expected, Expected];

const gatewayMade = (status: number, code: string, unknown: boolean): Expected => ({ status, code, unknown });

/** [mode, every read, the write] */
const LEGACY: readonly Row[] = [
  ['refuse', gatewayMade(502, 'upstream-unreachable', false), gatewayMade(502, 'upstream-unreachable', false)],
  ['silent', gatewayMade(504, 'upstream-timeout', false), gatewayMade(504, 'upstream-timeout', true)],
  ['headers-then-hang', gatewayMade(504, 'upstream-timeout', false), gatewayMade(504, 'upstream-timeout', true)],
  ['reset-mid-body', gatewayMade(502, 'upstream-reset', false), gatewayMade(502, 'upstream-reset', true)],
  // The legacy backend's own errors pass through unchanged (status, legacy body, no X-Gateway-Error).
  ['status-5xx', { status: 503, code: null, unknown: false }, { status: 503, code: null, unknown: false }],
  ['oversized-body', gatewayMade(502, 'upstream-too-large', false), gatewayMade(502, 'upstream-too-large', true)],
  ['slow-trickle', gatewayMade(504, 'upstream-timeout', false), gatewayMade(504, 'upstream-timeout', true)],
];

const API2: readonly Row[] = [
  ['refuse', gatewayMade(502, 'upstream-unreachable', false), gatewayMade(502, 'upstream-unreachable', false)],
  ['silent', gatewayMade(504, 'upstream-timeout', false), gatewayMade(504, 'upstream-timeout', true)],
  ['headers-then-hang', gatewayMade(504, 'upstream-timeout', false), gatewayMade(504, 'upstream-timeout', true)],
  ['reset-mid-body', gatewayMade(502, 'upstream-reset', false), gatewayMade(502, 'upstream-reset', true)],
  // api2 answered: its 503 becomes 502 (api2 500 would keep 500), the outcome is known.
  ['status-5xx', gatewayMade(502, 'api2-status', false), gatewayMade(502, 'api2-status', false)],
  ['invalid-json', gatewayMade(502, 'api2-schema', false), gatewayMade(502, 'api2-schema', false)],
  ['oversized-body', gatewayMade(502, 'upstream-too-large', false), gatewayMade(502, 'upstream-too-large', true)],
  ['slow-trickle', gatewayMade(504, 'upstream-timeout', false), gatewayMade(504, 'upstream-timeout', true)],
];

async function fault(mode: FaultMode, tls: boolean): Promise<StartedFaultUpstream> {
  const started = await startFaultUpstream({ mode, tls, bodyBytes: 1024 * 1024, trickleIntervalMs: 40 });
  cleanup.push(() => started.close());
  return started;
}

async function gatewayFor(side: Side, upstream: StartedFaultUpstream, legacy: StartedFaultUpstream): Promise<RigGateway> {
  const pool = { keepAliveTimeoutMs: 100 };
  const gateway = await startRigGateway({
    upstreams:
      side === 'legacy'
        ? { legacy: { baseUrl: upstream.origin, ...pool } }
        : { legacy: { baseUrl: legacy.origin, ...pool }, api2: { baseUrl: upstream.origin, caFile: upstream.caFile, ...pool } },
    routes: side === 'api2' ? { 'recipes.search': { mode: 'api2' }, 'reviews.get': { mode: 'api2' }, 'grocery.create': { mode: 'api2' } } : {},
    timeouts: { defaultMs: TIMEOUT_MS },
    limits: { maxResponseBodyBytes: MAX_RESPONSE_BYTES },
  });
  cleanup.push(() => gateway.close());
  return gateway;
}

async function timed(origin: string, request: Parameters<typeof send>[1]): Promise<{ res: RawResponse; ms: number }> {
  const started = Date.now();
  const res = await send(origin, request);
  return { res, ms: Date.now() - started };
}

function expectAnswer(label: string, answer: { res: RawResponse; ms: number }, expected: Expected): void {
  const { res, ms } = answer;
  expect(res.status, `${label}: ${res.text()}`).toBe(expected.status);
  expect(res.headers['x-gateway-error'] ?? null, label).toBe(expected.code);
  expect(isLegacyError(String(res.headers['content-type']), res.text()), `${label}: legacy error shape: ${res.text()}`).toBe(true);
  const message = (res.json() as { Message: string }).Message;
  if (expected.unknown) expect(message, label).toContain('outcome is unknown');
  else expect(message, label).not.toContain('outcome is unknown');
  expect(ms, `${label}: answered within the ${TIMEOUT_MS} ms deadline`).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  if (expected.status === 504) expect(ms, `${label}: not before the deadline`).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
}

describe.each([
  ['legacy', LEGACY],
  ['api2', API2],
] as const)('upstream faults in front of %s', (side, rows) => {
  it.each(rows)('%s', async (mode, read, write) => {
    const upstream = await fault(mode, side === 'api2');
    const legacy = side === 'api2' ? await fault('ok', false) : upstream;
    const gateway = await gatewayFor(side, upstream, legacy);
    const baseline = openTcpSockets();
    const unhandled = recordUnhandled();
    try {
      const [search, review, created] = await Promise.all([
        timed(gateway.origin, { target: '/recipes?title_kw=soup&api_key=sandbox-free-key', headers: J }),
        timed(gateway.origin, { target: '/review/5?api_key=sandbox-free-key', headers: J }),
        timed(gateway.origin, {
          method: 'POST',
          target: '/grocerylist?api_key=sandbox-free-key',
          headers: { ...J, authorization: ALICE, 'content-type': 'application/json' },
          body: JSON.stringify({ quantity: '1 lb', name: 'flour' }),
        }),
      ]);
      expectAnswer('recipes.search (cached operation)', search, read);
      expectAnswer('reviews.get', review, read);
      expectAnswer('grocery.create (a write)', created, write);

      // The write reached the upstream at most once (never when it refused the connection).
      const posts = upstream.requests.filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(mode === 'refuse' ? 0 : 1);
      if (side === 'api2') expect(legacy.requests, 'no fallback is configured: legacy is never called').toHaveLength(0);
      for (const record of gateway.records) expect(record.status).toBeGreaterThanOrEqual(500);

      // Nothing left behind: the fault upstream's sockets, the gateway's, and this process's.
      await waitFor(() => upstream.openSockets() === 0, 3000, 'fault upstream sockets closed');
      await waitFor(() => gateway.running.stats().connections === 0 && gateway.running.stats().inFlight === 0, 3000, 'gateway connections closed');
      await waitFor(() => openTcpSockets() <= baseline, 3000, `open TCP sockets back to ${baseline} (now ${openTcpSockets()})`);
      expect(unhandled.seen).toEqual([]);
    } finally {
      unhandled.stop();
    }
  });
});

describe('after a fault', () => {
  it('serves again as soon as the upstream is healthy, on the same gateway (no poisoned pool)', async () => {
    const upstream = await fault('reset-mid-body', false);
    const gateway = await gatewayFor('legacy', upstream, upstream);
    const failing = await send(gateway.origin, { target: '/review/1?api_key=k', headers: J });
    expect(failing.status).toBe(502);
    upstream.setMode('ok');
    const healthy = await send(gateway.origin, { target: '/review/1?api_key=k', headers: J });
    expect(healthy.status).toBe(200);
    expect(healthy.json()).toEqual({ ok: true });
    upstream.setMode('silent');
    const silent = await send(gateway.origin, { target: '/review/2?api_key=k', headers: J });
    expect(silent.status).toBe(504);
    upstream.setMode('ok');
    expect((await send(gateway.origin, { target: '/review/3?api_key=k', headers: J })).status).toBe(200);
  });
});
