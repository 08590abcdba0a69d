/**
 * `npm start -- --demo` as a newcomer runs it: the sandbox, the demo's rollout plans and its
 * traffic. Within a bounded time a read reaches its last step (seen through `/admin/rollout`) and
 * `/admin/rollout` and the console report a legacy-only operation as cannot move; the documented fault control (503 on
 * half of api2's answers) sends a plan back, and clearing it lets the plan move on again. The usage
 * log shows the population: many clients, every operation, reads and writes.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/catalogue/operations.js';
import { printedPort, startProcess } from './support/started-process.js';

interface Rollout {
  readonly operations: Array<{ operation: string; last: boolean; state: { at: string | number; status: string } | null }>;
  readonly events: Array<{ operation: string; kind: string; time: string; from: string | number; to: string | number; reason: string }>;
  readonly withoutPlan: Array<{ operation: string; judgement: { state: string; detail: string } | null }>;
}

/** Polls `find` every second until it gives a value; throws after `timeoutMs`. */
async function eventually<T>(what: string, timeoutMs: number, find: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe('npm start -- --demo', () => {
  it('moves a read to its last step, shows a legacy-only operation as cannot move, and rolls back on a fault until it is cleared', async () => {
    const demo = startProcess('npm', ['start', '--', '--demo'], { GATEWAY_CONFIG: '', PORT: '0', ADMIN_PORT: '0', SANDBOX_API2_FAULT: '', DEMO_RATE: '', DEMO_REQUESTS: '' });
    try {
      await demo.ready(/metrics: http/);
      const admin = `http://127.0.0.1:${printedPort(demo.stderr(), 'metrics:')}`;
      expect(demo.stderr()).toContain(`console: ${admin}/admin`);
      expect(demo.stderr()).toMatch(/demo traffic: 40 requests a second/);
      const rollout = async (): Promise<Rollout> => (await (await request(`${admin}/admin/rollout`)).body.json()) as Rollout;

      // Reads: shadow → 20 → 50 → 100 under the demo's traffic (the first in about a minute and a half; bounded here).
      const done = await eventually('a read at its last step', 180_000, async () => (await rollout()).operations.find((op) => op.last && OPERATIONS.find((o) => o.id === op.operation)?.safe));
      expect(done.state?.at).toBe(100);

      const legacyOnly = (await rollout()).withoutPlan.find((op) => op.operation === 'favorites.create');
      expect(legacyOnly?.judgement).toMatchObject({ state: 'cannot-move' });
      expect(legacyOnly?.judgement?.detail).toMatch(/\S/);
      const page = await (await request(`${admin}/admin`)).body.text();
      expect(page).toMatch(/<tr data-operation="favorites\.create">(?:(?!<\/tr>).)*data-field="state" data-value="cannot-move"/s);
      expect(page).toContain('<section id="sandbox-faults">');

      // The documented control: 503 on half of api2's answers sends the plan back a step.
      const faultAt = Date.now();
      const set = await request(`${admin}/admin/sandbox/api2-fault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'status', percent: 50 }) });
      expect(set.statusCode).toBe(200);
      await set.body.text();
      // Sent back by the error-rate gate (api2's 503s, answered by legacy as fallbacks): the fault's doing.
      const rolledBack = await eventually('a rollback on api2 errors after the fault', 60_000, async () =>
        (await rollout()).events.find((e) => e.kind === 'rollback' && Date.parse(e.time) >= faultAt && /\berrorRate \d+\/\d+ api2 errors\b.*>/.test(e.reason)),
      );
      expect(rolledBack.from).not.toBe(rolledBack.to);

      const cleared = await request(`${admin}/admin/sandbox/api2-fault/clear`, { method: 'POST' });
      expect(((await cleared.body.json()) as { fault: unknown }).fault).toBeNull();
      const clearedAt = Date.now();
      const movedOn = await eventually('a promotion once cleared', 90_000, async () => (await rollout()).events.find((e) => e.operation === rolledBack.operation && e.kind === 'promote' && Date.parse(e.time) >= clearedAt));
      expect(movedOn.from).toBe(rolledBack.to);
    } finally {
      await demo.stop();
    }
    // Ctrl-C: the traffic stops, the requests in flight drain, the process closes.
    expect(demo.stderr()).toMatch(/SIGINT: .*; closing/);
    const lines = demo
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { operation?: string; client?: string; method: string });
    expect(new Set(lines.map((l) => l.client)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(lines.map((l) => l.operation))).toEqual(new Set(OPERATIONS.map((op) => op.id)));
    expect(lines.filter((l) => l.method !== 'GET').length).toBeGreaterThan(lines.length / 10);
  }, 420_000);
});
