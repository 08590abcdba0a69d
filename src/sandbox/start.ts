/**
 * Node-only: serves the legacy sandbox on a loopback port, for tests and local runs.
 * DECISION: 127.0.0.1 (never `localhost`, which may resolve to ::1) and port 0 (a free port) by default.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createLegacySandboxApp } from './legacy-app.js';
import { nodeCompression } from '../node/compression.js';
import { LegacyStore } from './legacy-store.js';

export interface StartedLegacySandbox {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  readonly store: LegacyStore;
  /** Stops listening and closes every connection, idle keep-alive sockets included. */
  close(): Promise<void>;
}

export interface LegacySandboxOptions {
  readonly host?: string;
  readonly port?: number;
  readonly store?: LegacyStore;
}

export function startLegacySandbox(options: LegacySandboxOptions = {}): Promise<StartedLegacySandbox> {
  const host = options.host ?? '127.0.0.1';
  const store = options.store ?? new LegacyStore();
  const app = createLegacySandboxApp(store, nodeCompression);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, (info: AddressInfo) => {
      server.off('error', reject);
      const hostPart = host.includes(':') ? `[${host}]` : host;
      resolve({
        origin: `http://${hostPart}:${info.port}`,
        store,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
