/**
 * Traffic with known secrets (api keys, user names, passwords, Authorization values, the metrics
 * bearer token, the hash key) through a real gateway in front of the real sandbox backend, in every
 * shape: canonical and malformed forms, prefixes, uncatalogued paths with the key in the path,
 * refused targets, foreign hosts, bad input, wrong credentials, plain http. None of the secrets
 * appears anywhere in the usage log, and every request has its line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import type { RawRequest } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { tempDir } from './support/log-fixtures.js';

const FREE = 'sandbox-free-key';
const PAID = 'sandbox-paid-key';
const UNKNOWN_KEY = 'zz-unknown-key-7788';
const BEARER = 'metrics-token-0123456789abcdef';
const HASH_KEY = 'usage-log-hash-key-42424242';
const CLIENT_BEARER = 'client-bearer-s3cr3t-9911';

const SECRETS = [
  FREE,
  PAID,
  UNKNOWN_KEY,
  'alice-pass',
  'bob-pass',
  'wrong-pass-5566',
  'alice',
  'bob',
  basic('alice', 'alice-pass'),
  basic('alice', 'alice-pass').slice('Basic '.length),
  basic('bob', 'wrong-pass-5566').slice('Basic '.length),
  BEARER,
  HASH_KEY,
  CLIENT_BEARER,
  'api_key=',
];

let sandbox: StartedLegacySandbox;
let gateway: TestGateway;
let logFile: string;
let log = '';
const sent: Array<{ request: RawRequest; status: number; requestId: string | undefined }> = [];

async function call(request: RawRequest): Promise<void> {
  const res = await send(gateway.origin, request);
  const id = res.headers['x-request-id'];
  sent.push({ request, status: res.status, requestId: typeof id === 'string' ? id : undefined });
}

const alice = { authorization: basic('alice', 'alice-pass'), accept: 'application/json' };

beforeAll(async () => {
  sandbox = await startLegacySandbox();
  logFile = join(await tempDir(), 'usage.log');
  gateway = await startTestGateway(sandbox.origin, {
    observability: {
      log: { destination: logFile },
      hashKey: HASH_KEY,
      admin: { bearerToken: BEARER },
    },
  });

  await call({ target: `/recipes?title_kw=soup&api_key=${FREE}&pg=1&rpp=2`, headers: { accept: 'application/json' } });
  await call({ target: `/recipes?api_key=${PAID}&include_primarycat=maindish`, headers: { accept: 'application/json', 'x-request-id': 'trace-0001' } });
  await call({ target: `/v1/Recipes/?API_KEY=${FREE}` });
  await call({ target: `/grocerylist?api_key=${FREE}`, headers: alice });
  await call({ target: `/grocerylist?api_key=${FREE}`, headers: { authorization: basic('bob', 'wrong-pass-5566') } });
  await call({ target: `/grocerylist?api_key=${UNKNOWN_KEY}`, headers: alice });
  await call({
    method: 'POST',
    target: `/grocerylist?api_key=${FREE}`,
    headers: { ...alice, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'alice-pass', quantity: '1 lb' }),
  });
  await call({ method: 'POST', target: `/grocerylist/1?api_key=${FREE}&name=milk&quantity=1`, headers: alice });
  await call({ method: 'DELETE', target: `/grocerylist999999?api_key=${FREE}`, headers: alice });
  await call({ method: 'POST', target: `/reviews?api_key=${FREE}&rid=5&rating=9&makeagain=maybe&message=alice-pass`, headers: alice });
  await call({ target: `/recipes?api_key=${FREE}`, headers: { authorization: `Bearer ${CLIENT_BEARER}` } });
  await call({ target: `/keys/${FREE}/alice?api_key=${FREE}`, headers: alice });
  await call({ target: `/recipe/123?api_key=${PAID}` });
  await call({ target: `/a/../recipes?api_key=${FREE}`, headers: alice });
  await call({ target: `/recipes%2f..?api_key=${FREE}` });
  await call({ target: `http://evil.example/recipes?api_key=${FREE}`, headers: alice });
  await call({ target: `http://api.bigoven.com/recipes?api_key=${PAID}`, headers: alice });
  await call({ target: `/reviews?rid=abc&api_key=${FREE}` });

  // Admin views are not request records, and their token must not be logged either.
  expect((await send(gateway.origin, { target: '/metrics' })).status).toBe(401);
  expect((await send(gateway.origin, { target: '/metrics', headers: { authorization: `Bearer ${BEARER}` } })).status).toBe(200);

  await gateway.close();
  log = await readFile(logFile, 'utf8');
});

afterAll(async () => {
  await sandbox.close();
});

describe('usage log and secrets', () => {
  it('writes one line per request, and nothing for the admin views', () => {
    const lines = log.trimEnd().split('\n');
    expect(lines).toHaveLength(sent.length);
    const ids = lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId);
    expect(ids).toEqual(expect.arrayContaining(sent.map((s) => s.requestId)));
    expect(new Set(ids).size).toBe(sent.length);
    expect(sent.map((s) => s.status)).toEqual(expect.arrayContaining([200, 400, 403, 404, 421]));
  });

  it('contains none of the secrets', () => {
    expect(log.length).toBeGreaterThan(0);
    for (const secret of SECRETS) {
      expect(log.toLowerCase().includes(secret.toLowerCase()), `the log contains ${secret}`).toBe(false);
    }
    expect(log).not.toMatch(/authorization/i);
  });

  it('says who called with keyed hashes only', () => {
    const records = log.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const keyed = records.filter((r) => r['client'] !== undefined);
    expect(keyed.length).toBeGreaterThan(10);
    for (const r of keyed) expect(r['client']).toMatch(/^[0-9a-f]{16}$/);
    expect(records.filter((r) => r['user'] !== undefined).length).toBeGreaterThan(3);
    const keysPath = records.find((r) => typeof r['pathTemplate'] === 'string' && String(r['pathTemplate']).startsWith('/keys/'));
    // The 19-character key is a long segment ({s}, uncataloguedTemplate) before the request's own secrets are scrubbed.
    expect(keysPath?.['pathTemplate']).toBe('/keys/{s}/{secret}');
  });
});
