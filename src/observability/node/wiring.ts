/**
 * Node-only: builds the observability pieces from `config.observability` and says where they go.
 *
 * - usage log (pino, async) and Prometheus metrics become one record sink, with the caller's own
 *   sink (tests) after them;
 * - the identifier (keyed client/user hashes) is shared by the core app and the Node listener, so
 *   refusals made before Hono hash alike;
 * - the admin views are served on the admin listener when `admin.listen` is set (behind the bearer
 *   token when there is one, which a listener beyond loopback must have: admin-access.ts), else on
 *   the main listener behind the token, else nowhere (and the metrics are then not collected).
 */
import type { GatewayConfig } from '../../config/schema.js';
import type { RecordSink } from '../../gateway/request-record.js';
import type { Registry } from 'prom-client';
import type { AdminAction, AdminRoutes, AdminView } from '../../gateway/admin-port.js';
import { fanOut } from '../fan-out.js';
import { adminAccess } from './admin-access.js';
import { nodeHmacSha256 } from '../../request/hmac-node.js';
import { identifierFromConfig } from '../../request/identity.js';
import type { Identifier } from '../../request/identity.js';
import { createPrometheusMetrics } from './prometheus.js';
import type { PrometheusOptions } from './prometheus.js';
import { instanceId, originSource } from './origin.js';
import { createUsageLog } from './usage-log.js';
import { createNodeTracer } from './trace-export.js';
import type { Tracer } from '../tracing/tracer.js';
import type { UsageLog } from './usage-log.js';

export interface NodeObservability {
  readonly sink: RecordSink | undefined;
  /** Set when the usage log is on: the log's extras (request id, bytes, hashes) are then filled. */
  readonly identifier: Identifier | undefined;
  /** Admin views for the main app (bearer token), when they are served there. */
  readonly mainAdmin: AdminRoutes | undefined;
  /** Admin views and where to listen for them, when a separate admin listener is configured. */
  readonly adminListener: { readonly routes: AdminRoutes; readonly host: string; readonly port: number } | undefined;
  readonly usageLog: UsageLog | undefined;
  /** Exports kept traces over OTLP (`observability.tracing`); undefined with export off. */
  readonly tracer: Tracer | undefined;
  /** The metrics registry, when metrics are served (more metrics may be registered on it). */
  readonly metricsRegistry: Registry | undefined;
  /** Things the operator should know at start (printed by `npm start`). */
  readonly notes: readonly string[];
  close(): Promise<void>;
}

export function createNodeObservability(
  config: GatewayConfig,
  extraSink?: RecordSink,
  views: readonly AdminView[] = [],
  upstreamPools?: PrometheusOptions['upstreamPools'],
  cacheTier?: PrometheusOptions['cacheTier'],
  configVersion: () => string = () => '',
  actions: readonly AdminAction[] = [],
): NodeObservability {
  const obs = config.observability;
  const notes: string[] = [];
  const usageLog = obs.log.enabled ? createUsageLog(obs.log, originSource(instanceId(obs.instance), configVersion)) : undefined;
  const identifier = usageLog ? identifierFromConfig(obs, nodeHmacSha256) : undefined;
  if (usageLog && obs.hashKey === undefined) {
    notes.push('observability.hashKey is not set: client and user hashes change at every restart and clientLabels cannot match');
  }

  const tracing = createNodeTracer(obs.tracing, instanceId(obs.instance), { legacy: config.upstreams.legacy.baseUrl, api2: config.upstreams.api2?.baseUrl });
  const access = adminAccess(obs);
  const served = obs.metrics.enabled && (obs.admin.listen !== undefined || access.bearerToken !== undefined);
  if (obs.metrics.enabled && !served) {
    notes.push('metrics are not served: set observability.admin.listen (an admin listener) or a bearer token (observability.admin.bearerToken, bearerTokenFile or GATEWAY_ADMIN_TOKEN)');
  }
  const metrics = served
    ? createPrometheusMetrics({ ...(usageLog ? { droppedLogLines: () => usageLog.dropped() } : {}), ...(upstreamPools ? { upstreamPools } : {}), ...(cacheTier ? { cacheTier } : {}), ...(tracing ? { traces: () => tracing.tracer.counts() } : {}) })
    : undefined;
  const routes: AdminRoutes | undefined = metrics
    ? { metricsPath: obs.metrics.path, bearerToken: access.bearerToken, openMetrics: access.openMetrics, metrics: metrics.endpoint, views, actions }
    : undefined;

  const sink = fanOut([usageLog?.sink, metrics?.sink, extraSink], (error) => {
    usageLog?.logger.error({ error: String(error) }, 'record sink failed');
  });

  return {
    sink,
    identifier,
    mainAdmin: routes && !obs.admin.listen ? routes : undefined,
    adminListener: routes && obs.admin.listen ? { routes, host: obs.admin.listen.host, port: obs.admin.listen.port } : undefined,
    usageLog,
    tracer: tracing?.tracer,
    metricsRegistry: metrics?.registry,
    notes,
    async close() {
      // Kept traces are sent before the process goes (bounded by the export's deadline).
      await tracing?.close();
      await usageLog?.close();
    },
  };
}
