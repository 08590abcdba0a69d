/**
 * docs/adding-an-operation.md, kept true: an operation added as one catalogue entry (here the
 * legacy `GET /recipe/{id}`, uncatalogued today) is routed, validated with a legacy error naming
 * its parameter and rule, forwarded in its canonical form, logged, and reported, with no other
 * change to the gateway. The app is the real core, in process, in front of the real sandbox
 * legacy backend over HTTP.
 */
import { testRuntime } from './support/test-runtime.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { OPERATIONS } from '../src/catalogue/operations.js';
import type { Operation, OperationId } from '../src/catalogue/operations.js';
import { parseConfig } from '../src/config/schema.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { positiveId } from '../src/legacy/param-rules.js';
import { logLine } from '../src/observability/log-fields.js';
import { Aggregator } from '../src/report/aggregate.js';
import { buildReport } from '../src/report/build-report.js';
import { DEFAULT_THRESHOLDS } from '../src/report/types.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { createFetchUpstream } from '../src/upstream/fetch-client.js';

/** Step 1 of the walk-through: the catalogue entry (in OPERATIONS, with its id in OPERATION_IDS). */
const recipesGet: Operation = {
  id: 'recipes.get' as OperationId,
  resource: 'recipes',
  summary: 'Read one recipe',
  documentedScheme: 'https',
  forms: [{ method: 'GET', template: '/recipe/{id}', kind: 'regular' }],
  params: [{ name: 'id', in: 'path', required: true, rule: positiveId }],
  answer: { status: 200, xmlRoot: 'Recipe' },
  auth: 'key',
  safe: true,
  api2: { legacyOnly: 'api2 has no recipe detail in this walk-through' },
  sandbox: { act: () => ({ ok: false, status: 404, message: 'the sandbox answers GET /recipe/{id} uncatalogued' }) },
};

let sandbox: StartedLegacySandbox;
const records: RequestRecord[] = [];
/** What reached the legacy backend (path and query). */
const forwarded: string[] = [];
let app: ReturnType<typeof createGatewayApp>;

beforeAll(async () => {
  sandbox = await startLegacySandbox();
  const parsed = parseConfig({ upstreams: { legacy: { baseUrl: sandbox.origin } }, legacyHosts: ['api.bigoven.com'], observability: { log: { enabled: true } } });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  app = createGatewayApp({
    config: parsed.config,
    upstreams: {
      legacy: createFetchUpstream({
        name: 'legacy',
        baseUrl: sandbox.origin,
        maxResponseBytes: 1_000_000,
        fetch: (input, init) => {
          const url = new URL(String(input));
          forwarded.push(url.pathname + url.search);
          return fetch(input, init);
        },
      }),
    },
    runtime: testRuntime(),
    onRecord: (record) => records.push({ ...record }),
    catalogue: [...OPERATIONS, recipesGet],
  });
});
afterAll(() => sandbox.close());

const get = (target: string) => app.request(`http://api.bigoven.com${target}`, { headers: { accept: 'application/json' } });

describe('adding an operation (docs/adding-an-operation.md)', () => {
  it('is routed in every accepted form and forwarded in its canonical one', async () => {
    for (const target of ['/recipe/7?api_key=sandbox-free-key', '/V1/Recipe/007/?API_KEY=sandbox-free-key&utm=dropped']) {
      const res = await get(target);
      expect(res.status).toBe(200);
      expect((await res.json()) as { RecipeID: number }).toMatchObject({ RecipeID: 7 });
    }
    expect(forwarded).toEqual(['/recipe/7?api_key=sandbox-free-key', '/recipe/7?api_key=sandbox-free-key']);
    expect(records.map((r) => r.operation)).toEqual(['recipes.get', 'recipes.get']);
    expect(records.map((r) => r.form)).toEqual(['regular', 'regular']);
  });

  it('is validated with the legacy error naming its parameter and rule', async () => {
    const res = await get('/recipe/abc?api_key=sandbox-free-key');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Message: `The request is invalid: id must ${positiveId.rule}.` });
    expect(records.at(-1)).toMatchObject({ operation: 'recipes.get', error: 'invalid-request' });
  });

  it('is logged and reported under its id', () => {
    const aggregator = new Aggregator();
    records.forEach((record, i) => aggregator.addLine('walkthrough', logLine(record, 30, record.startedAt, { instance: 'walkthrough', config: '1' }), i + 1));
    const report = buildReport(aggregator, ['walkthrough'], DEFAULT_THRESHOLDS);
    expect(report.operations.find((op) => op.operation === 'recipes.get')).toMatchObject({ requests: 3 });
  });
});
