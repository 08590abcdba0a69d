/**
 * The demo's console in Chromium with JavaScript off, as an operator uses it: the Sandbox api2
 * faults panel's buttons are plain HTML forms; pressing one sets the fault on the sandbox api2 and
 * comes back to the console, which shows it in force (and the admin view agrees); the clear button
 * returns to normal. The page with the fault in force is kept as artifacts/demo-console-fault.png.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { openChromiumPage } from './support/chromium.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { printedPort, startProcess } from './support/started-process.js';

const SCREENSHOT = join(process.cwd(), 'artifacts', 'demo-console-fault.png');
const cleanup = closedAfterEachTest();

describe('the demo console in Chromium', () => {
  it('sets a fault with a form button, shows it in force, and clears it', async () => {
    const demo = startProcess('npm', ['start', '--', '--demo'], { GATEWAY_CONFIG: '', PORT: '0', ADMIN_PORT: '0', SANDBOX_API2_FAULT: '', DEMO_RATE: '10', DEMO_REQUESTS: '' });
    cleanup.push(() => demo.stop().then(() => undefined));
    await demo.ready(/metrics: http/);
    const admin = `http://127.0.0.1:${printedPort(demo.stderr(), 'metrics:')}`;
    const fault = async (): Promise<{ fault: { kind: string; fraction: number } | null }> => (await (await request(`${admin}/admin/sandbox/api2-fault`)).body.json()) as { fault: { kind: string; fraction: number } | null };

    const page = await openChromiumPage(cleanup);
    expect((await page.goto(`${admin}/admin`))?.status()).toBe(200);
    await expect(page.locator('#sandbox-faults [data-field="fault"]').getAttribute('data-value')).resolves.toBe('none');

    const [answer] = await Promise.all([page.waitForNavigation(), page.locator('form[data-fault="errors"] button').click()]);
    expect(answer?.url()).toBe(`${admin}/admin`);
    await expect(page.locator('#sandbox-faults [data-field="fault"]').getAttribute('data-value')).resolves.toBe('status');
    await expect(page.locator('#sandbox-faults [data-field="fault"]').textContent()).resolves.toBe('answers 503 on 50 % of answers');
    expect((await fault()).fault).toMatchObject({ kind: 'status', fraction: 0.5 });
    await mkdir(join(process.cwd(), 'artifacts'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await Promise.all([page.waitForNavigation(), page.locator('form[data-fault="clear"] button').click()]);
    await expect(page.locator('#sandbox-faults [data-field="fault"]').getAttribute('data-value')).resolves.toBe('none');
    expect((await fault()).fault).toBeNull();
  }, 120_000);
});
