/**
 * Node-only: serves the api2 sandbox over TLS on a loopback port (api2 is https only [C]).
 *
 * DECISIONS:
 * - A fresh self-signed certificate per start (selfsigned: commonName 127.0.0.1, subjectAltName
 *   IP 127.0.0.1, sha256, 2048-bit RSA). Clients trust it by passing it as their CA; certificate
 *   verification is never turned off. The PEM is also written to a temp file (`caFile`) for the
 *   gateway's config; close() removes it.
 * - TLS only: a plain-http request to the port fails the TLS handshake and the connection is
 *   dropped (the client sees a socket or parse error, never an HTTP answer).
 * - 127.0.0.1 and port 0 (a free port) by default, as the legacy sandbox.
 */
import { serve } from '@hono/node-server';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { createApi2SandboxApp } from './api2-app.js';
import { Api2Store } from './api2-store.js';
import { Api2Faults } from './api2-faults.js';

export interface StartedApi2Sandbox {
  /** `https://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  /** The server certificate (PEM), to trust as CA. */
  readonly caPem: string;
  /** caPem written to a temp file. */
  readonly caFile: string;
  readonly store: Api2Store;
  /** Faults on demand (api2-faults.ts): none until set. */
  readonly faults: Api2Faults;
  /** Stops listening, closes every connection and removes caFile. */
  close(): Promise<void>;
}

export interface Api2SandboxOptions {
  readonly host?: string;
  readonly port?: number;
  readonly store?: Api2Store;
  /** Sees every request before it is answered (tests record and validate them). */
  readonly onRequest?: (request: SeenApi2Request) => void;
  /** The faults applied to its answers (default: a fresh, inactive set). */
  readonly faults?: Api2Faults;
}

export interface SeenApi2Request {
  readonly method: string;
  /** Path and query as received. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export async function startApi2Sandbox(options: Api2SandboxOptions = {}): Promise<StartedApi2Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const store = options.store ?? new Api2Store();
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const dir = await mkdtemp(join(tmpdir(), 'api2-sandbox-'));
  const caFile = join(dir, 'api2-sandbox-cert.pem');
  await writeFile(caFile, pems.cert);
  const faults = options.faults ?? new Api2Faults();
  const app = { fetch: faults.wrap(createApi2SandboxApp(store).fetch) };
  const onRequest = options.onRequest;
  const fetch = onRequest
    ? async (request: Request): Promise<Response> => {
        const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
        const url = new URL(request.url);
        onRequest({ method: request.method, target: url.pathname + url.search, headers: Object.fromEntries(request.headers), body });
        return app.fetch(request);
      }
    : app.fetch;

  const server = await new Promise<Server>((resolve, reject) => {
    const created = serve(
      { fetch, hostname: host, port: options.port ?? 0, createServer, serverOptions: { key: pems.private, cert: pems.cert } },
      () => {
        created.off('error', reject);
        resolve(created as Server);
      },
    );
    created.once('error', reject);
  }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });

  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `https://${hostPart}:${port}`,
    caPem: pems.cert,
    caFile,
    store,
    faults,
    close: async () => {
      await new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        server.closeAllConnections();
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
