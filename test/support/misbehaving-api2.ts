/**
 * A gateway in front of the sandbox legacy backend and of an api2 that misbehaves as the test
 * says: a real TLS upstream (trusted through its CA file, never by turning verification off) that
 * answers by the test's handler and keeps every call it got in `seen`. The page cache is off
 * unless the overrides turn it on. Each part is closed by the test's `cleanup`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfigInput } from '../../src/config/schema.js';
import { startLegacySandbox } from '../../src/sandbox/start.js';
import { startTestGateway } from './gateway.js';
import type { TestGateway } from './gateway.js';
import { startTlsUpstream } from './tls-upstream.js';
import type { TlsUpstream } from './tls-upstream.js';
import type { Cleanup } from './cleanup.js';


export async function startGatewayInFrontOfMisbehavingApi2(
  cleanup: Cleanup,
  api2Handler: (req: IncomingMessage, res: ServerResponse) => void,
  overrides: Partial<GatewayConfigInput>,
): Promise<{ gateway: TestGateway; api2: TlsUpstream }> {
  const api2 = await startTlsUpstream(api2Handler);
  cleanup.push(() => api2.close());
  const legacy = await startLegacySandbox();
  cleanup.push(() => legacy.close());
  const gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    cache: { enabled: false },
    ...overrides,
  });
  cleanup.push(() => gateway.close());
  return { gateway, api2 };
}

/**
 * api2 down: every call answered 503, and the gateway's api2 breaker opens after 3 consecutive
 * failures and stays open a minute (`extra`: more config). For fallback and the breaker, and the
 * counters and metrics that count them.
 */
export async function startGatewayWithApi2Down(
  cleanup: Cleanup,
  routes: GatewayConfigInput['routes'],
  options: { cache?: boolean; extra?: Partial<GatewayConfigInput> } = {},
): Promise<{ gateway: TestGateway; failing: TlsUpstream }> {
  const answer503 = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"Message":"down"}');
  };
  const { gateway, api2 } = await startGatewayInFrontOfMisbehavingApi2(cleanup, answer503, {
    routes,
    traffic: { breakers: { api2: { failureThreshold: 3, openMs: 60_000 } } },
    cache: { enabled: options.cache ?? false },
    ...options.extra,
  });
  return { gateway, failing: api2 };
}
