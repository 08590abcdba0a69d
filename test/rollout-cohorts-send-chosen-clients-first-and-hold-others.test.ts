/**
 * Cohorts through a running gateway: a plan's first step names the team's own client (by the label
 * the usage log writes), which alone goes to api2; a partner held back stays on legacy at every
 * step, at 100 % too, where the rollout says "done except 1 held client".
 */
import { describe, expect, it } from 'vitest';
import { nodeHmacSha256 } from '../src/request/hmac-node.js';
import { hashClient } from '../src/request/identity.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { send } from './support/http.js';
import { PLAN, TOKEN, positionOf, snapshot, startRolloutRig } from './support/rollout.js';

const cleanup = closedAfterEachTest();
const HASH_KEY = 'cohort-test-hash-key-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

describe('a plan with cohorts', () => {
  it('sends its chosen client first, holds its held client on legacy at every step, and says so at the end', async () => {
    const { gateway } = await startRolloutRig(cleanup, {
      observability: {
        admin: { bearerToken: TOKEN },
        hashKey: HASH_KEY,
        clientLabels: { [hashClient(nodeHmacSha256, HASH_KEY, 'sandbox-free-key')]: 'team-app', [hashClient(nodeHmacSha256, HASH_KEY, 'sandbox-paid-key')]: 'partner-x' },
      },
      routes: { 'recipes.search': { rollout: { ...PLAN, steps: [{ clients: ['team-app'] }, 50, 100], hold: ['partner-x'], minStepMs: 3_600_000 } } },
    });
    const sideOf = async (apiKey: string, user?: string) => {
      const before = gateway.records.length;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (user) headers['authorization'] = `Basic ${Buffer.from(`${user}:${user}-pass`).toString('base64')}`;
      expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&rpp=2&api_key=${apiKey}`, headers })).status).toBe(200);
      return gateway.records.slice(before).find((r) => r.operation === 'recipes.search')?.mode;
    };
    const everyone = async () => ({
      team: [await sideOf('sandbox-free-key'), await sideOf('sandbox-free-key', 'alice'), await sideOf('sandbox-free-key', 'bob')],
      partner: [await sideOf('sandbox-paid-key'), await sideOf('sandbox-paid-key', 'alice'), await sideOf('sandbox-paid-key', 'bob')],
    });

    expect(positionOf(gateway)).toEqual({ clients: ['team-app'], percent: 0 });
    expect(await everyone()).toEqual({ team: ['api2', 'api2', 'api2'], partner: ['legacy', 'legacy', 'legacy'] });

    for (const _ of [1, 2]) expect((await send(gateway.origin, { method: 'POST', target: '/admin/rollout/recipes.search/promote', headers: auth })).status).toBe(200);
    expect(positionOf(gateway)).toBe(100);
    expect(await everyone()).toEqual({ team: ['api2', 'api2', 'api2'], partner: ['legacy', 'legacy', 'legacy'] });
    const view = snapshot(gateway).operations[0];
    expect(view?.held).toEqual(['partner-x']);
    const page = (await send(gateway.origin, { target: '/admin', headers: auth })).text();
    expect(page).toContain('done except 1 held client');
  }, 30_000);

  it('refuses to start when a plan names clients without a hash key', async () => {
    const { startProblems } = await import('../src/node/start-failure.js');
    const { parseConfig } = await import('../src/config/schema.js');
    const parsed = parseConfig({
      upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' }, api2: { baseUrl: 'https://127.0.0.1:9' } },
      routes: { 'recipes.search': { rollout: { steps: [10, 100], hold: ['partner-x'] } } },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(await startProblems(parsed.config)).toEqual([
      'routes["recipes.search"].rollout.hold: names clients, which needs observability.hashKey (or GATEWAY_HASH_KEY): without it client hashes change at every start and match no label',
    ]);
  });
});
