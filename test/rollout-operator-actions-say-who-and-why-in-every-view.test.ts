/**
 * An operator's rollout action takes `by` and `reason` (JSON body, form body or query), keeps
 * them on the event, and every view shows them: /admin/rollout (the event's `operator`, the
 * judgement's `pausedBy`), the console (the history's "by" cell and the state's detail), and the
 * state the judgement gives (paused by whom, why). Control characters are dropped, length capped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { TOKEN, startRolloutRig } from './support/rollout.js';
import { closedAfterAllTests } from './support/cleanup.js';

const cleanup = closedAfterAllTests(60_000);
let gateway: TestGateway;
const auth = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  ({ gateway } = await startRolloutRig(cleanup, { rollout: { evaluationMs: 60_000 } }));
}, 60_000);

type RolloutView = {
  operations: Array<{ operation: string; judgement: { state: string; pausedBy: { by: string; reason: string } | null; detail: string } }>;
  history: Array<{ kind: string; operator?: string; reason?: string }>;
};
const view = async (): Promise<RolloutView> => (await send(gateway.origin, { target: '/admin/rollout', headers: auth })).json() as RolloutView;

describe('an operator action', () => {
  it('keeps who paused and why, from a JSON body, and every view shows them', async () => {
    const body = JSON.stringify({ by: 'alice', reason: 'partner release\nis late' });
    const paused = await send(gateway.origin, { method: 'POST', target: '/admin/rollout/recipes.search/pause', headers: { ...auth, 'content-type': 'application/json' }, body });
    expect(paused.status).toBe(200);
    const rollout = await view();
    expect(rollout.operations[0]?.judgement).toMatchObject({ state: 'paused', pausedBy: { by: 'alice', reason: 'paused by alice: partner release is late' } });
    expect(rollout.history.at(-1)).toMatchObject({ kind: 'pause', operator: 'alice', reason: 'paused by alice: partner release is late' });
    const page = (await send(gateway.origin, { target: '/admin', headers: auth })).text();
    expect(page).toContain('<td data-field="by">operator alice</td>');
    expect(page).toContain('paused by alice: partner release is late (at shadow)');
  });

  it('takes them from the query too, and without them says "an operator"', async () => {
    const resumed = await send(gateway.origin, { method: 'POST', target: '/admin/rollout/recipes.search/resume?by=bob&reason=fixed', headers: auth });
    expect(resumed.status).toBe(200);
    expect((await view()).history.at(-1)).toMatchObject({ kind: 'resume', operator: 'bob', reason: 'resumed by bob: fixed (at shadow)' });
    expect((await send(gateway.origin, { method: 'POST', target: '/admin/rollout/recipes.search/pause', headers: auth })).status).toBe(200);
    const last = (await view()).history.at(-1);
    expect(last).toMatchObject({ kind: 'pause', reason: 'paused by an operator' });
    expect(last?.operator).toBeUndefined();
  });
});
