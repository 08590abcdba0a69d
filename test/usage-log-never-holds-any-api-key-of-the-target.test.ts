/**
 * Property: wherever a client puts api keys in a request target (the query, repeated, in another
 * letter case, percent-encoded, in path segments of catalogued or uncatalogued paths), none of
 * them appears in the usage log. Generated requests through a real gateway with its real log.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';

const key = fc.stringMatching(/^[A-Za-z0-9_-]{12,24}$/);
const name = fc.constantFrom('api_key', 'API_KEY', 'Api_Key', 'api%5Fkey', 'api%5fKEY');
const path = fc.constantFrom('/recipes', '/u/{k}', '/keys/{k}/x', '/v1/{k}', '/recipe/12/{k}', '/grocerylist/{k}', '/review/{k}');

/** A target with one to three api_key parameters, one of whose values (any) also stands in the path. */
const target = fc
  .record({ path, keys: fc.array(fc.tuple(name, key), { minLength: 1, maxLength: 3 }), pick: fc.nat() })
  .map(({ path: p, keys, pick }) => ({
    target: `${p.replace('{k}', keys[pick % keys.length]?.[1] ?? '')}?${keys.map(([n, k]) => `${n}=${encodeURIComponent(k)}`).join('&')}&title_kw=soup`,
    secrets: keys.map(([, k]) => k),
  }));

describe('usage log and api keys in the target', () => {
  it('holds none of the api keys a target carries, wherever they are', async () => {
    const upstream = await startRecordingUpstream();
    const logFile = join(await tempDir(), 'usage.log');
    const gateway = await startTestGateway(upstream.origin, { observability: { log: { destination: logFile } } });
    const samples = fc.sample(target, { numRuns: 80, seed: 20261123 });
    try {
      for (const sample of samples) {
        const res = await send(gateway.origin, { target: sample.target, headers: { accept: 'application/json' } });
        expect(res.status).toBeLessThan(500);
      }
    } finally {
      await gateway.close();
      await upstream.close();
    }
    const log = (await readFile(logFile, 'utf8')).toLowerCase();
    expect(log.trimEnd().split('\n')).toHaveLength(samples.length);
    for (const sample of samples) {
      for (const secret of sample.secrets) expect(log.includes(secret.toLowerCase()), `${sample.target} leaked ${secret}`).toBe(false);
    }
  });

  it('holds no key-like path segment of an uncatalogued call, even one that is not the request own key', async () => {
    const upstream = await startRecordingUpstream();
    const logFile = join(await tempDir(), 'usage.log');
    const gateway = await startTestGateway(upstream.origin, { observability: { log: { destination: logFile } } });
    const others = fc.sample(fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/), { numRuns: 20, seed: 20261124 });
    try {
      for (const other of others) {
        const res = await send(gateway.origin, { target: `/keys/${other}/x?api_key=sandbox-free-key`, headers: { accept: 'application/json' } });
        expect(res.status).toBeLessThan(500);
      }
    } finally {
      await gateway.close();
      await upstream.close();
    }
    const log = (await readFile(logFile, 'utf8')).toLowerCase();
    for (const other of others) expect(log.includes(other.toLowerCase()), `leaked ${other}`).toBe(false);
  });
});
