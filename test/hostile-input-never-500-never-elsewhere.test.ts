/**
 * Property-based hostile input: at least 10,000 generated legacy requests per run (fast-check,
 * a new seed every run; a failure prints its seed and the shrunk request) through the core app
 * (`createGatewayApp`, cache on) in legacy mode and in api2 mode, answered by the real sandbox
 * backends in process. Requests are valid, malformed, mis-encoded, with duplicated parameters,
 * CR/LF and NUL in values, unicode, huge numbers, broken bodies, odd methods and hop-by-hop tricks.
 *
 * For every request:
 * - never a 500 (nor any 5xx: both sandboxes are healthy), and the app never throws;
 * - every error answer (4xx) has the legacy error shape, JSON or XML as asked;
 * - every upstream call goes to a configured upstream client, with an origin-form target free of
 *   dot segments, `//`, raw control characters and the client's Host, and with no hop-by-hop
 *   header nor any header the client named in `Connection`;
 * - a GET or HEAD never causes a write upstream; any other method causes at most one, and one
 *   request's calls all go to one upstream;
 * and during the whole run no TCP connection is opened at all (everything is in process), so
 * nothing outside the configured upstreams can have been contacted.
 */
import { testRuntime } from './support/test-runtime.js';
import { CATALOGUE_ROUTES } from '../src/catalogue/route-table.js';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { OPERATIONS } from '../src/catalogue/operations.js';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import type { RuntimeBindings } from '../src/gateway/env.js';
import { createApi2SandboxApp } from '../src/sandbox/api2-app.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { createLegacySandboxApp } from '../src/sandbox/legacy-app.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { MAPPED_ROUTES } from './support/api2-mode.js';
import { inProcessUpstream, isLegacyError } from './reliability-support.js';
import type { UpstreamCall } from './reliability-support.js';

/** At least 10,000 per run; HOSTILE_RUNS=100000 for a deeper run by hand. */
const RUNS = Math.max(10_000, Number(process.env['HOSTILE_RUNS'] ?? 0) || 0);

const calls: UpstreamCall[] = [];

const runtime: RuntimeBindings = testRuntime();

function gatewayApp(routes: GatewayConfigInput['routes']) {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://legacy.internal:8080' }, api2: { baseUrl: 'https://api2.internal' } },
    legacyHosts: ['api.bigoven.com'],
    routes,
    observability: { log: { enabled: false } },
    // One failing request must not change how the next is answered (and a shrunk counterexample
    // must fail on its own): no breaker.
    traffic: { breakers: { api2: { enabled: false } } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const upstreams = {
    legacy: inProcessUpstream('legacy', createLegacySandboxApp(new LegacyStore()).fetch, calls),
    api2: inProcessUpstream('api2', createApi2SandboxApp(new Api2Store()).fetch, calls),
  };
  return createGatewayApp({ config: parsed.config, upstreams, runtime });
}

// ---------------------------------------------------------------------------------------------
// Generators

/** What a header value with unicode looks like on the wire (UTF-8 bytes read as latin1), minus NUL, CR and LF. */
const utf8AsLatin1 = (text: string): string => Buffer.from(text.replace(/[\0\r\n]/g, ''), 'utf8').toString('latin1');

const HUGE = ['99999999999999999999999999', '1e309', '-1', '0', '-0', '1.5', 'NaN', 'Infinity', '0x10', '1'.repeat(400), '00000000001', '9007199254740993'];
const GUIDS = ['0b0c9a8e-1f2d-4c3b-9a8e-1f2d4c3b9a8e', '00000000-0000-0000-0000-000000000000', 'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ'];
const HOSTILE_SEGMENTS = ['%2e%2e', '%2E.', '.%2e', '%2f', '%5C', '%00', '%0d%0a', '%ZZ', '%', '%C0%AE%C0%AE', 'r%C3%A9cipes', '%EF%BC%8E%EF%BC%8E', ';x=1', '..;', '*', '~', "'", '%22%3E%3Cscript%3E'];
const PARAM_NAMES = [...new Set(OPERATIONS.flatMap((op) => op.params.map((p) => p.name)).filter((n) => n !== 'id'))];
const KEYS = ['sandbox-free-key', 'sandbox-paid-key', 'sandbox-free-key', 'unknown-key', ''];
const USERS = ['alice:alice-pass', 'bob:bob-pass', 'alice:wrong', 'ünïcødé:pässwörd', ':', 'alice', 'a:b:c'];

const idValue = fc.oneof(
  fc.integer({ min: 1, max: 2000 }).map(String),
  fc.constantFrom(...HUGE, ...GUIDS),
  fc.constantFrom(...HOSTILE_SEGMENTS),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const pathArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...OPERATIONS.flatMap((op) => op.forms.map((form) => form.template)), '/recipe/{id}', '/keys/{id}/x', '/', '/healthz', '/metrics', '/admin/config'),
    idValue,
    fc.constantFrom('', '', '', '/v1', '/V2', '/v0', '/v99999999999999999999', '/v1/v1', '/vx'),
    fc.constantFrom('lower', 'upper', 'as-is', 'as-is'),
    fc.constantFrom('', '', '/', '//', '/%2e%2e', '/..;'),
    fc.constantFrom('', '', '', '/', '//', '//evil.example', '/%2F%2Fevil.example', '/%5C%5Cevil.example'),
  )
  .map(([template, id, prefix, letterCase, suffix, lead]) => {
    let path = template.replace('{id}', id);
    if (letterCase === 'upper') path = path.toUpperCase();
    else if (letterCase === 'lower') path = path.toLowerCase();
    return `${lead}${prefix}${path}${suffix}`.replace(/^(?!\/)/, '/');
  });

const valueArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('1', '5', '12', 'soup', 'chicken', 'yes', 'no', 'notmake', 'italian', 'garlic,onion', 'main dish', '1 lb', '0', '50', '51') },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.constantFrom('\r\nX-Injected: 1', '%0d%0aX-Injected:%201', '\u0000', '%00', 'a\u2028b', '\u202e', '"><script>', "' OR 1=1 --", '../../etc/passwd', '%', '%E0%A4%A', '+', '&&', '=', ',,,', ' , ') },
  { weight: 1, arbitrary: fc.string({ minLength: 4000, maxLength: 5000 }) },
);

const nameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PARAM_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom('api_key', 'API_KEY', 'Api_Key', 'api%5Fkey', 'api_key[]', 'RID', 'Rating') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

/** How a pair is written in the query: encoded, raw (malformed escapes survive), or with no `=`. */
const pairArb = fc.tuple(nameArb, valueArb, fc.constantFrom('encoded', 'encoded', 'raw', 'bare'));

/**
 * api_key values a header cannot carry (CR, LF, NUL, past U+00FF), forwarded to api2 in the
 * X-BigOven-API-Key header: once a known defect kept out of this generator, now fixed and
 * generated on purpose (the gateway must refuse them as bad input, never 502).
 */
const HEADER_UNSAFE_KEYS = ['sandbox-free-key\r\nX-Injected: 1', 'sandbox\u0000free', 'clé-ünïcødé-€', 'key\u2028x', '\u202ekey'];

const queryArb = fc
  .tuple(fc.array(pairArb, { maxLength: 8 }), fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...HEADER_UNSAFE_KEYS) }), fc.constantFrom('first', 'last', 'none', 'twice'))
  .map(([pairs, key, where]) => {
    const parts = pairs.map(([name, rawValue, way]) => {
      const value = rawValue;
      const how = /^api(_|%5f)key/i.test(name) ? 'encoded' : way;
      if (how === 'bare') return encodeURIComponent(name);
      if (how === 'raw') return `${name.replace(/[#&\s]/g, '')}=${value.replace(/[#&]/g, '')}`;
      return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    });
    const keyPart = `api_key=${encodeURIComponent(key)}`;
    if (where === 'first') parts.unshift(keyPart);
    else if (where === 'last') parts.push(keyPart);
    else if (where === 'twice') parts.push(keyPart, 'api_key=unknown-key');
    return parts.join('&');
  });

const authorizationArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...USERS).map((user) => `Basic ${Buffer.from(user, 'utf8').toString('base64')}`) },
  { weight: 1, arbitrary: fc.constantFrom('Basic', 'Basic ', 'Basic !!!notbase64', 'basic YWxpY2U6YWxpY2UtcGFzcw==', 'Bearer sandbox-free-key', `Basic ${'A'.repeat(3000)}`, 'Digest x') },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(utf8AsLatin1) },
);

const HOP_TARGETS = ['accept', 'authorization', 'content-type', 'host', 'x-forwarded-for', 'x-forwarded-host', 'cache-control', 'if-none-match', 'accept-encoding', 'keep-alive', 'x-request-id', 'traceparent', 'tracestate', 'user-agent', 'close'];

const headersArb = fc
  .record(
    {
      accept: fc.constantFrom('application/json', 'application/xml', 'text/html', '*/*', 'application/json;q=0', 'APPLICATION/JSON', ''),
      'content-type': fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', ''),
      authorization: authorizationArb,
      connection: fc.subarray(HOP_TARGETS, { minLength: 1 }).map((names) => names.join(', ')),
      'x-forwarded-for': fc.constantFrom('6.6.6.6', 'evil', '::1, 10.0.0.1'),
      'x-forwarded-host': fc.constantFrom('evil.example', '127.0.0.1:1'),
      'x-forwarded-proto': fc.constantFrom('https', 'gopher'),
      'cache-control': fc.constantFrom('no-cache', 'max-age=0', 'no-store'),
      'if-none-match': fc.constantFrom('*', '"x"', 'W/"1"'),
      'accept-encoding': fc.constantFrom('gzip', 'br, gzip', 'identity', 'x'),
      te: fc.constantFrom('trailers', 'chunked'),
      upgrade: fc.constantFrom('websocket', 'h2c'),
      'proxy-authorization': fc.constantFrom('Basic eDp5'),
      host: fc.constantFrom('api.bigoven.com', 'evil.example', '127.0.0.1:1', 'localhost'),
      'x-request-id': fc.constantFrom('client-id-1', 'id with spaces', ''),
      traceparent: fc.constantFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '00-zz-bad-01'),
      tracestate: fc.constantFrom('vendor=abc', 'x=1,y=2'),
      'user-agent': fc.constantFrom('bigoven-client/1.0', 'Mozilla/5.0'),
      'x-unicode': fc.string({ maxLength: 20, unit: 'grapheme' }).map(utf8AsLatin1),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== '')));

/**
 * JSON body keys named like members of Object.prototype (`constructor`, `__proto__`,
 * `toString`…), holding objects or arrays: once a known defect (a 500) kept out of this
 * generator, now fixed and generated on purpose.
 */
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
const bodyKeyArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PARAM_NAMES) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
);

const jsonBodyArb = fc
  .dictionary(bodyKeyArb, fc.oneof(valueArb, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(1e308, -1, 0, 1.5, 2 ** 53 + 1, true, null)), { maxKeys: 8 })
  .map((record) => JSON.stringify(record));

const bodyArb: fc.Arbitrary<string | Uint8Array | null> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: jsonBodyArb },
  { weight: 2, arbitrary: fc.constantFrom('{', '{"rid":', '[]', 'null', '"x"', '{"rid":1e400}', '{"rid":1,"rid":2}', '{"__proto__":"x","rid":"1"}', '\u0000', '') },
  { weight: 2, arbitrary: fc.array(pairArb, { maxLength: 6 }).map((pairs) => pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
);

const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'FOO'] as const;

interface Generated {
  readonly mode: 'legacy' | 'api2';
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | null;
}

