/**
 * A real OTLP/HTTP traces receiver on 127.0.0.1 (a free port): it decodes each export with
 * OpenTelemetry's own generated protobuf definitions (the `opentelemetry.proto` root that
 * @opentelemetry/otlp-transformer 0.57 ships, installed as `otlp-proto-decoders`), or reads it as
 * OTLP/JSON, and keeps every span with the request's headers. It can be slow (`delayMs`) or
 * refuse (`status`) as a test says.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
interface Decoded {
  resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: RawSpan[] }> }>;
}
interface KeyValue { key: string; value?: AnyValue }
interface AnyValue { stringValue?: string; boolValue?: boolean; intValue?: number | string | { toNumber(): number }; doubleValue?: number; arrayValue?: { values?: AnyValue[] } }
interface RawSpan { traceId: Uint8Array | string; spanId: Uint8Array | string; parentSpanId?: Uint8Array | string; name: string; kind: number; attributes?: KeyValue[]; status?: { code?: number }; startTimeUnixNano?: unknown; endTimeUnixNano?: unknown }

const root = require('otlp-proto-decoders/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: { decode(bytes: Uint8Array): unknown; toObject(message: unknown, options: object): Decoded } } } } } };
};
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type AttributeValue = string | number | boolean | Array<string | number | boolean>;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Record<string, AttributeValue>;
  readonly statusCode: number;
  readonly resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Every export request's headers and its body as text (what a secret scan reads). */
  readonly exports: Array<{ headers: IncomingHttpHeaders; contentType: string; raw: string }>;
  delayMs: number;
  status: number;
  close(): Promise<void>;
}

function hex(id: Uint8Array | string | undefined): string | undefined {
  if (id === undefined || id.length === 0) return undefined;
  if (typeof id === 'string') return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
  return Buffer.from(id).toString('hex');
}

function valueOf(value: AnyValue | undefined): AttributeValue {
  if (!value) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return typeof value.intValue === 'object' ? value.intValue.toNumber() : Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map((v) => valueOf(v) as string);
  return '';
}

function attributesOf(list: KeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiver['exports'] = [];
  const state = { delayMs: 0, status: 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      const decoded: Decoded = contentType.includes('json')
        ? (JSON.parse(body.toString('utf8')) as Decoded)
        : ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { longs: Number, bytes: Array });
      const raw = contentType.includes('json') ? body.toString('utf8') : JSON.stringify(decoded, (_k, v: unknown) => (Array.isArray(v) && v.every((b) => typeof b === 'number') ? Buffer.from(v as number[]).toString('latin1') : v));
      exports.push({ headers: req.headers, contentType, raw });
      setTimeout(() => {
        if (state.status === 200) {
          for (const resourceSpans of decoded.resourceSpans ?? []) {
            const resource = attributesOf(resourceSpans.resource?.attributes);
            for (const scope of resourceSpans.scopeSpans ?? []) {
              for (const span of scope.spans ?? []) {
                const bytes = (id: unknown) => (Array.isArray(id) ? Uint8Array.from(id as number[]) : (id as Uint8Array | string | undefined));
                spans.push({
                  traceId: hex(bytes(span.traceId))!,
                  spanId: hex(bytes(span.spanId))!,
                  parentSpanId: hex(bytes(span.parentSpanId)),
                  name: span.name,
                  kind: span.kind,
                  attributes: attributesOf(span.attributes),
                  statusCode: span.status?.code ?? 0,
                  resource,
                });
              }
            }
          }
        }
        res.writeHead(state.status, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
        res.end(contentType.includes('json') ? '{}' : '');
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: OtlpReceiver = {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    exports,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    get status() {
      return state.status;
    },
    set status(code: number) {
      state.status = code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
