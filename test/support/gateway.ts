/**
 * Starts a real gateway on 127.0.0.1 for a test, in front of the given legacy origin, with config
 * overrides, and collects the request records and shadow comparisons it emits. The usage log goes
 * to /dev/null unless a test asks otherwise (tests read the records directly).
 */
import { parseConfig } from '../../src/config/schema.js';
import type { GatewayConfigInput } from '../../src/config/schema.js';
import type { RequestRecord } from '../../src/gateway/request-record.js';
import { startGateway } from '../../src/node/server.js';
import type { RunningGateway } from '../../src/node/server.js';
import type { ShadowRecord } from '../../src/traffic/shadow.js';
import type { LiveCounters } from '../../src/migration/live-counters.js';

export interface TestGateway {
  readonly origin: string;
  readonly httpsOrigin: string | undefined;
  readonly records: RequestRecord[];
  readonly shadows: ShadowRecord[];
  readonly live: LiveCounters;
  /** The running gateway itself (reload, rollout, events). */
  readonly running: RunningGateway;
  /** The admin listener, when `observability.admin.listen` is set. */
  readonly adminOrigin: string | undefined;
  close(): Promise<void>;
}

export async function startTestGateway(legacyOrigin: string, overrides: Partial<GatewayConfigInput> = {}): Promise<TestGateway> {
  const parsed = parseConfig({
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: legacyOrigin } },
    legacyHosts: ['api.bigoven.com'],
    ...overrides,
    observability: { ...overrides.observability, log: { destination: '/dev/null', ...overrides.observability?.log } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const records: RequestRecord[] = [];
  const shadows: ShadowRecord[] = [];
  const gateway = await startGateway(parsed.config, {
    onRecord: (record) => records.push({ ...record }),
    onShadow: (record) => shadows.push(record),
  });
  return { origin: gateway.httpOrigin, httpsOrigin: gateway.httpsOrigin, records, shadows, live: gateway.live, running: gateway, adminOrigin: gateway.adminOrigin, close: () => gateway.close() };
}
