/**
 * A page in Debian's chromium through playwright-core, JavaScript off (the console and the report
 * must read without it), with a throwaway profile; both are closed by `cleanup`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import type { Cleanup } from './cleanup.js';

const CHROMIUM = '/usr/bin/chromium';

/** `javaScript`: on, for a test of what the page does with it (every other reads the page without). */
export async function openChromiumPage(cleanup: Cleanup, headers: Record<string, string> = {}, javaScript = false): Promise<Page> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  cleanup.push(() => rm(profile, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    javaScriptEnabled: javaScript,
    extraHTTPHeaders: headers,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1600, height: 1000 },
  });
  cleanup.push(() => context.close());
  return context.pages()[0] ?? (await context.newPage());
}
