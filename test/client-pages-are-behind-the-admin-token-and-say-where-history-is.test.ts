/**
 * The console's client pages (src/admin/console-clients.ts) are admin views like the others:
 * behind the bearer token on the main listener, their path parameter included; with the usage log
 * not in a file they keep nothing and say where the per-client history is.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientViews } from '../src/admin/console-clients.js';
import { mountAdminRoutes } from '../src/admin/routes.js';
import { usageLogHistory } from '../src/node/client-history.js';

const TOKEN = 'client-pages-admin-token-0123456789';

function app(): Hono {
  const hono = new Hono();
  const views = clientViews(usageLogHistory({ enabled: true, destination: 'stdout' }), () => ({}));
  mountAdminRoutes(hono, { metricsPath: '/metrics', bearerToken: TOKEN, metrics: { render: async () => ({ contentType: 'text/plain', body: '' }) }, views });
  return hono;
}

describe("the console's client pages", () => {
  it('need the admin token, on the list and on a client', async () => {
    const gateway = app();
    for (const path of ['/admin/clients', '/admin/clients/partner-x']) {
      expect((await gateway.request(path)).status).toBe(401);
      expect((await gateway.request(path, { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(401);
      const allowed = await gateway.request(path, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('say the history is read from a usage-log file when the log goes to stdout', async () => {
    expect(usageLogHistory({ enabled: true, destination: 'stdout' })).toBeUndefined();
    expect(usageLogHistory({ enabled: false, destination: '/var/log/usage.log' })).toBeUndefined();
    const page = await (await app().request('/admin/clients/partner-x', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(page).toContain('id="no-history"');
    expect(page).toContain('observability.log.destination');
  });
});
