/**
 * Runtime bindings for tests that call the core app through `app.request`: the request handed over
 * as an edge runtime hands it (src/edge/runtime.ts), from a fixed peer, with no client signal.
 */
import type { Peer } from '../../src/http/client-view.js';
import type { RuntimeBindings } from '../../src/gateway/env.js';
import { edgeRuntime } from '../../src/edge/runtime.js';

export function testRuntime(peer: Peer = { address: '127.0.0.1', tls: false }): RuntimeBindings {
  return {
    arrival: (c, maxUrlLength) => ({ ...edgeRuntime.arrival(c, maxUrlLength), peer }),
    clientSignal: () => undefined,
    hmacSha256: edgeRuntime.hmacSha256,
  };
}