/** Anything at all: odd methods, hostile paths, junk parameters, headers and bodies. */
const chaoticArb: fc.Arbitrary<Generated> = fc.record({
  mode: fc.constantFrom('legacy' as const, 'api2' as const),
  method: fc.constantFrom(...METHODS),
  path: pathArb,
  query: queryArb,
  headers: headersArb,
  body: bodyArb,
});

/** A value that passes the legacy rule of a parameter. */
function validValue(name: string): fc.Arbitrary<string> {
  switch (name) {
    case 'rid':
      return fc.integer({ min: 1, max: 1500 }).map(String);
    case 'rating':
      return fc.integer({ min: 1, max: 5 }).map(String);
    case 'makeagain':
      return fc.constantFrom('yes', 'no', 'notmake');
    case 'totaltime':
    case 'activetime':
      return fc.integer({ min: 0, max: 300 }).map(String);
    case 'pg':
      return fc.integer({ min: 1, max: 5 }).map(String);
    case 'rpp':
      return fc.integer({ min: 1, max: 50 }).map(String);
    case 'include_primarycat':
      return fc.constantFrom('dessert', 'main dish', 'soup', 'salad');
    case 'cuisine':
      return fc.constantFrom('italian', 'Mexican', 'thai');
    case 'include_ing':
    case 'exclude_ing':
      return fc.constantFrom('garlic', 'onion, garlic', 'peanut');
    case 'photos':
      return fc.constantFrom('0', '1');
    case 'quantity':
      return fc.constantFrom('1 lb', '2', '3 cans');
    case 'title_kw':
    case 'any_kw':
      return fc.oneof(fc.constantFrom('soup', 'chicken', 'pie', 'zzz'), fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }));
    default:
      return fc.oneof(fc.constantFrom('flour', 'Lovely', 'crisp'), fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }));
  }
}

const PAID = new Set(['include_primarycat', 'cuisine', 'include_ing', 'exclude_ing', 'photos']);

type Mutation =
  | { kind: 'dup' | 'set' | 'junk'; name: string; value: string }
  | { kind: 'connection'; names: string[] }
  | { kind: 'drop-key' | 'drop-user' | 'upper' | 'slash' | 'bad-user' };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('dup' as const, 'set' as const), name: fc.constantFrom(...PARAM_NAMES), value: valueArb }),
  fc.record({ kind: fc.constant('junk' as const), name: nameArb, value: valueArb }),
  fc.record({ kind: fc.constant('connection' as const), names: fc.subarray(HOP_TARGETS, { minLength: 1 }) }),
  fc.record({ kind: fc.constantFrom('drop-key' as const, 'drop-user' as const, 'upper' as const, 'slash' as const, 'bad-user' as const) }),
);

