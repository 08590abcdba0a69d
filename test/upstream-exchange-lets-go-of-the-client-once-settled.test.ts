/**
 * A settled upstream exchange holds nothing of the client: undici may keep an exchange (its
 * dispatch handler) reachable after it settles, and while the exchange still held the client's
 * signal, the client's Node request and response lived on with it. Under load that sent about one
 * gateway process in three into promoting ~2 MB of dead requests per scavenge
 * (docs/benchmarks-anchors.md, "Promotion").
 */
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUndiciUpstream } from '../src/upstream/undici-client.js';
import type { AbortSignalLike, UpstreamClient } from '../src/upstream/types.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let server: Server;
let upstream: UpstreamClient;
/** Every handler undici was given, kept as undici itself may keep them. */
const handlers: Dispatcher.DispatchHandler[] = [];
const dispatch = Pool.prototype.dispatch;

beforeAll(async () => {
  server = createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Pool.prototype.dispatch = function (this: Pool, options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
    handlers.push(handler);
    return dispatch.call(this, options, handler);
  };
  const { port } = server.address() as AddressInfo;
  upstream = createUndiciUpstream({ name: 'legacy', baseUrl: `http://127.0.0.1:${port}`, connections: 1, keepAliveTimeoutMs: 1000, maxResponseBytes: 1 << 20 });
});

afterAll(async () => {
  Pool.prototype.dispatch = dispatch;
  await upstream.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A client signal with something of the client's size behind it. */
function clientSignal(): AbortSignalLike {
  const client = { answer: new Uint8Array(64 * 1024) };
  return {
    get aborted() {
      return client.answer.byteLength === 0;
    },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}

async function settledRequest(): Promise<WeakRef<AbortSignalLike>> {
  const signal = clientSignal();
  const answer = await upstream.request({ method: 'GET', target: '/recipes', headers: {}, body: null, timeoutMs: 5000, signal });
  expect(answer.status).toBe(200);
  return new WeakRef(signal);
}

it('a settled exchange that undici still holds does not keep the client signal alive', async () => {
  const released = await settledRequest();
  expect(handlers).toHaveLength(1);
  // A WeakRef's target is kept until the current job ends: collect in a later one.
  await new Promise((resolve) => setTimeout(resolve, 10));
  collectGarbage();
  expect(released.deref()).toBeUndefined();
});
