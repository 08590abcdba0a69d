/**
 * A failure of the gateway's own code while answering (a bug, a runtime binding that throws) is
 * answered 500 in the legacy error shape and recorded as `internal`, whether it happens before
 * the first await or after the request body was read; the process goes on serving.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { parseConfig } from '../src/config/schema.js';
import { edgeRuntime } from '../src/edge/runtime.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import type { UpstreamClient } from '../src/upstream/types.js';

const legacy: UpstreamClient = {
  name: 'legacy',
  request: () => Promise.resolve({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: new TextEncoder().encode('{}') }),
  stats: () => ({ connected: 0, idle: 0, inFlight: 0, waiting: 0 }),
  close: async () => {},
};

function gatewayWhoseSignalThrows(): { app: ReturnType<typeof createGatewayApp>; records: RequestRecord[] } {
  const parsed = parseConfig({ upstreams: { legacy: { baseUrl: 'http://legacy.invalid' } }, observability: { log: { enabled: true, destination: '/dev/null' } } });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const records: RequestRecord[] = [];
  const app = createGatewayApp({
    config: parsed.config,
    upstreams: { legacy },
    runtime: {
      ...edgeRuntime,
      clientSignal: () => {
        throw new Error('binding failed');
      },
    },
    onRecord: (record) => void records.push(record),
  });
  return { app, records };
}

describe('a failure of the gateway itself', () => {
  it('is answered 500 in the legacy shape and recorded as internal, before or after reading a body', async () => {
    const { app, records } = gatewayWhoseSignalThrows();
    const quiet = console.error;
    console.error = () => {};
    try {
      const read = await app.request('http://gw.example/review/12?api_key=k', { headers: { accept: 'application/json' } });
      const body = JSON.stringify({ rid: 1, rating: 5, makeagain: 'yes', message: 'Good soup.' });
      const written = await app.request('http://gw.example/reviews?api_key=k', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'content-length': String(body.length), authorization: `Basic ${btoa('alice:pw')}` },
        body,
      });
      for (const answer of [read, written]) {
        expect(answer.status).toBe(500);
        expect(answer.headers.get('x-gateway-error')).toBe('internal');
        expect(await answer.json()).toEqual({ Message: 'The gateway failed to answer this request.' });
      }
    } finally {
      console.error = quiet;
    }
    expect(records.map((record) => [record.operation, record.status, record.error])).toEqual([
      ['reviews.get', 500, 'internal'],
      ['reviews.create', 500, 'internal'],
    ]);
  });

  it('answers an XML client (the legacy default, no Accept) in the XML error shape', async () => {
    const { app } = gatewayWhoseSignalThrows();
    const quiet = console.error;
    console.error = () => {};
    try {
      const answer = await app.request('http://gw.example/review/12?api_key=k');
      expect(answer.status).toBe(500);
      expect(answer.headers.get('content-type')).toMatch(/xml/);
      expect(await answer.text()).toContain('<Message>The gateway failed to answer this request.</Message>');
    } finally {
      console.error = quiet;
    }
  });
});
