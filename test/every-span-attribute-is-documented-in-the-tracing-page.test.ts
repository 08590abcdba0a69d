/**
 * docs/tracing.md's attribute table is the meaning of what is exported: every attribute the span
 * builder can put on a server or client span (a record with every field set, a shadow comparison
 * that differed, calls that failed, ran in the background and had not ended) is a row of it, and
 * no row names an attribute the builder never sets.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { clientAttributes, serverAttributes } from '../src/observability/tracing/spans-of-record.js';
import type { CallSpan } from '../src/observability/tracing/span-log.js';

const record: RequestRecord = {
  id: 'r',
  requestId: 'req',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  startedAt: 1,
  method: 'GET',
  operation: 'uncatalogued',
  pathTemplate: '/recipe/{n}',
  scheme: 'https',
  insecure: true,
  mode: 'legacy',
  routeMode: 'canary',
  stepSince: 1,
  fallback: true,
  cache: 'MISS',
  status: 503,
  latencyMs: 1,
  client: '0123456789abcdef',
  clientLabel: 'partner',
  clientProgram: 'curl',
  deprecation: 'deprecation',
  error: 'upstream-timeout',
};

const call = (more: Partial<CallSpan>): CallSpan => ({ spanId: '00f067aa0ba902b7', startedAt: 2, endedAt: undefined, upstream: 'api2', method: 'GET', target: '/recipe/1?api_key=k', status: 502, failure: 'timeout', background: true, ...more });

describe('docs/tracing.md', () => {
  it('names every attribute the spans can carry, and none they never do', async () => {
    const page = await readFile('docs/tracing.md', 'utf8');
    const table = page.slice(page.indexOf('### Attributes'), page.indexOf('## Which traces are kept'));
    const documented = new Set([...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]!)));
    const server = serverAttributes(record, 'failed', { kind: 'shadow', time: '', requestId: 'req', operation: 'recipes.search', outcome: 'differ', reason: 'why', diffs: [{ path: 'Results[].Title', kind: 'changed' }] });
    const client = clientAttributes(call({}), 'https://user:pw@api2.test:8443/');
    const set = new Set([...Object.keys(server), ...Object.keys(client)]);
    expect([...set].filter((name) => !documented.has(name)), 'set but not documented').toEqual([]);
    expect([...documented].filter((name) => !set.has(name)), 'documented but never set').toEqual([]);
    expect(client['url.full'], 'no user info, no query').toBe('https://api2.test:8443/recipe/1');
  });
});
