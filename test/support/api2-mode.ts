/**
 * api2-mode harness: a gateway with every mappable operation routed to a real api2 sandbox (TLS,
 * verified through its CA file), legacy-only operations to a legacy sandbox, and a second legacy
 * sandbox called directly for comparison. The api2 sandbox and the legacy one behind the gateway
 * serve one dataset (as production does); the direct one a separate copy of the same dataset; all
 * with the same frozen clock. Every request the gateway sends to api2 is kept for validation against the spec.
 */
import { capabilities } from '../../src/catalogue/movability.js';
import { PLACEHOLDER_PHOTO_URL } from '../../src/sandbox/dataset/dataset.js';
import { startApi2Sandbox } from '../../src/sandbox/api2-start.js';
import type { SeenApi2Request, StartedApi2Sandbox } from '../../src/sandbox/api2-start.js';
import { LegacyStore } from '../../src/sandbox/legacy-store.js';
import { createSandboxStores } from '../../src/sandbox/shared-stores.js';
import { startLegacySandbox } from '../../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../../src/sandbox/start.js';
import type { GatewayConfigInput } from '../../src/config/schema.js';
import { startTestGateway } from './gateway.js';
import type { TestGateway } from './gateway.js';
import { FROZEN_NOW } from './parity.js';

export interface Api2ModeRig {
  readonly gateway: TestGateway;
  readonly api2: StartedApi2Sandbox;
  readonly legacyBehind: StartedLegacySandbox;
  readonly direct: StartedLegacySandbox;
  /** Requests the gateway sent to api2, in order. */
  readonly api2Requests: SeenApi2Request[];
  close(): Promise<void>;
}

export const MAPPED_ROUTES = Object.fromEntries(
  capabilities()
    .filter((row) => row.mapped)
    .map((row) => [row.operation, { mode: 'api2' as const }]),
);

export async function startApi2ModeRig(overrides: Partial<GatewayConfigInput> = {}): Promise<Api2ModeRig> {
  const api2Requests: SeenApi2Request[] = [];
  const shared = createSandboxStores({ now: () => FROZEN_NOW });
  const api2 = await startApi2Sandbox({ store: shared.api2, onRequest: (r) => api2Requests.push(r) });
  const legacyBehind = await startLegacySandbox({ store: shared.legacy });
  const direct = await startLegacySandbox({ store: new LegacyStore({ now: () => FROZEN_NOW }) });
  const gateway = await startTestGateway(legacyBehind.origin, {
    upstreams: { legacy: { baseUrl: legacyBehind.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    routes: MAPPED_ROUTES,
    ...overrides,
  });
  return {
    gateway,
    api2,
    legacyBehind,
    direct,
    api2Requests,
    async close() {
      await gateway.close();
      await Promise.all([api2.close(), legacyBehind.close(), direct.close()]);
    },
  };
}
