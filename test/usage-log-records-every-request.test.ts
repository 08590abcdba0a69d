/**
 * The usage log's fields, request by request, through a real gateway in front of the real sandbox
 * backend: request id (taken or generated, and returned), operation or uncatalogued template,
 * mode, form, version prefix, scheme and insecure flag, keyed client and user hashes with the
 * label map, status, latencies, bytes, error reasons; refusals made by the Node listener before
 * the core app are logged the same way.
 */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { tempDir } from './support/log-fixtures.js';
import { freePort } from './support/started-process.js';

const FREE = 'sandbox-free-key';
const HASH_KEY = 'records-test-hash-key-1234';
const hmac16 = (text: string): string => createHmac('sha256', HASH_KEY).update(text).digest('hex').slice(0, 16);
const FREE_HASH = hmac16(`api_key\n${FREE}`);
const ALICE_HASH = hmac16('user\nalice');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const alice = basic('alice', 'alice-pass');

type Line = Record<string, unknown>;

let sandbox: StartedLegacySandbox;
beforeAll(async () => {
  sandbox = await startLegacySandbox();
});
afterAll(async () => {
  await sandbox.close();
});

/** Runs requests through a fresh gateway logging to a file; returns the answers and the log lines. */
async function logged(
  requests: ReadonlyArray<Parameters<typeof send>[1]>,
  overrides: Partial<GatewayConfigInput> = {},
  origin?: string,
): Promise<{ answers: RawResponse[]; lines: Line[] }> {
  const file = join(await tempDir(), 'usage.log');
  const gateway = await startTestGateway(origin ?? sandbox.origin, {
    ...overrides,
    observability: { log: { destination: file }, hashKey: HASH_KEY, clientLabels: { [FREE_HASH]: 'web-shop' } },
  });
  const answers: RawResponse[] = [];
  for (const request of requests) answers.push(await send(gateway.origin, request));
  await gateway.close();
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Line);
  expect(lines).toHaveLength(requests.length);
  expect(gateway.records).toHaveLength(requests.length);
  return { answers, lines };
}

function lineFor(lines: Line[], answer: RawResponse): Line {
  const id = answer.headers['x-request-id'];
  expect(typeof id).toBe('string');
  const line = lines.find((l) => l['requestId'] === id);
  expect(line, `no log line for request id ${String(id)}`).toBeDefined();
  return line!;
}

