/**
 * Node-only: Prometheus metrics from the request records (prom-client, one registry per gateway).
 *
 *   gateway_requests_total{operation,mode,status_class}
 *   gateway_request_duration_seconds{operation,mode,status_class}   histogram
 *   gateway_upstream_duration_seconds{upstream}                      histogram
 *   gateway_upstream_errors_total{upstream,reason}                   reason: timeout, unreachable, reset, invalid, too-large
 *   gateway_upstream_timeouts_total{upstream}
 *   gateway_cache_requests_total{operation,result}                   result: hit, miss, stale, bypass
 *   gateway_usage_log_dropped_lines_total                             (when a usage log is on)
 *   gateway_upstream_connections{upstream,state}                      gauge, state: open, idle
 *   gateway_upstream_requests{upstream,state}                         gauge, state: in-flight, waiting
 *   gateway_cache_tier_up{tier}                                       gauge, 1 while the shared cache tier (redis) is in use
 *   gateway_cache_tier_errors_total{tier}                             shared-tier calls that failed or found it out
 *   gateway_cache_invalidations_unacknowledged_total{tier}            writes answered before the tier took their invalidation
 *   plus prom-client's default process metrics.
 *
 * Label children are looked up once per label combination and kept, so a request costs a map
 * lookup, an increment and a histogram observation.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { TracerCounts } from '../tracing/tracer.js';
import type { UpstreamPoolStats } from '../../upstream/types.js';
import type { RecordSink, RequestRecord } from '../../gateway/request-record.js';
import type { MetricsEndpoint } from '../../gateway/admin-port.js';
import { modeOf, UNROUTED } from '../log-fields.js';

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** `X-Gateway-Error` codes (legacy path) and `upstream-<failure>` (api2 path) → one reason vocabulary. */
const UPSTREAM_REASONS: Readonly<Record<string, string>> = {
  'upstream-timeout': 'timeout',
  'upstream-unreachable': 'unreachable',
  'upstream-connect': 'unreachable',
  'upstream-reset': 'reset',
  'upstream-invalid': 'invalid',
  'upstream-protocol': 'invalid',
  'upstream-too-large': 'too-large',
};

function upstreamFailureOf(error: string | undefined): string | undefined {
  return error === undefined ? undefined : UPSTREAM_REASONS[error];
}

export interface PrometheusMetrics {
  readonly sink: RecordSink;
  readonly endpoint: MetricsEndpoint;
  readonly registry: Registry;
}

interface RequestChildren {
  readonly count: { inc(): void };
  readonly latency: { observe(value: number): void };
}

export interface PrometheusOptions {
  readonly droppedLogLines?: () => number;
  /** The trace export's counts (src/observability/tracing/tracer.ts), with `observability.tracing` on. */
  readonly traces?: () => TracerCounts;
  /** The upstream pools in force, read at each scrape (they change with config reloads). */
  readonly upstreamPools?: () => ReadonlyArray<{ readonly name: string; readonly stats: UpstreamPoolStats }>;
  /** The shared cache tier's state, read at each scrape (undefined: none configured). */
  readonly cacheTier?: () => { readonly tier: string; readonly up: boolean; readonly errors: number; readonly unacknowledgedInvalidations: number } | undefined;
}