/** A valid request of one operation, in one of its forms and carriages, then 0 to 2 mutations. */
const validArb: fc.Arbitrary<Generated> = fc.constantFrom(...OPERATIONS).chain((op) => {
  const inputs = op.params.filter((param) => param.in !== 'path');
  const groceryId = fc.oneof(fc.integer({ min: 1, max: 40 }).map(String), fc.constantFrom(...GUIDS));
  return fc
    .record({
      mode: fc.constantFrom('legacy' as const, 'api2' as const),
      form: fc.constantFrom(...op.forms),
      id: op.resource === 'grocery' ? groceryId : fc.integer({ min: 1, max: 60 }).map(String),
      values: fc.tuple(...inputs.map((param) => (param.required ? validValue(param.name) : fc.option(validValue(param.name), { nil: undefined })))),
      carriage: fc.constantFrom('query', 'json', 'form'),
      user: fc.constantFrom('alice:alice-pass', 'bob:bob-pass'),
      accept: fc.constantFrom('application/json', 'application/xml', ''),
      prefix: fc.constantFrom('', '', '/v1', '/V3'),
      mutations: fc.array(mutationArb, { maxLength: 2 }),
    })
    .map((g): Generated => {
      const params = new Map<string, string>();
      inputs.forEach((param, i) => {
        const value = g.values[i];
        if (value !== undefined) params.set(param.name, value);
      });
      const paid = [...params.keys()].some((name) => PAID.has(name));
      let key: string | null = paid ? 'sandbox-paid-key' : 'sandbox-free-key';
      const headers: Record<string, string> = { authorization: `Basic ${Buffer.from(g.user).toString('base64')}` };
      if (g.accept) headers['accept'] = g.accept;
      let path = g.prefix + g.form.template.replace('{id}', g.id);
      const extra: string[] = [];
      for (const m of g.mutations) {
        if (m.kind === 'dup' || m.kind === 'junk') extra.push(`${encodeURIComponent(m.name)}=${encodeURIComponent(m.value)}`);
        else if (m.kind === 'set') params.set(m.name, m.value);
        else if (m.kind === 'connection') headers['connection'] = m.names.join(', ');
        else if (m.kind === 'drop-key') key = null;
        else if (m.kind === 'drop-user') delete headers['authorization'];
        else if (m.kind === 'bad-user') headers['authorization'] = `Basic ${Buffer.from('alice:wrong').toString('base64')}`;
        else if (m.kind === 'upper') path = path.toUpperCase();
        else path = `${path}/`;
      }
      const writes = g.form.method !== 'GET';
      const inBody = writes && g.carriage !== 'query';
      const encoded = [...params].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
      const query = [...(inBody ? [] : encoded), ...extra, ...(key ? [`api_key=${key}`] : [])].join('&');
      let body: string | null = null;
      if (inBody && g.carriage === 'json') {
        body = JSON.stringify(Object.fromEntries(params));
        headers['content-type'] = 'application/json';
      } else if (inBody) {
        body = encoded.join('&');
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      return { mode: g.mode, method: g.form.method, path, query, headers, body };
    });
});

const requestArb: fc.Arbitrary<Generated> = fc.oneof({ weight: 1, arbitrary: chaoticArb }, { weight: 1, arbitrary: validArb });

// ---------------------------------------------------------------------------------------------

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host'];
// eslint-disable-next-line no-control-regex
// The gateway's own trail goes on every upstream call (src/request/trace-context.ts): its
// request id and a traceparent with a span id of its own. A client header named in Connection is
// read from the end-to-end view only, so such a header never lends the trail its value.
const GATEWAY_RENDERED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'accept', 'accept-encoding', 'x-request-id', 'traceparent'];
const CONTROL = /[\u0000-\u001f\u007f]/;

let apps: { legacy: ReturnType<typeof gatewayApp>; api2: ReturnType<typeof gatewayApp> };
const statuses = new Map<number, number>();
let connects = 0;
let upstreamCalls = 0;

beforeAll(() => {
  apps = { legacy: gatewayApp({}), api2: gatewayApp(MAPPED_ROUTES) };
});
afterAll(() => {
  vi.restoreAllMocks();
});

function buildRequest(g: Generated): Request {
  const url = `http://api.bigoven.com${g.path}${g.query ? `?${g.query}` : ''}`;
  const headers: Record<string, string> = { ...g.headers };
  const init: RequestInit = { method: g.method, headers };
  if (g.body !== null && g.method !== 'GET' && g.method !== 'HEAD') {
    init.body = g.body as BodyInit;
    // As it arrives over HTTP: framed by Content-Length (a Request built here has none).
    headers['content-length'] = String(typeof g.body === 'string' ? Buffer.byteLength(g.body) : g.body.byteLength);
  }
  return new Request(url, init);
}

