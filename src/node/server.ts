/**
 * Starting the gateway on Node: the upstream clients (undici pools), the core app, and the
 * listeners (plain HTTP, and HTTPS when a certificate is configured).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createGatewayApp } from '../app.js';
import type { GatewayConfig } from '../config/schema.js';
import type { RecordSink } from '../gateway/request-record.js';
import type { ShadowRecord } from '../traffic/shadow.js';
import { createAdminApp } from '../observability/admin-routes.js';
import { emitAfterWrite } from '../observability/node/emit-after-write.js';
import { createNodeObservability } from '../observability/node/wiring.js';
import type { NodeObservability } from '../observability/node/wiring.js';
import { createUndiciUpstream } from '../upstream/undici-client.js';
import type { UpstreamClient } from '../upstream/types.js';
import { createNodeListener } from './listener.js';
import { nodeRuntime } from './runtime.js';

export interface RunningGateway {
  /** `http://host:port` of the plain listener. */
  readonly httpOrigin: string;
  /** `https://host:port` of the TLS listener, when configured. */
  readonly httpsOrigin: string | undefined;
  /** `http://host:port` of the admin listener (metrics), when configured. */
  readonly adminOrigin: string | undefined;
  /** Where the metrics can be read, and how; undefined when they are not served. */
  readonly metricsUrl: string | undefined;
  /** Things the operator should know (for example: metrics not served, no hash key). */
  readonly notes: readonly string[];
  /** Stops the listeners, then writes out and closes the usage log. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Also receives every request record (after the usage log and the metrics). */
  readonly onRecord?: RecordSink;
  /** Also receives every shadow comparison (after the usage log, where it is a `msg: "shadow"` line). */
  readonly onShadow?: (record: ShadowRecord) => void;
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
  const observability = createNodeObservability(config, options.onRecord);
  const app = createGatewayApp({
    config,
    upstreams: api2 ? { legacy, api2 } : { legacy },
    runtime: nodeRuntime,
    onRecord: observability.sink,
    identifier: observability.identifier,
    emitRecord: emitAfterWrite,
    onShadow: shadowSink(observability, options.onShadow),
    admin: observability.mainAdmin,
  });
  const listener = createNodeListener(app, {
    legacyHosts: config.legacyHosts,
    maxUrlLength: config.limits.maxUrlLength,
    observer: observability.sink ? { sink: observability.sink, identifier: observability.identifier } : undefined,
  });

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

  let adminOrigin: string | undefined;
  if (observability.adminListener) {
    const { routes, host, port } = observability.adminListener;
    const admin = createServer(getRequestListener(createAdminApp(routes).fetch));
    servers.push(admin);
    adminOrigin = await listen(admin, host, port, 'http');
  }
  const metricsPath = config.observability.metrics.path;
  const metricsUrl = adminOrigin ? `${adminOrigin}${metricsPath}` : observability.mainAdmin ? `${httpOrigin}${metricsPath} (bearer token)` : undefined;

  return {
    httpOrigin,
    httpsOrigin,
    adminOrigin,
    metricsUrl,
    notes: observability.notes,
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
      await observability.close();
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

function shadowSink(observability: NodeObservability, extra: StartOptions['onShadow']): ((record: ShadowRecord) => void) | undefined {
  const log = observability.usageLog;
  if (!log) return extra;
  return (record) => {
    log.event('shadow', record);
    extra?.(record);
  };
}
