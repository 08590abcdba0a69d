/**
 * The deprecation signal on real requests through a started gateway in front of the sandbox
 * backends: `Deprecation` is an RFC 9651 sf-date (RFC 9745), `Sunset` an RFC 9110 IMF-fixdate
 * (RFC 8594), `Link` a list of RFC 8288 link-values with `rel="deprecation"` and `rel="sunset"`,
 * each naming the configured date and page; on every answer to a catalogued operation whichever
 * side answered (api2 too) and errors too, never on an uncatalogued call; appended to a `Link` the
 * legacy answer already has (one line or several), replacing an upstream's own `Deprecation`; and
 * the usage record says which signal the client was given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { createSandboxStores } from '../src/sandbox/shared-stores.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { imfFixdateSeconds, parseLinkHeader, sfDateSeconds } from './support/rfc-grammars.js';

const KEY = 'sandbox-free-key';
const DEPRECATION_PAGE = 'https://developer.example.com/legacy/deprecation';
const SUNSET_PAGE = 'https://developer.example.com/legacy/sunset#search';
const DEPRECATED_AT = Date.UTC(2026, 11, 1) / 1000;
/** 2027-06-30T12:00:00+02:00. */
const SUNSET_AT = Date.UTC(2027, 5, 30, 10) / 1000;

export const SIGNALS: GatewayConfigInput['deprecation'] = {
  everyOperation: { deprecatedAt: '2026-12-01', deprecationLink: DEPRECATION_PAGE },
  operations: { 'recipes.search': { sunsetAt: '2027-06-30T12:00:00+02:00', sunsetLink: SUNSET_PAGE } },
};

let legacy: StartedLegacySandbox;
let api2: StartedApi2Sandbox;
let gateway: TestGateway;
let linking: RecordingUpstream;
let linked: TestGateway;

beforeAll(async () => {
  const stores = createSandboxStores();
  legacy = await startLegacySandbox({ store: stores.legacy });
  api2 = await startApi2Sandbox({ store: stores.api2 });
  gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    routes: { 'grocery.list': { mode: 'api2' } },
    deprecation: SIGNALS,
  });
  // A legacy backend whose answers already carry Link (one line, or two) and its own Deprecation.
  linking = await startRecordingUpstream((req, res) => {
    const headers: Array<[string, string]> = [['content-type', 'application/json; charset=utf-8'], ['link', '<https://legacy.example/recipes?pg=2>; rel="next"']];
    if (req.url?.includes('pg=3')) headers.push(['link', '<https://legacy.example/recipes?pg=1>; rel="first"'], ['deprecation', '@1']);
    res.writeHead(200, headers.flat());
    res.end('{"ResultCount":0,"Results":[]}');
  });
  linked = await startTestGateway(linking.origin, { cache: { enabled: false }, deprecation: SIGNALS });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), linked?.close()]);
  await Promise.all([legacy?.close(), api2?.close(), linking?.close()]);
});

const get = (origin: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  send(origin, { target, headers: { host: 'api.bigoven.com', accept: 'application/json', ...headers } });

const one = (response: RawResponse, name: string): string | undefined => {
  const value = response.headers[name];
  expect(Array.isArray(value), `${name} is one field`).toBe(false);
  return value as string | undefined;
};

/** Checks every signal header against its grammar; returns the link-values. */
function checkedSignal(response: RawResponse, sunset: boolean) {
  expect(sfDateSeconds(one(response, 'deprecation') ?? '')).toBe(DEPRECATED_AT);
  if (sunset) expect(imfFixdateSeconds(one(response, 'sunset') ?? '')).toBe(SUNSET_AT);
  else expect(response.headers['sunset']).toBeUndefined();
  return parseLinkHeader(one(response, 'link') ?? '');
}

const lastRecord = (g: TestGateway) => g.records.at(-1)!;

describe('the deprecation signal on real answers', () => {
  it('a legacy answer carries Deprecation, Sunset and both links, each by its grammar, and the record says so', async () => {
    const response = await get(gateway.origin, `/recipes?title_kw=soup&rpp=2&api_key=${KEY}`);
    expect(response.status).toBe(200);
    expect(one(response, 'sunset')).toBe('Wed, 30 Jun 2027 10:00:00 GMT');
    expect(checkedSignal(response, true)).toEqual([
      { uri: DEPRECATION_PAGE, params: { rel: 'deprecation' } },
      { uri: SUNSET_PAGE, params: { rel: 'sunset' } },
    ]);
    expect(lastRecord(gateway)).toMatchObject({ operation: 'recipes.search', mode: 'legacy', deprecation: 'deprecation+sunset' });
  });

  it('an answer from api2 carries the signal of its operation (every operation: deprecation only)', async () => {
    const response = await get(gateway.origin, `/grocerylist?api_key=${KEY}`, { authorization: basic('alice', 'alice-pass') });
    expect(response.status).toBe(200);
    expect(checkedSignal(response, false)).toEqual([{ uri: DEPRECATION_PAGE, params: { rel: 'deprecation' } }]);
    expect(lastRecord(gateway)).toMatchObject({ operation: 'grocery.list', mode: 'api2', deprecation: 'deprecation' });
  });

  it("the gateway's own error answers to a catalogued operation carry it too", async () => {
    const refused = await get(gateway.origin, `/recipes?rpp=500&api_key=${KEY}`);
    expect(refused.status).toBe(400);
    checkedSignal(refused, true);
    const unauthenticated = await get(gateway.origin, '/grocerylist');
    expect(unauthenticated.status).toBe(403);
    checkedSignal(unauthenticated, false);
    expect(lastRecord(gateway)).toMatchObject({ status: 403, deprecation: 'deprecation' });
  });

  it('an uncatalogued call is not signalled, nor recorded as told', async () => {
    const response = await get(gateway.origin, `/recipe/1/photos?api_key=${KEY}`);
    expect(response.headers['deprecation']).toBeUndefined();
    expect(response.headers['link']).toBeUndefined();
    expect(lastRecord(gateway)).toMatchObject({ operation: 'uncatalogued' });
    expect(lastRecord(gateway).deprecation).toBeUndefined();
  });

  it("appends the links to the legacy answer's own Link, one line or several, and replaces its Deprecation", async () => {
    const single = await get(linked.origin, `/recipes?title_kw=soup&api_key=${KEY}`);
    expect(checkedSignal(single, true)).toEqual([
      { uri: 'https://legacy.example/recipes?pg=2', params: { rel: 'next' } },
      { uri: DEPRECATION_PAGE, params: { rel: 'deprecation' } },
      { uri: SUNSET_PAGE, params: { rel: 'sunset' } },
    ]);
    const several = await get(linked.origin, `/recipes?title_kw=soup&pg=3&api_key=${KEY}`);
    expect(checkedSignal(several, true).map((link) => link.params['rel'])).toEqual(['next', 'first', 'deprecation', 'sunset']);
  });
});