async function check(g: Generated): Promise<void> {
  const request = buildRequest(g);
  const from = calls.length;
  const response = await apps[g.mode].fetch(request);
  const body = await response.text();
  const mine = calls.slice(from);
  upstreamCalls += mine.length;
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const label = `${g.method} ${g.path}?${g.query} → ${response.status} ${body.slice(0, 200)}`;

  expect(response.status, label).toBeLessThan(500);
  if (response.status >= 400 && g.method !== 'HEAD') {
    expect(isLegacyError(response.headers.get('content-type') ?? undefined, body), `legacy error shape: ${label}`).toBe(true);
  }

  const named = new Set((g.headers['connection'] ?? '').split(',').map((n) => n.trim().toLowerCase()));
  const catalogued = (target: string) => CATALOGUE_ROUTES.match(g.method, target.split('?')[0] ?? '') !== null;
  for (const call of mine.filter((c) => c.upstream === 'legacy' && catalogued(c.target))) {
    expect(['application/json', 'application/xml'], `rendered Accept: ${label}`).toContain(call.headers['accept']);
    expect(['gzip', 'identity'], `rendered Accept-Encoding: ${label}`).toContain(call.headers['accept-encoding']);
  }
  for (const call of mine) {
    const [path = ''] = call.target.split('?');
    expect(call.target.startsWith('/') && !call.target.startsWith('//'), `origin-form target: ${call.target}`).toBe(true);
    expect(CONTROL.test(call.target), `no control characters: ${JSON.stringify(call.target)}`).toBe(false);
    for (const segment of path.split('/')) {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // kept encoded: not a dot segment
      }
      expect(decoded === '.' || decoded === '..', `no dot segment: ${call.target}`).toBe(false);
    }
    for (const name of Object.keys(call.headers)) {
      expect(HOP_BY_HOP.includes(name), `hop-by-hop ${name} forwarded`).toBe(false);
      // The gateway sets GATEWAY_RENDERED itself: those are never the client's copy, whatever its
      // Connection header names.
      if (call.upstream === 'legacy') expect(named.has(name) && !GATEWAY_RENDERED.includes(name), `${name} named in Connection forwarded`).toBe(false);
      const clientValue = g.headers[name];
      if (call.upstream === 'legacy' && (name === 'x-request-id' || name === 'traceparent') && named.has(name) && clientValue !== undefined && clientValue.trim() !== '') {
        expect(call.headers[name], `the client's ${name}, named in Connection, lent its value`).not.toBe(clientValue.trim());
      }
      expect(CONTROL.test(call.headers[name] ?? ''), `control characters in ${name}`).toBe(false);
    }
    if (call.upstream === 'legacy') {
      expect(call.headers['x-forwarded-for'], 'X-Forwarded-For is the peer, whatever the client claims').toBe('127.0.0.1');
      expect(call.headers['x-forwarded-proto']).toBe('http');
    }
  }
  const writes = mine.filter((call) => call.method !== 'GET' && call.method !== 'HEAD');
  if (g.method === 'GET' || g.method === 'HEAD') expect(writes, `a ${g.method} never writes upstream`).toHaveLength(0);
  expect(writes.length, `at most one write upstream: ${label}`).toBeLessThanOrEqual(1);
  expect(new Set(mine.map((call) => call.upstream)).size, 'one upstream per request').toBeLessThanOrEqual(1);
}

describe('hostile legacy requests, generated', () => {
  it(`${RUNS} requests: never a 5xx, always the legacy error shape, only the configured upstreams, no connection opened`, { timeout: Math.max(120_000, RUNS * 12) }, async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket) {
      connects += 1;
      throw new Error('no connection may be opened: everything is in process');
    });
    const internal = vi.spyOn(console, 'error');
    try {
      await fc.assert(fc.asyncProperty(requestArb, check), { numRuns: RUNS, endOnFailure: false });
    } finally {
      connect.mockRestore();
    }
    const unhandled = internal.mock.calls.filter((args) => String(args[0]).includes('unhandled gateway error'));
    // Restored before any check: the worker runs other files after this one (isolate: false).
    internal.mockRestore();
    expect(connects).toBe(0);
    expect(unhandled).toEqual([]);
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(`hostile input: ${total} requests, ${upstreamCalls} upstream calls, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    expect(total).toBeGreaterThanOrEqual(RUNS);
    // The generator reaches deep: answers of every kind, and thousands of upstream calls.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 20);
    expect(statuses.get(403) ?? 0).toBeGreaterThan(RUNS / 50);
    expect(upstreamCalls).toBeGreaterThan(RUNS / 4);
  });
});