describe('usage log records', () => {
  it('describes a pass-through request completely', async () => {
    const { answers, lines } = await logged([
      { target: `/recipes?title_kw=soup&pg=1&rpp=2&api_key=${FREE}`, headers: { accept: 'application/json', 'x-request-id': 'trace-123' } },
    ]);
    const answer = answers[0]!;
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toBe('trace-123');
    const line = lineFor(lines, answer);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      requestId: 'trace-123',
      method: 'GET',
      operation: 'recipes.search',
      mode: 'legacy',
      form: 'canonical',
      scheme: 'http',
      insecure: true,
      client: FREE_HASH,
      clientLabel: 'web-shop',
      status: 200,
      bytesIn: 0,
      bytesOut: answer.body.length,
    });
    expect(line['time']).toEqual(expect.any(Number));
    expect(line['latencyMs']).toEqual(expect.any(Number));
    expect(line['upstreamMs']).toEqual(expect.any(Number));
    expect(Number(line['latencyMs'])).toBeGreaterThanOrEqual(Number(line['upstreamMs']) - 1);
    expect(line['user']).toBeUndefined();
    expect(line['error']).toBeUndefined();
  });

  it('tells the forms apart and hashes the Basic user', async () => {
    const body = JSON.stringify({ name: 'milk', quantity: '1 l' });
    const { answers, lines } = await logged([
      { method: 'POST', target: `/grocerylist/1?api_key=${FREE}`, headers: { authorization: alice, 'content-type': 'application/json' }, body },
      { method: 'PUT', target: `/v2/grocerylist/1/?api_key=${FREE}`, headers: { authorization: alice, 'content-type': 'application/json' }, body },
      { target: `/recipe/123?api_key=${FREE}` },
    ]);
    expect(lineFor(lines, answers[0]!)).toMatchObject({ method: 'POST', operation: 'grocery.update', form: 'malformed', user: ALICE_HASH, bytesIn: body.length });
    const regular = lineFor(lines, answers[1]!);
    expect(regular).toMatchObject({ method: 'PUT', operation: 'grocery.update', form: 'regular', versionPrefix: 'v2', user: ALICE_HASH });
    const uncatalogued = lineFor(lines, answers[2]!);
    expect(uncatalogued).toMatchObject({ operation: 'uncatalogued', pathTemplate: '/recipe/{n}', mode: 'legacy', client: FREE_HASH });
    expect(uncatalogued['form']).toBeUndefined();
  });

  it('generates a request id when the client sends none or an unusable one', async () => {
    const { answers, lines } = await logged([
      { target: `/recipes?api_key=${FREE}` },
      { target: `/recipes?api_key=${FREE}`, headers: { 'x-request-id': 'has spaces and "quotes"' } },
    ]);
    for (const answer of answers) {
      expect(answer.headers['x-request-id']).toMatch(UUID);
      lineFor(lines, answer);
    }
  });

  it('logs refusals of the Node listener (bad target, foreign host) through the same sink', async () => {
    const { answers, lines } = await logged([
      { target: `/a/../recipes?api_key=${FREE}`, headers: { authorization: alice, 'x-request-id': 'refused-1' } },
      { target: `http://evil.example/recipes?api_key=${FREE}` },
    ]);
    expect(answers.map((a) => a.status)).toEqual([400, 421]);
    expect(answers[0]?.headers['x-request-id']).toBe('refused-1');
    expect(lineFor(lines, answers[0]!)).toMatchObject({
      operation: 'unrouted',
      mode: 'gateway',
      status: 400,
      error: 'bad-target',
      scheme: 'http',
      insecure: true,
      client: FREE_HASH,
      user: ALICE_HASH,
      bytesOut: answers[0]!.body.length,
    });
    expect(lineFor(lines, answers[1]!)).toMatchObject({ operation: 'unrouted', status: 421, error: 'misdirected', absoluteForm: true });
  });

  it('names the operation of requests the gateway answers itself, with the reason', async () => {
    const { answers, lines } = await logged(
      [
        { target: `/reviews?rid=abc&api_key=${FREE}`, headers: { accept: 'application/json' } },
        { target: `/grocerylist?api_key=${FREE}`, headers: { authorization: alice } },
      ],
      { plainHttpCredentials: 'reject' },
    );
    expect(answers.map((a) => a.status)).toEqual([403, 403]);
    expect(lineFor(lines, answers[1]!)).toMatchObject({ operation: 'grocery.list', mode: 'gateway', form: 'canonical', insecure: true, error: 'insecure-credentials' });

    const invalid = await logged([{ target: `/reviews?rid=abc&api_key=${FREE}`, headers: { accept: 'application/json' } }]);
    expect(lineFor(invalid.lines, invalid.answers[0]!)).toMatchObject({ operation: 'reviews.list', mode: 'gateway', status: 400, error: 'invalid-request' });
  });

  it('records a refusal by the guards with the same request facts as a served request: scheme, route mode, client', async () => {
    const { answers, lines } = await logged(
      [
        { target: `/recipes?api_key=${FREE}`, headers: { accept: 'application/json', host: 'elsewhere.example' } },
        { target: `/recipes?api_key=${FREE}`, headers: { accept: 'application/json', host: 'gateway.example' } },
      ],
      { acceptedHosts: ['gateway.example'] },
    );
    expect(answers.map((a) => a.status)).toEqual([421, 200]);
    const facts = { operation: 'recipes.search', routeMode: 'legacy', scheme: 'http', insecure: true, client: FREE_HASH, clientLabel: 'web-shop' };
    expect(lineFor(lines, answers[0]!)).toMatchObject({ ...facts, mode: 'gateway', error: 'misdirected', bytesOut: Buffer.byteLength(answers[0]!.body) });
    expect(lineFor(lines, answers[1]!)).toMatchObject({ ...facts, mode: 'legacy' });
  });

  it('logs upstream failures at warn level with the reason', async () => {
    const port = await freePort();
    const { answers, lines } = await logged([{ target: `/recipes?api_key=${FREE}` }], {}, `http://127.0.0.1:${port}`);
    expect(answers[0]?.status).toBe(502);
    expect(lineFor(lines, answers[0]!)).toMatchObject({ level: 40, operation: 'recipes.search', mode: 'legacy', status: 502, error: 'upstream-unreachable' });
  });
});
