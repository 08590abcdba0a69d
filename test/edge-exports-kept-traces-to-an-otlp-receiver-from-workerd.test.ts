/**
 * On workerd, kept traces are exported over OTLP/HTTP in the request's deferred work (issue 48):
 * the bundled edge entry (bundled as Wrangler bundles it) in a real workerd (miniflare), with
 * `observability.tracing` on at a head ratio of 1, in front of a recording legacy upstream; a real
 * OTLP receiver on loopback decodes what arrives with OpenTelemetry's own definitions. For each
 * protocol (protobuf, JSON): the server span is named by the operation and continues the client's
 * trace, its one client span has the span id the legacy upstream received in its `traceparent`,
 * the export carries the configured headers, and neither the client's api key nor the receiver's
 * key appears in the spans. A receiver that refuses costs the client nothing: the answer is the same.
 */
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import type { OtlpReceiver } from './support/otlp-receiver.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { waitFor } from './support/wait.js';
import { startEdgeWorker } from './support/workerd.js';

const KEY = 'edge-client-api-key-1234';
const RECEIVER_KEY = 'edge-receiver-key-not-for-spans';
const SERVER = 2;
const CLIENT = 3;

let legacy: RecordingUpstream;
let receiver: OtlpReceiver;
const workers: Miniflare[] = [];

beforeAll(async () => {
  legacy = await startRecordingUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"ResultCount":0,"Results":[]}');
  });
  receiver = await startOtlpReceiver();
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((mf) => mf.dispose()));
  await Promise.all([legacy?.close(), receiver?.close()]);
});

async function startWorker(protocol: 'http/protobuf' | 'http/json'): Promise<string> {
  const config = {
    upstreams: { legacy: { baseUrl: legacy.origin } },
    observability: { hashKey: 'edge-trace-test-hash-key', tracing: { enabled: true, protocol, endpoint: receiver.url, headers: { 'x-receiver-key': RECEIVER_KEY }, headRatio: 1 } },
  };
  const worker = await startEdgeWorker(config);
  workers.push(worker.mf);
  return worker.origin;
}

describe.each(['http/protobuf', 'http/json'] as const)('a Worker exporting over %s', (protocol) => {
  it("exports each request's server span and its upstream call's client span, with the span id the upstream received", async () => {
    const origin = await startWorker(protocol);
    const clientTrace = (protocol === 'http/json' ? 'a' : 'b').repeat(32);
    const answer = await fetch(`${origin}/recipes?title_kw=soup&api_key=${KEY}`, { headers: { accept: 'application/json', traceparent: `00-${clientTrace}-00f067aa0ba902b7-01` } });
    expect(answer.status).toBe(200);
    await answer.text();
    const of = () => receiver.spans.filter((s) => s.traceId === clientTrace);
    await waitFor(() => of().some((s) => s.kind === SERVER) && of().some((s) => s.kind === CLIENT), 10_000, `the spans of ${clientTrace}`);
    const server = of().find((s) => s.kind === SERVER)!;
    const client = of().find((s) => s.kind === CLIENT)!;
    expect(server.name).toBe('recipes.search');
    expect(server.parentSpanId).toBe('00f067aa0ba902b7');
    expect(client.parentSpanId).toBe(server.spanId);
    const sent = legacy.requests.map((r) => String(r.headers['traceparent']).split('-')).filter(([, trace]) => trace === clientTrace);
    expect(sent.map(([, , span]) => span)).toEqual([client.spanId]);
    const exported = receiver.exports.filter((e) => e.raw.includes('recipes.search') && e.contentType.includes(protocol === 'http/json' ? 'json' : 'protobuf'));
    expect(exported.length).toBeGreaterThan(0);
    for (const e of exported) {
      expect(e.headers['x-receiver-key']).toBe(RECEIVER_KEY);
      expect(e.raw).not.toContain(KEY);
      expect(e.raw).not.toContain(RECEIVER_KEY);
    }
  }, 60_000);
});

it('answers the same while the receiver refuses every export', async () => {
  const origin = await startWorker('http/protobuf');
  receiver.status = 503;
  try {
    const answer = await fetch(`${origin}/recipes?title_kw=soup&api_key=${KEY}`, { headers: { accept: 'application/json' } });
    expect([answer.status, await answer.text()]).toEqual([200, '{"ResultCount":0,"Results":[]}']);
  } finally {
    receiver.status = 200;
  }
}, 60_000);