export function createPrometheusMetrics(options: PrometheusOptions = {}): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (cluster.isWorker) {
    // A cluster worker answers the primary's AggregatorRegistry with this registry (src/node/cluster.ts);
    // constructing one installs prom-client's worker-side message listener.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  const registers = [registry];

  const requests = new Counter({
    name: 'gateway_requests_total',
    help: 'Requests answered, by operation, mode that served them and status class.',
    labelNames: ['operation', 'mode', 'status_class'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from arrival to the answer being ready, by operation, mode and status class.',
    labelNames: ['operation', 'mode', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const upstreamDuration = new Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time spent waiting for an upstream, by upstream.',
    labelNames: ['upstream'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const upstreamErrors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Upstream exchanges that failed, by upstream and reason (timeout, unreachable, reset, invalid, too-large).',
    labelNames: ['upstream', 'reason'] as const,
    registers,
  });
  const upstreamTimeouts = new Counter({
    name: 'gateway_upstream_timeouts_total',
    help: 'Upstream exchanges that passed their deadline, by upstream.',
    labelNames: ['upstream'] as const,
    registers,
  });
  const cache = new Counter({
    name: 'gateway_cache_requests_total',
    help: 'Response cache outcomes, by operation and result (hit, miss, stale, bypass).',
    labelNames: ['operation', 'result'] as const,
    registers,
  });
  if (options.droppedLogLines) {
    const dropped = options.droppedLogLines;
    new Counter({
      name: 'gateway_usage_log_dropped_lines_total',
      help: 'Usage-log lines dropped because the log destination stalled.',
      registers,
      collect() {
        this.reset();
        this.inc(dropped());
      },
    });
  }

  if (options.traces) {
    const counts = options.traces;
    const spans = (name: string, help: string, read: (c: TracerCounts) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read(counts()));
        },
      });
    spans('gateway_trace_spans_exported_total', 'Spans the OTLP receiver took.', (c) => c.exported);
    spans('gateway_trace_spans_dropped_total', 'Spans of kept traces dropped because the export queue was full (observability.tracing.queueSize).', (c) => c.dropped);
    spans('gateway_trace_spans_failed_total', 'Spans sent that the OTLP receiver did not take (down, slower than observability.tracing.timeoutMs, or refusing).', (c) => c.failed);
    new Gauge({
      name: 'gateway_trace_queue_traces',
      help: 'Kept traces held for export now (queued, or waiting for their shadow comparison).',
      registers,
      collect() {
        this.set(counts().held);
      },
    });
  }

  if (options.upstreamPools) {
    const pools = options.upstreamPools;
    /** A gauge read from the pools at each scrape, one series per upstream and state. */
    const poolGauge = (name: string, help: string, states: Readonly<Record<string, (stats: UpstreamPoolStats) => number>>): void => {
      new Gauge({
        name,
        help,
        labelNames: ['upstream', 'state'] as const,
        registers,
        collect() {
          this.reset();
          for (const { name: upstream, stats } of pools()) {
            for (const [state, read] of Object.entries(states)) this.labels(upstream, state).set(read(stats));
          }
        },
      });
    };
    poolGauge('gateway_upstream_connections', 'Connections to each upstream at scrape time: open, and of those idle.', {
      open: (stats) => stats.connected,
      idle: (stats) => stats.idle,
    });
    poolGauge('gateway_upstream_requests', 'Requests to each upstream at scrape time: in flight on a connection, or waiting for one.', {
      'in-flight': (stats) => stats.inFlight,
      waiting: (stats) => stats.waiting,
    });
  }

  if (options.cacheTier) tierMetrics(options.cacheTier, registers);

  const children = new Map<string, RequestChildren>();
  const childrenFor = (operation: string, mode: string, statusClass: string): RequestChildren => {
    const key = `${operation}\u0000${mode}\u0000${statusClass}`;
    let found = children.get(key);
    if (!found) {
      found = { count: requests.labels(operation, mode, statusClass), latency: duration.labels(operation, mode, statusClass) };
      children.set(key, found);
    }
    return found;
  };

  const sink = (record: Readonly<RequestRecord>): void => {
    const operation = record.operation ?? UNROUTED;
    const mode = modeOf(record);
    const status = record.status ?? 0;
    const child = childrenFor(operation, mode, STATUS_CLASSES[Math.min(5, Math.floor(status / 100))] ?? '0xx');
    child.count.inc();
    if (record.latencyMs !== undefined) child.latency.observe(record.latencyMs / 1000);
    const upstream = mode === 'gateway' ? undefined : mode;
    if (upstream !== undefined) {
      if (record.upstreamMs !== undefined) upstreamDuration.labels(upstream).observe(record.upstreamMs / 1000);
      const reason = upstreamFailureOf(record.error);
      if (reason !== undefined) {
        upstreamErrors.labels(upstream, reason).inc();
        if (reason === 'timeout') upstreamTimeouts.labels(upstream).inc();
      }
    }
    if (record.cache !== undefined) cache.labels(operation, record.cache.toLowerCase()).inc();
  };

  return {
    sink,
    registry,
    endpoint: {
      async render() {
        return { contentType: registry.contentType, body: await registry.metrics() };
      },
    },
  };
}

function tierMetrics(read: NonNullable<PrometheusOptions['cacheTier']>, registers: Registry[]): void {
  new Gauge({
    name: 'gateway_cache_tier_up',
    help: 'Whether the shared cache tier is in use (1) or out, the gateway on its per-process cache only (0).',
    labelNames: ['tier'] as const,
    registers,
    collect() {
      this.reset();
      const status = read();
      if (status) this.labels(status.tier).set(status.up ? 1 : 0);
    },
  });
  new Counter({
    name: 'gateway_cache_tier_errors_total',
    help: 'Shared cache tier calls that failed (error, timeout, lost connection).',
    labelNames: ['tier'] as const,
    registers,
    collect() {
      this.reset();
      const status = read();
      if (status) this.labels(status.tier).inc(status.errors);
    },
  });
  new Counter({
    name: 'gateway_cache_invalidations_unacknowledged_total',
    help: 'Writes answered before the shared cache tier took their invalidation (out, slow or failing; replayed when it is back).',
    labelNames: ['tier'] as const,
    registers,
    collect() {
      this.reset();
      const status = read();
      if (status) this.labels(status.tier).inc(status.unacknowledgedInvalidations);
    },
  });
}
