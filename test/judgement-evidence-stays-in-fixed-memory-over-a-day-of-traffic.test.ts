/**
 * Issue 37, done-when: the evidence the judgement reads stays in fixed memory per operation. A day
 * of traffic (simulated clock, one answer every 250 ms and a shadow comparison with each) through
 * the live counters leaves them holding what a quarter of an hour left: fixed buckets, never a
 * structure per request.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createLiveCounters } from '../src/migration/live-counters.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import type { ShadowRecord } from '../src/traffic/shadow.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const STEP_MS = 250;
const CLIENTS = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(15, '0')}`);

function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

it('keeps the same memory after a day of traffic as after its first quarter hour', async () => {
  let clock = Date.UTC(2026, 10, 26);
  const counters = createLiveCounters({ now: () => clock });
  let i = 0;
  const traffic = (untilMs: number) => {
    for (; clock < untilMs; clock += STEP_MS, i++) {
      const record: RequestRecord = {
        requestId: `r${i}`,
        startedAt: clock,
        method: 'GET',
        operation: 'recipes.search',
        form: i % 7 === 0 ? 'malformed' : 'regular',
        insecure: false,
        mode: i % 2 === 0 ? 'legacy' : 'api2',
        routeMode: 'canary',
        status: i % 97 === 0 ? 502 : 200,
        latencyMs: 1 + (i % 400) / 4,
        client: CLIENTS[i % CLIENTS.length],
      } as RequestRecord;
      counters.recordRequest(record);
      const shadow: ShadowRecord = { kind: 'shadow', time: new Date(clock).toISOString(), requestId: `r${i}`, operation: 'recipes.search', routeMode: 'canary', outcome: i % 50 === 0 ? 'differ' : 'equal' };
      counters.recordShadow(shadow);
    }
  };
  const start = clock;
  traffic(start + 20 * 60_000);
  const afterQuarterHour = heapAfterGc();
  const windowBefore = await counters.window(0);
  traffic(start + 24 * 3_600_000);
  const afterDay = heapAfterGc();
  const windowAfter = await counters.window(0);
  await counters.close();

  expect(i).toBeGreaterThan(300_000);
  // The window covers the same span and the same counts per quarter hour, so the same evidence.
  expect(windowAfter.toMs - windowAfter.fromMs).toBe(windowBefore.toMs - windowBefore.fromMs);
  const api2Answers = windowBefore.operations.get('recipes.search')?.api2.requests;
  expect(api2Answers).toBeGreaterThan(1_000);
  expect(windowAfter.operations.get('recipes.search')?.api2.requests).toBe(api2Answers);
  // 331,200 more answers and comparisons: a structure per request would hold tens of MB.
  expect(afterDay - afterQuarterHour).toBeLessThan(1_000_000);
});
