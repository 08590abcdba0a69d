/**
 * One set of numbers (issue 45): the report judges the usage lines, the rollout runner the live
 * counters, each on whole buckets after a step began. An answer made just before a bucket's edge
 * and counted just after it (a busy machine: the two sinks run one after the other) was on one side
 * of the edge in the log and on the other in the counters, and the report and /admin/rollout gave
 * the same step 77 and 78 comparisons. Both now read the one instant the record names: a request's
 * `answeredAt` (set where the record is made), a shadow comparison's own `time`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { createLiveCounters } from '../src/migration/live-counters.js';
import { createUsageLog } from '../src/observability/node/usage-log.js';
import type { ShadowRecord } from '../src/traffic/shadow.js';

const BUCKET_MS = 1_000;
/** A bucket's edge, and the clock of the counters just past it. */
const EDGE = 1_767_607_200_000;
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

it('a request answered 1 ms before a bucket edge and a comparison ended then are counted before it live, and their lines say that instant', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'one-instant-'));
  dirs.push(dir);
  const file = join(dir, 'usage.log');
  const log = createUsageLog({ enabled: true, destination: file, level: 'info' }, () => ({ instance: 't', config: '1' }));
  const live = createLiveCounters({ bucketMs: BUCKET_MS, now: () => EDGE + 5 });
  const answered: RequestRecord = { requestId: 'r1', startedAt: EDGE - 20, answeredAt: EDGE - 1, method: 'GET', operation: 'recipes.search', insecure: false, mode: 'legacy', status: 200, latencyMs: 19 };
  const compared: ShadowRecord = { kind: 'shadow', time: new Date(EDGE - 1).toISOString(), requestId: 'r1', operation: 'recipes.search', outcome: 'equal' };
  for (const sink of [log.sink, live.recordRequest]) sink(answered);
  log.event('shadow', compared);
  live.recordShadow(compared);
  await log.close();

  const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { msg: string; time: number });
  expect(lines.map((line) => [line.msg, line.time])).toEqual([
    ['request', EDGE - 1],
    ['shadow', EDGE - 1],
  ]);
  // Before the edge, as the lines say: nothing in the bucket from the edge on.
  const fromEdge = (await live.window(EDGE)).operations.get('recipes.search')!;
  expect([fromEdge.legacy.requests, fromEdge.shadow.agreed]).toEqual([0, 0]);
  const before = (await live.window(EDGE - BUCKET_MS)).operations.get('recipes.search')!;
  expect([before.legacy.requests, before.shadow.agreed]).toEqual([1, 1]);
  await live.close();
});

it('an event without a time of its own (a note) is written at the time it is written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'one-instant-'));
  dirs.push(dir);
  const file = join(dir, 'usage.log');
  const log = createUsageLog({ enabled: true, destination: file, level: 'info' }, () => ({ instance: 't', config: '1' }));
  const before = Date.now();
  log.event('note', { note: 'no time of its own' });
  log.event('note', { note: 'a time that is no date', time: 'soon' });
  await log.close();
  const times = (await readFile(file, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { time: unknown }).time);
  for (const time of times) {
    expect(typeof time).toBe('number');
    expect(time as number).toBeGreaterThanOrEqual(before);
  }
});
