/**
 * The sandbox api2's faults on demand (src/sandbox/api2-faults.ts), over real HTTPS: a named field
 * changed on the fraction asked (and so in the legacy answer the gateway maps from it), 503 on a
 * fraction, late answers on a fraction, all cleared at once; and the admin control that sets them
 * (JSON for scripts, a plain form for the console, answered 303 back to it).
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_KEYS } from '../src/sandbox/dataset/dataset.js';
import { createAdminApp } from '../src/admin/routes.js';
import { faultFromText } from '../src/sandbox/api2-fault-setting.js';
import { FAULT_MARK } from '../src/sandbox/api2-faults.js';
import { sandboxAdmin } from '../src/sandbox/sandbox-admin.js';
import { startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';

let rig: Api2ModeRig;
let agent: Agent;

beforeAll(async () => {
  rig = await startApi2ModeRig();
  agent = new Agent({ connect: { ca: rig.api2.caPem } });
});

afterAll(async () => {
  await agent?.close();
  await rig?.close();
});

async function api2Search(page: number): Promise<{ status: number; titles: string[]; ms: number }> {
  const started = Date.now();
  const res = await request(`${rig.api2.origin}/recipes?any_kw=soup&pg=${page}&rpp=2`, { dispatcher: agent, headers: { 'x-bigoven-api-key': SANDBOX_API_KEYS.free } });
  const body = (await res.body.json()) as { Results?: Array<{ Title: string }> };
  return { status: res.statusCode, titles: (body.Results ?? []).map((r) => r.Title), ms: Date.now() - started };
}

const faulty = (titles: readonly string[]): boolean => titles.some((title) => title.endsWith(FAULT_MARK));

describe('a fault set on the sandbox api2', () => {
  it('changes the named field on the fraction of answers asked, the same answers every time, until cleared', async () => {
    const setting = faultFromText('kind=field fraction=0.2 field=Title path=/recipes');
    if (!setting.ok) throw new Error(setting.errors.join('; '));
    const runs: boolean[][] = [];
    for (let run = 0; run < 2; run++) {
      rig.api2.faults.set(setting.fault);
      const seen: boolean[] = [];
      for (let page = 1; page <= 50; page++) seen.push(faulty((await api2Search(page)).titles));
      runs.push(seen);
    }
    expect(runs[0]?.filter(Boolean)).toHaveLength(10);
    expect(runs[1]).toEqual(runs[0]);
    expect(rig.api2.faults.state()).toMatchObject({ eligible: 50, faulted: 10 });
    rig.api2.faults.clear();
    for (let page = 1; page <= 10; page++) expect(faulty((await api2Search(page)).titles)).toBe(false);
  });

  it('reaches the legacy answer the gateway maps from api2', async () => {
    rig.api2.faults.set({ kind: 'field', field: 'Title', fraction: 1 });
    const res = await request(`${rig.gateway.origin}/recipes?title_kw=soup&pg=2&rpp=3&api_key=sandbox-free-key`, { headers: { accept: 'application/json' } });
    const body = (await res.body.json()) as { Results: Array<{ Title: string }> };
    rig.api2.faults.clear();
    expect(body.Results.length).toBeGreaterThan(0);
    for (const result of body.Results) expect(result.Title.endsWith(FAULT_MARK)).toBe(true);
  });

  it('answers 503 on the fraction asked, and late on the fraction asked', async () => {
    rig.api2.faults.set({ kind: 'status', status: 503, fraction: 0.5 });
    const statuses: number[] = [];
    for (let page = 1; page <= 10; page++) statuses.push((await api2Search(page)).status);
    expect(statuses.filter((s) => s === 503)).toHaveLength(5);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);

    rig.api2.faults.set({ kind: 'delay', delayMs: 300, fraction: 0.5 });
    const times: number[] = [];
    for (let page = 1; page <= 6; page++) times.push((await api2Search(page)).ms);
    expect(times.filter((ms) => ms >= 300)).toHaveLength(3);
    rig.api2.faults.clear();
    for (let page = 1; page <= 4; page++) expect((await api2Search(page)).status).toBe(200);
  });
});

describe('the admin control of the sandbox faults', () => {
  const admin = (): ReturnType<typeof createAdminApp> => {
    const controls = sandboxAdmin(rig.api2.faults);
    return createAdminApp({ metricsPath: '/metrics', bearerToken: undefined, metrics: { render: async () => ({ contentType: 'text/plain', body: '' }) }, views: controls.views, actions: controls.actions });
  };

  it('sets a fault from JSON, shows it, refuses a bad one with the field named, and clears it', async () => {
    const app = admin();
    const set = await app.request('/admin/sandbox/api2-fault', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'status', percent: 25 }) });
    expect(set.status).toBe(200);
    expect(rig.api2.faults.state().fault).toEqual({ kind: 'status', fraction: 0.25, status: 503 });
    const shown = (await (await app.request('/admin/sandbox/api2-fault')).json()) as { description: string };
    expect(shown.description).toBe('answers 503 on 25 % of answers');
    const bad = await app.request('/admin/sandbox/api2-fault', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'field', fraction: 2 }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: string[] }).errors.join(' ')).toMatch(/fraction: a number from 0 to 1.*field: required/);
    expect(rig.api2.faults.state().fault?.kind).toBe('status');
    const cleared = await app.request('/admin/sandbox/api2-fault/clear', { method: 'POST' });
    expect(cleared.status).toBe(200);
    expect(rig.api2.faults.state().fault).toBeNull();
  });

  it('answers a plain HTML form 303 back to the console', async () => {
    const app = admin();
    const res = await app.request('/admin/sandbox/api2-fault', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'kind=delay&percent=10&delayMs=200' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin');
    expect(rig.api2.faults.state().fault).toEqual({ kind: 'delay', fraction: 0.1, delayMs: 200 });
    rig.api2.faults.clear();
  });
});
