/**
 * Parity harness: two sandbox legacy backends built from the same dataset with the same frozen
 * clock. One sits behind a real gateway, the other is called directly. The same sequence of
 * requests sent to both must give the same answers, write for write.
 */
import { expect } from 'vitest';
import { LegacyStore } from '../../src/sandbox/legacy-store.js';
import { startLegacySandbox } from '../../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../../src/sandbox/start.js';
import { send } from './http.js';
import type { RawRequest, RawResponse } from './http.js';
import { startTestGateway } from './gateway.js';
import type { TestGateway } from './gateway.js';
import type { GatewayConfigInput } from '../../src/config/schema.js';

export const FROZEN_NOW = 1_700_000_000_000;

/** Headers whose value a client relies on; the rest (date, connection) are per-exchange. */
export const COMPARED_HEADERS = ['content-type', 'content-encoding', 'content-length', 'etag', 'vary', 'cache-control', 'allow', 'location'];

export interface ParityPair {
  readonly gateway: TestGateway;
  readonly behind: StartedLegacySandbox;
  readonly direct: StartedLegacySandbox;
  /** Sends to both; asserts equal status, compared headers and body bytes; returns the gateway's answer. */
  both(req: RawRequest, via?: 'http' | 'https'): Promise<RawResponse>;
  close(): Promise<void>;
}

export async function startParityPair(overrides: Partial<GatewayConfigInput> = {}, ca?: string): Promise<ParityPair> {
  const behind = await startLegacySandbox({ store: new LegacyStore({ now: () => FROZEN_NOW }) });
  const direct = await startLegacySandbox({ store: new LegacyStore({ now: () => FROZEN_NOW }) });
  const gateway = await startTestGateway(behind.origin, overrides);
  return {
    gateway,
    behind,
    direct,
    async both(req, via = 'http') {
      const origin = via === 'https' ? (gateway.httpsOrigin as string) : gateway.origin;
      const viaGateway = await send(origin, { ...req, ...(ca ? { ca } : {}) });
      const straight = await send(direct.origin, req);
      const label = `${req.method ?? 'GET'} ${req.target}`;
      expect(viaGateway.status, label).toBe(straight.status);
      for (const name of COMPARED_HEADERS) {
        expect(viaGateway.headers[name], `${label}: ${name}`).toEqual(straight.headers[name]);
      }
      expect(viaGateway.body.equals(straight.body), `${label}: body bytes\n${viaGateway.text().slice(0, 300)}\n${straight.text().slice(0, 300)}`).toBe(true);
      return viaGateway;
    },
    async close() {
      await gateway.close();
      await behind.close();
      await direct.close();
    },
  };
}
