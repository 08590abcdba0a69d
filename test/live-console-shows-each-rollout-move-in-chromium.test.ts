/**
 * The live console shows a rollout, in a real browser with JavaScript off: before any move the
 * route's step in force (shadow), its state and plan, and "no move yet"; after the gateway moved
 * the route by itself (promoted from shadow to 5 %, then sent back when api2 started to differ),
 * a reload shows each move with when, from → to and why, the failed gates with their numbers, and
 * the last gate evaluation (each gate held or failed).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/gateway.js';
import type { Api2Front } from './support/api2-front.js';
import { openChromiumPage } from './support/chromium.js';
import { TOKEN, promoteThenSendBack, startRolloutRig } from './support/rollout.js';
import { closedAfterAllTests } from './support/cleanup.js';

const cleanup = closedAfterAllTests(60_000);
let gateway: TestGateway;
let front: Api2Front;
let page: Page;

beforeAll(async () => {
  ({ gateway, front } = await startRolloutRig(cleanup));
  page = await openChromiumPage(cleanup, { authorization: `Bearer ${TOKEN}` });
}, 60_000);


const cell = (field: string) => page.locator(`#rollouts tr[data-operation="recipes.search"] [data-field="${field}"]`);

describe('the live console during a rollout', () => {
  it('shows the step in force, the state and the plan before any move', async () => {
    expect((await page.goto(`${gateway.origin}/admin`))?.status()).toBe(200);
    expect(await cell('step').getAttribute('data-value')).toBe('shadow');
    expect(await cell('step').textContent()).toContain('shadow → 5 % → 25 % → 100 %');
    expect(await cell('state').getAttribute('data-value')).toBe('rolling-out');
    // The one decision so far: the plan started at its first step.
    expect(await page.locator('#rollout-moves tbody tr').count()).toBe(1);
    expect(await page.textContent('#rollout-moves tbody tr')).toContain('legacy → shadow');
  });

  it('shows each move after the gateway made it: when, from → to, why, and the failed gates with their numbers', async () => {
    const events = await promoteThenSendBack(gateway, front);
    await page.reload();
    expect(await cell('step').getAttribute('data-value')).toBe('shadow');
    const moves = page.locator('#rollout-moves tbody tr');
    const shown = await moves.evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-from')}→${r.getAttribute('data-to')}`));
    // Newest first; the failed gate and the move it made are one row (issue 46).
    expect(shown.slice(0, 2)).toEqual(['rollback 5→shadow', 'promote shadow→5']);
    const promote = events.find((e) => e.kind === 'promote')!;
    const promoteRow = page.locator('#rollout-moves tr[data-kind="promote"]');
    // A time for people ("12 s ago"), the absolute one in its title and datetime.
    expect(await promoteRow.locator('td').nth(0).locator('time').getAttribute('datetime')).toBe(promote.time);
    expect(await promoteRow.locator('td').nth(0).textContent()).toMatch(/^(just now|\d+ s ago)$/);
    expect(await promoteRow.locator('td').nth(0).locator('time').getAttribute('title')).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC$/);
    expect(await promoteRow.locator('td').nth(3).textContent()).toBe('shadow → 5 %');
    expect(await promoteRow.locator('td').nth(5).textContent()).toContain('shadowAgreement');
    const failedRow = page.locator('#rollout-moves tr[data-kind="rollback"]');
    expect(await failedRow.locator('td').nth(5).textContent()).toContain('→ back-one-step');
    const failedGates = await failedRow.locator('li[data-outcome="fail"]').allTextContents();
    expect(failedGates.length).toBeGreaterThan(0);
    expect(failedGates[0]).toMatch(/^failed: (\w+ \d+\/\d+ [^:]+: [\d.]+ % lower bound [\d.]+ % > [\d.]+ % \((step|recent)\)|\w+ [\d.-]+ > [\d.]+ \((step|recent), \d+ samples\))$/);
    // The last evaluation on this replica: each gate judged, held or not.
    expect(await cell('lastEvaluation').getAttribute('data-value')).not.toBe('');
    expect(await cell('lastEvaluation').locator('li').count()).toBeGreaterThan(0);
    expect(Number(await cell('timeInStep').getAttribute('data-value'))).toBeGreaterThanOrEqual(0);
    expect(await page.getAttribute('#rollout-scope', 'data-store')).toBe('memory');
  }, 60_000);
});
