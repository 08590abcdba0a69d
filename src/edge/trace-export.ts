/**
 * The tracer of `observability.tracing` on the edge (src/observability/tracing/tracer.ts): each
 * kept trace's export is handed to the request's deferred work (`ctx.waitUntil`, through
 * `runtime.defer`), so the platform lets it finish after the answer and the answer never waits.
 * Its sender is OpenTelemetry's own OTLP serializer (protobuf or JSON, as `protocol` says) and
 * `fetch` to the endpoint with the configured headers (never logged): the Node exporter's wire
 * format without its Node transport. An export that fails or outlives `timeoutMs` is counted as
 * failed by the tracer; a Worker has no drain, so nothing is held past the request's deferred work.
 *
 * Bundled as Wrangler bundles a Worker (esbuild's `browser` platform: the packages' `browser`
 * builds, no Node module; test/support/edge-bundle.ts).
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { TracingConfig } from '../config/tracing.js';
import { GATEWAY_NAME, GATEWAY_VERSION } from '../gateway/product.js';
import { createTracer } from '../observability/tracing/tracer.js';
import type { SpanSender, Tracer } from '../observability/tracing/tracer.js';
import type { SpanSource } from '../observability/tracing/spans-of-record.js';

/** OTLP/HTTP over `fetch`: the serializer's bytes, the protocol's content type, the configured headers; rejects unless the receiver took them (2xx). */
export function fetchSender(config: TracingConfig): SpanSender {
  const json = config.protocol === 'http/json';
  const serializer = json ? JsonTraceSerializer : ProtobufTraceSerializer;
  const headers = { ...config.headers, 'content-type': json ? 'application/json' : 'application/x-protobuf' };
  return async (spans) => {
    const body = serializer.serializeRequest(spans);
    if (body === undefined) throw new Error('the spans could not be serialized');
    const answer = await fetch(config.endpoint!, { method: 'POST', headers, body: body as Uint8Array<ArrayBuffer>, signal: AbortSignal.timeout(config.timeoutMs) });
    await answer.body?.cancel();
    if (!answer.ok) throw new Error(`the receiver answered ${answer.status}`);
  };
}

/** `baseUrls`: each upstream's base URL by its name, for the client spans' URLs. */
export function createEdgeTracer(config: TracingConfig, instance: string, baseUrls: SpanSource['baseUrls']): Tracer | undefined {
  if (!config.enabled || config.endpoint === undefined) return undefined;
  const resource = resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': GATEWAY_VERSION, 'service.instance.id': instance });
  return createTracer({ config, source: { resource, scope: { name: GATEWAY_NAME, version: GATEWAY_VERSION }, baseUrls }, send: fetchSender(config), deferred: true });
}
