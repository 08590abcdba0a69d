/**
 * Node-only: the tracer of `observability.tracing` (src/observability/tracing/tracer.ts) with
 * OpenTelemetry's OTLP/HTTP exporter as its sender: protobuf (@opentelemetry/exporter-trace-otlp-
 * proto) or JSON (@opentelemetry/exporter-trace-otlp-http), to the configured endpoint with its
 * headers (never logged). Batches are sent by the tracer's timer; `close` flushes them (the drain)
 * and shuts the exporter down.
 */
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { TracingConfig } from '../../config/tracing.js';
import { GATEWAY_NAME, GATEWAY_VERSION } from '../../gateway/product.js';
import { createTracer } from '../tracing/tracer.js';
import type { Tracer } from '../tracing/tracer.js';
import type { SpanSource } from '../tracing/spans-of-record.js';

export interface NodeTracer {
  readonly tracer: Tracer;
  close(): Promise<void>;
}

/** `baseUrls`: each upstream's base URL by its name (`legacy`, `api2`), for the client spans' URLs. */
export function createNodeTracer(config: TracingConfig, instance: string, baseUrls: SpanSource['baseUrls']): NodeTracer | undefined {
  if (!config.enabled || config.endpoint === undefined) return undefined;
  const options = { url: config.endpoint, headers: { ...config.headers }, timeoutMillis: config.timeoutMs, concurrencyLimit: 1 };
  const exporter = config.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options);
  const resource = resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': GATEWAY_VERSION, 'service.instance.id': instance });
  const tracer = createTracer({
    config,
    source: { resource, scope: { name: GATEWAY_NAME, version: GATEWAY_VERSION }, baseUrls },
    send: (spans) =>
      new Promise<void>((resolve, reject) => {
        exporter.export(spans, (result) => (result.code === ExportResultCode.SUCCESS ? resolve() : reject(result.error ?? new Error('export failed'))));
      }),
  });
  return {
    tracer,
    async close() {
      await tracer.flush();
      await exporter.shutdown();
    },
  };
}
