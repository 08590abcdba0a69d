/**
 * A usage line's `params` (src/request/logged-params.ts): the parameters the operation declares,
 * as the URL gave them, in catalogue order; never the api key, in whatever form the gateway reads
 * it as the key (repeated, in another letter case, percent-encoded `api%5Fkey`), never a name the
 * operation does not declare (`password=`), never a declared value holding the key (in the query or
 * in the path) or the Basic user name or password, and at most 256 characters cut at a pair. Through a real gateway and its real log.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOGGED_PARAMS } from '../src/request/logged-params.js';
import { send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';

const KEY = 'Hostile-Key-0123456789';
const OTHER = 'second-key-abcdefghij';
const LONG = 'x'.repeat(120);
const LONGER = 'y'.repeat(115);
const PASSWORD = 'carols-pass-77';
const CAROL = `Basic ${Buffer.from(`carol-user:${PASSWORD}`).toString('base64')}`;

/** Each request (method and target) and the `params` its usage line must carry. */
const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ['GET', `/recipes?title_kw=chicken&api_key=${KEY}&pg=2`, 'title_kw=chicken&pg=2'],
  ['GET', `/recipes?pg=2&API_KEY=${KEY}&title_kw=chicken`, 'title_kw=chicken&pg=2'],
  ['GET', `/recipes?api%5Fkey=${KEY}&Title_KW=green+beans`, 'title_kw=green%20beans'],
  ['GET', `/recipes?Api_Key=${KEY}&api%5fKEY=${OTHER}&any_kw=cake`, 'any_kw=cake'],
  ['GET', `/recipes?api_key=${KEY}&password=hunter22&username=bob&apikey=${OTHER}&title_kw=soup`, 'title_kw=soup'],
  ['GET', `/recipes?api_key=${KEY}&title_kw=${KEY.toLowerCase()}&rpp=5`, 'rpp=5'],
  ['GET', `/review/82?api_key=${KEY}`, 'id=82'],
  ['POST', `/reviews?api_key=${KEY}&rid=5&rating=4&makeagain=yes&message=my+name+is+Carol-User`, 'rid=5&rating=4&makeagain=yes'],
  ['POST', `/reviews?api_key=${KEY}&rid=6&message=${PASSWORD}!&rating=3`, 'rid=6&rating=3'],
  ['DELETE', `/grocerylist/${KEY}?api_key=${KEY}`, ''],
  ['GET', `/grocerylist?api_key=${KEY}`, ''],
  ['GET', `/recipes?api_key=${KEY}&title_kw=${LONG}&any_kw=${LONGER}&pg=3&rpp=7`, `title_kw=${LONG}&any_kw=${LONGER}`],
];

let upstream: RecordingUpstream;
let lines: Array<Record<string, unknown>>;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  const logFile = join(await tempDir(), 'usage.log');
  const gateway = await startTestGateway(upstream.origin, { observability: { log: { destination: logFile } } });
  try {
    for (const [method, target] of CASES) expect((await send(gateway.origin, { method, target, headers: { accept: 'application/json', authorization: CAROL } })).status).toBeLessThan(500);
  } finally {
    await gateway.close();
  }
  lines = (await readFile(logFile, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}, 60_000);

afterAll(() => upstream.close());

describe("a usage line's params", () => {
  it('are the declared parameters the URL gave, in catalogue order, and nothing else', () => {
    expect(lines).toHaveLength(CASES.length);
    expect(lines.map((line) => line['params'])).toEqual(CASES.map(([, , params]) => params));
  });

  it('never hold an api key, nor the name api_key in any form', () => {
    for (const line of lines) {
      const params = String(line['params']).toLowerCase();
      for (const secret of [KEY, OTHER, 'hunter22', 'carol-user', PASSWORD]) expect(params).not.toContain(secret.toLowerCase());
      expect(params).not.toMatch(/api(_|%5f)key|password|username/);
    }
  });

  it('are at most 256 characters, cut before the first pair that does not fit', () => {
    const long = String(lines.at(-1)!['params']);
    expect(long.length).toBeLessThanOrEqual(MAX_LOGGED_PARAMS);
    expect(`${long}&pg=3`.length).toBeGreaterThan(MAX_LOGGED_PARAMS);
  });
});
