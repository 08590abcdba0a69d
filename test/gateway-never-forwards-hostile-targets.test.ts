/**
 * No hostile path, foreign host or `..` segment reaches any upstream: every case is sent raw to a
 * real gateway whose upstream records what it receives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';

let upstream: RecordingUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  gateway = await startTestGateway(upstream.origin);
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('hostile targets', () => {
  it.each([
    '/review/../grocerylist?api_key=k',
    '/review/%2e%2e/grocerylist?api_key=k',
    '/review/%2E%2e/%2e%2e/etc/passwd',
    '/v1/./recipes?api_key=k',
    '/review/1%2F..%2F..%2Fadmin',
    '/recipes%00?api_key=k',
    '/review/.%2E/x',
  ])('%s is refused with a legacy 400 and never forwarded', async (target) => {
    const before = upstream.requests.length;
    const res = await send(gateway.origin, { target, headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers['x-gateway-error']).toBe('bad-target');
    expect(res.json()).toMatchObject({ Message: expect.stringContaining('refused') });
    expect(upstream.requests.length).toBe(before);
  });

  it('forwards //host/x as a path on the configured upstream, never to that host', async () => {
    const res = await send(gateway.origin, { target: '//evil.example/x?api_key=k' });
    expect(res.status).toBe(200);
    const last = upstream.requests.at(-1);
    expect(last?.target).toBe('/evil.example/x?api_key=k');
    expect(last?.headers.host).toBe(new URL(upstream.origin).host);
  });

  it('refuses an absolute-form target naming a foreign host with 421, without contacting it', async () => {
    const foreign = await startRecordingUpstream();
    try {
      const before = upstream.requests.length;
      const res = await send(gateway.origin, { target: `${foreign.origin}/recipes?api_key=k`, headers: { accept: 'application/json' } });
      expect(res.status).toBe(421);
      expect(foreign.requests).toHaveLength(0);
      expect(upstream.requests.length).toBe(before);
    } finally {
      await foreign.close();
    }
  });

  it('refuses user-info in an absolute-form authority', async () => {
    const res = await send(gateway.origin, { target: 'http://api.bigoven.com@evil.example/recipes' });
    expect(res.status).toBe(421);
  });

  it('accepts an absolute-form target naming a legacy host and forwards it in origin-form', async () => {
    const res = await send(gateway.origin, {
      target: 'http://api.bigoven.com/recipes?title_kw=soup&api_key=k',
      headers: { host: 'api.bigoven.com' },
    });
    expect(res.status).toBe(200);
    const last = upstream.requests.at(-1);
    expect(last?.target).toBe('/recipes?title_kw=soup&pg=1&rpp=10&api_key=k');
    expect(last?.headers['x-forwarded-host']).toBe('api.bigoven.com');
    expect(gateway.records.at(-1)).toMatchObject({ operation: 'recipes.search', absoluteForm: true });
  });

  it('never lets the Host header choose the upstream', async () => {
    const res = await send(gateway.origin, { target: '/recipes?api_key=k', headers: { host: 'evil.example' } });
    expect(res.status).toBe(200);
    expect(upstream.requests.at(-1)?.headers.host).toBe(new URL(upstream.origin).host);
  });
});

describe('with acceptedHosts configured', () => {
  it('refuses a Host that is neither a legacy host nor accepted, with 421, without forwarding', async () => {
    const strict = await startTestGateway(upstream.origin, { acceptedHosts: ['gateway.example'] });
    try {
      const before = upstream.requests.length;
      const refused = await send(strict.origin, { target: '/recipes?api_key=k', headers: { host: 'evil.example' } });
      expect(refused.status).toBe(421);
      expect(upstream.requests.length).toBe(before);
      const legacyHost = await send(strict.origin, { target: '/recipes?api_key=k', headers: { host: 'api.bigoven.com:8080' } });
      expect(legacyHost.status).toBe(200);
      const own = await send(strict.origin, { target: '/recipes?api_key=k', headers: { host: 'gateway.example' } });
      expect(own.status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
