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
import type { GatewayConfig } from '../config/schema.js';
import type { RecordSink } from '../gateway/request-record.js';
import type { ShadowRecord } from '../traffic/shadow.js';
import { createAdminApp } from '../observability/admin-routes.js';
import { emitAfterWrite } from '../observability/node/emit-after-write.js';
import { createNodeObservability } from '../observability/node/wiring.js';
import type { NodeObservability } from '../observability/node/wiring.js';
import { Generations } from './generations.js';
import type { ReloadOutcome } from './generations.js';
import { configView, trafficView } from './admin-views.js';
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
  /** Puts a validated config in force (hot reload); requests in flight finish on the old one. */
  reload(config: GatewayConfig): Promise<ReloadOutcome>;
  /** The version of the config in force (1 at start, +1 per reload). */
  version(): number;
  /** Writes an operator event (not a request) to the usage log, when it is on. */
  event(name: string, fields: Record<string, unknown>): void;
}

export interface StartOptions {
  /** Also receives every request record (after the usage log and the metrics). */
  readonly onRecord?: RecordSink;
  /** Also receives every shadow comparison (after the usage log, where it is a `msg: "shadow"` line). */
  readonly onShadow?: (record: ShadowRecord) => void;
}

export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  let generations: Generations | undefined;
  const observability = createNodeObservability(config, options.onRecord, [
    { path: '/admin/config', render: () => (generations ? configView(generations.active) : {}) },
    { path: '/admin/traffic', render: () => (generations ? trafficView(generations.active) : {}) },
  ]);
  generations = await Generations.start(config, {
    runtime: nodeRuntime,
    onRecord: observability.sink,
    identifier: observability.identifier,
    emitRecord: emitAfterWrite,
    onShadow: shadowSink(observability, options.onShadow),
    onBreaker: (upstream, from, to) => observability.usageLog?.event('breaker', { upstream, from, to }),
    admin: observability.mainAdmin,
  });
  const listener = createNodeListener(generations.target, {
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
      await generations?.close();
      await observability.close();
    },
    reload: async (next) => {
      if (!generations) throw new Error('gateway not started');
      const outcome = await generations.reload(next);
      observability.usageLog?.event('config', { version: outcome.version, needsRestart: outcome.needsRestart });
      return outcome;
    },
    version: () => generations?.active.version ?? 0,
    event: (name, fields) => observability.usageLog?.event(name, fields),
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
