/**
 * Starting the gateway on Node: the upstream clients (undici pools), the core app, and the
 * listeners (plain HTTP, and HTTPS when a certificate is configured).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createGatewayApp } from '../app.js';
import type { GatewayConfig } from '../config/schema.js';
import type { RecordSink } from '../gateway/request-record.js';
import { createUndiciUpstream } from '../upstream/undici-client.js';
import type { UpstreamClient } from '../upstream/types.js';
import { createNodeListener } from './listener.js';
import { nodeRuntime } from './runtime.js';

export interface RunningGateway {
  /** `http://host:port` of the plain listener. */
  readonly httpOrigin: string;
  /** `https://host:port` of the TLS listener, when configured. */
  readonly httpsOrigin: string | undefined;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly onRecord?: RecordSink;
}

async function upstreamFor(name: string, config: NonNullable<GatewayConfig['upstreams']['api2']>, maxResponseBytes: number): Promise<UpstreamClient> {
  return createUndiciUpstream({
    name,
    baseUrl: config.baseUrl,
    connections: config.connections,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxResponseBytes,
    ...(config.caFile ? { ca: await readFile(config.caFile, 'utf8') } : {}),
  });
}

export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  const legacy = await upstreamFor('legacy', config.upstreams.legacy, config.limits.maxResponseBodyBytes);
  const api2 = config.upstreams.api2 ? await upstreamFor('api2', config.upstreams.api2, config.limits.maxResponseBodyBytes) : undefined;
  const app = createGatewayApp({
    config,
    upstreams: api2 ? { legacy, api2 } : { legacy },
    runtime: nodeRuntime,
    ...(options.onRecord ? { onRecord: options.onRecord } : {}),
  });
  const listener = createNodeListener(app, { legacyHosts: config.legacyHosts, maxUrlLength: config.limits.maxUrlLength });

  const servers: Server[] = [];
  const plain = createServer(listener);
  servers.push(plain);
  const httpOrigin = await listen(plain, config.listen.host, config.listen.port, 'http');

  let httpsOrigin: string | undefined;
  if (config.listen.https) {
    const [cert, key] = await Promise.all([readFile(config.listen.https.certFile), readFile(config.listen.https.keyFile)]);
    const secure = createHttpsServer({ cert, key }, listener);
    servers.push(secure);
    httpsOrigin = await listen(secure, config.listen.host, config.listen.https.port, 'https');
  }

  return {
    httpOrigin,
    httpsOrigin,
    async close() {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeIdleConnections();
            }),
        ),
      );
      await Promise.all([legacy.close(), api2?.close()]);
    },
  };
}

function listen(server: Server, host: string, port: number, scheme: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`${scheme}://${shown}:${address.port}`);
    });
  });
}
