/**
 * The deprecation signal is added to the answer as it is sent, never to the stored page: one
 * search page, filled while the signal is on, then served as a HIT while the config (hot-reloaded,
 * the page cache carried over) signals nothing, only another operation, and every operation
 * again. Each HIT carries exactly what its own request's config says, and its own request id,
 * never the filling request's; no cache flush is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfig, GatewayConfigInput } from '../src/config/schema.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { imfFixdateSeconds, parseLinkHeader, sfDateSeconds } from './support/rfc-grammars.js';

const PAGE = '/recipes?title_kw=soup&rpp=2&api_key=sandbox-free-key';
const SIGNALLED: GatewayConfigInput['deprecation'] = {
  everyOperation: { deprecatedAt: '2026-12-01', sunsetAt: '2027-06-30', deprecationLink: 'https://developer.example.com/deprecation' },
};

let legacy: StartedLegacySandbox;
let gateway: TestGateway;
let base: GatewayConfigInput;

function config(deprecation: GatewayConfigInput['deprecation']): GatewayConfig {
  const parsed = parseConfig({ ...base, ...(deprecation ? { deprecation } : {}) });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

beforeAll(async () => {
  legacy = await startLegacySandbox();
  base = { listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: legacy.origin } }, legacyHosts: ['api.bigoven.com'], observability: { log: { destination: '/dev/null' } } };
  gateway = await startTestGateway(legacy.origin, { deprecation: SIGNALLED });
});

afterAll(async () => {
  await gateway?.close();
  await legacy?.close();
});

async function page(requestId: string) {
  const response = await send(gateway.origin, { target: PAGE, headers: { host: 'api.bigoven.com', accept: 'application/json', 'x-request-id': requestId } });
  expect(response.status).toBe(200);
  return { cache: response.headers['x-cache'], requestId: response.headers['x-request-id'], deprecation: response.headers['deprecation'], sunset: response.headers['sunset'], link: response.headers['link'], body: response.text() };
}

describe('a cached page never carries one request\'s deprecation signal to another', () => {
  it('serves the same stored page with the signal of each request\'s config in force', async () => {
    const filled = await page('fill-1');
    expect(filled).toMatchObject({ cache: 'MISS', requestId: 'fill-1' });
    expect(sfDateSeconds(filled.deprecation as string)).toBe(Date.UTC(2026, 11, 1) / 1000);
    expect(imfFixdateSeconds(filled.sunset as string)).toBe(Date.UTC(2027, 5, 30) / 1000);
    expect(parseLinkHeader(filled.link as string)).toEqual([{ uri: 'https://developer.example.com/deprecation', params: { rel: 'deprecation' } }]);

    await gateway.running.reload(config(undefined));
    const off = await page('hit-off');
    expect(off).toMatchObject({ cache: 'HIT', requestId: 'hit-off', deprecation: undefined, sunset: undefined, link: undefined, body: filled.body });

    await gateway.running.reload(config({ operations: { 'reviews.get': { sunsetAt: '2027-01-31' } } }));
    const other = await page('hit-other-operation');
    expect(other).toMatchObject({ cache: 'HIT', requestId: 'hit-other-operation', deprecation: undefined, sunset: undefined, link: undefined });

    await gateway.running.reload(config({ everyOperation: { sunsetAt: '2028-01-01T00:00:00Z' } }));
    const sunsetOnly = await page('hit-sunset');
    expect(sunsetOnly).toMatchObject({ cache: 'HIT', requestId: 'hit-sunset', deprecation: undefined, link: undefined });
    expect(imfFixdateSeconds(sunsetOnly.sunset as string)).toBe(Date.UTC(2028, 0, 1) / 1000);

    await gateway.running.reload(config(undefined));
    const offAgain = await page('hit-off-again');
    expect(offAgain).toMatchObject({ cache: 'HIT', requestId: 'hit-off-again', deprecation: undefined, sunset: undefined, link: undefined, body: filled.body });

    const records = gateway.records.filter((record) => record.operation === 'recipes.search').map((record) => [record.cache, record.deprecation]);
    expect(records).toEqual([['MISS', 'deprecation+sunset'], ['HIT', undefined], ['HIT', undefined], ['HIT', 'sunset'], ['HIT', undefined]]);
  });
});
