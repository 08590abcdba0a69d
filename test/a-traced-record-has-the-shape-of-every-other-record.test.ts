/**
 * Issue 48: with traces exported at a 1 % head ratio the pass-through cost 4-13 % more CPU a
 * request than export off, though the path's own work and the export were each under 1 %. A kept
 * trace's record was a copy with one more member (`traced`): one record in a hundred had a hidden
 * class of its own, and every reader of records (the usage line's field readers, the live
 * counters, the metrics) turned polymorphic. The record now lists `traced` from the start and the
 * verdict is set on the record itself. Proven here by what every reader sees: a record whose trace
 * is kept has the same fields, in the same order, as one whose trace is not, and is the very object
 * made at the answer, not a copy.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { parseConfig } from '../src/config/schema.js';
import { edgeRuntime } from '../src/edge/runtime.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { createTracer } from '../src/observability/tracing/tracer.js';
import type { Tracer } from '../src/observability/tracing/tracer.js';
import type { UpstreamClient } from '../src/upstream/types.js';

const legacy: UpstreamClient = {
  name: 'legacy',
  request: (request) =>
    Promise.resolve({
      status: request.target.startsWith('/review/500') ? 503 : 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: new TextEncoder().encode('{}'),
    }),
  stats: () => ({ connected: 0, idle: 0, inFlight: 0, waiting: 0 }),
  close: async () => {},
};

describe('with traces exported', () => {
  it('a record whose trace is kept has the fields of one whose trace is not, in the same order', async () => {
    const parsed = parseConfig({
      upstreams: { legacy: { baseUrl: 'http://legacy.invalid' } },
      observability: { log: { enabled: true, destination: '/dev/null' }, tracing: { enabled: true, endpoint: 'http://otlp.invalid/v1/traces', headRatio: 0 } },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const exporting = createTracer({
      config: parsed.config.observability.tracing,
      send: () => Promise.resolve(),
      source: { resource: {} as never, scope: { name: 'test', version: '0' }, baseUrls: {} },
    });
    // The records the tracer is handed: the sinks must get these very objects, not copies.
    const taken: RequestRecord[] = [];
    const tracer: Tracer = { ...exporting, take: (record, log, keepAlive) => (taken.push(record), exporting.take(record, log, keepAlive)) };
    const records: RequestRecord[] = [];
    const app = createGatewayApp({ config: parsed.config, upstreams: { legacy }, runtime: edgeRuntime, tracer, onRecord: (record) => void records.push(record) });
    const ask = (target: string) => app.request(`http://gw.example${target}`, { headers: { accept: 'application/json' } });

    expect((await ask('/review/12?api_key=k')).status).toBe(200);
    expect((await ask('/review/500?api_key=k')).status).toBe(503);
    expect((await ask('/review/abc?api_key=k')).status).toBe(400);

    const [ordinary, failed, refused] = records as [RequestRecord, RequestRecord, RequestRecord];
    expect([ordinary.traced, failed.traced, refused.traced]).toEqual([undefined, 'failed', 'refused']);
    expect(Object.keys(failed)).toEqual(Object.keys(ordinary));
    expect(Object.keys(refused)).toEqual(Object.keys(ordinary));
    // The verdict is set on the record made at the answer: a copy would be a hidden class of its own.
    expect(taken).toHaveLength(3);
    records.forEach((record, i) => expect(record).toBe(taken[i]));
  });
});
