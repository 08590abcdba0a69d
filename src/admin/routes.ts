/**
 * The admin views (the Prometheus metrics, the config and traffic views). They are never open to
 * every client of the gateway: the Node entry serves them on a separate admin listener (loopback by
 * default; bound beyond loopback only with a bearer token), or on the main listener only behind a
 * bearer token (src/observability/node/wiring.ts). This module is runtime-agnostic: the metrics
 * text comes from an injected `MetricsEndpoint`.
 */
import { Hono as HonoApp } from 'hono';
import type { Hono, MiddlewareHandler } from 'hono';
import type { AdminRoutes } from '../gateway/admin-port.js';

/** The text values of an action's query and body (JSON object, its numbers and booleans as text, or form); a body that is neither gives none. */
async function actionInput(request: Request, query: Readonly<Record<string, string>>): Promise<Record<string, string>> {
  const input: Record<string, string> = { ...query };
  const type = request.headers.get('content-type') ?? '';
  const fields: unknown = await (/json/i.test(type) ? request.json() : /form/i.test(type) ? request.formData().then((form) => Object.fromEntries(form)) : Promise.resolve({})).catch(() => ({}));
  if (fields && typeof fields === 'object') for (const [key, value] of Object.entries(fields)) if (['string', 'number', 'boolean'].includes(typeof value)) input[key] = String(value);
  return input;
}

/**
 * The protection layer of the admin views: with a token configured, a request without
 * `Authorization: Bearer <token>` is answered 401, except the metrics path when `openMetrics`.
 * Mounted on every admin path (`app.use`), so a view added under it is protected as well.
 */
export function adminGuard(admin: Pick<AdminRoutes, 'bearerToken' | 'openMetrics' | 'metricsPath'>): MiddlewareHandler {
  const expected = admin.bearerToken === undefined ? undefined : `Bearer ${admin.bearerToken}`;
  return async (c, next) => {
    if (expected === undefined || (admin.openMetrics === true && c.req.path === admin.metricsPath) || sameText(c.req.header('authorization') ?? '', expected)) {
      await next();
      return;
    }
    return new Response('bearer token required\n', {
      status: 401,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="gateway-admin"', 'cache-control': 'no-store' },
    });
  };
}

/** The admin views on an app that serves other things too (the main listener): each path behind the guard. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function mountAdminRoutes(app: Hono<any>, admin: AdminRoutes): void {
  const guard = adminGuard(admin);
  for (const path of [admin.metricsPath, ...[...(admin.views ?? []), ...(admin.actions ?? [])].map((route) => route.path)]) app.use(path, guard);
  routeAdminViews(app, admin);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function routeAdminViews(app: Hono<any>, admin: AdminRoutes): void {
  app.get(admin.metricsPath, async () => {
    const { contentType, body } = await admin.metrics.render();
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
  });
  for (const view of admin.views ?? []) {
    if (view.type === 'html') app.get(view.path, async (c) => c.html(String(await view.render(c.req.param() as Record<string, string>)), 200, { 'cache-control': 'no-store' }));
    else app.get(view.path, async (c) => c.json((await view.render(c.req.param() as Record<string, string>)) as object, 200, { 'cache-control': 'no-store' }));
  }
  for (const action of admin.actions ?? []) {
    app.post(action.path, async (c) => {
      const form = (c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
      const params = c.req.param() as Record<string, string>;
      const input = await actionInput(c.req.raw, c.req.query());
      const { status, body } = await action.handle(params, input);
      const returnTo = typeof action.returnTo === 'function' ? action.returnTo(params, input) : action.returnTo;
      if (form && returnTo && status < 400) return c.redirect(returnTo, 303);
      return c.json(body, status as 200, { 'cache-control': 'no-store' });
    });
  }
}

/** Compares in time independent of where the first difference is. */
function sameText(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

/**
 * The app of a separate admin listener: a health check open to probes, then the guard over every
 * other path (the admin views, and whatever is mounted on this app after it).
 */
export function createAdminApp(admin: AdminRoutes): Hono {
  const app = new HonoApp();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.use('*', adminGuard(admin));
  routeAdminViews(app, admin);
  // The admin listener's root shows the first page among the views (the live console).
  const page = admin.views?.find((view) => view.type === 'html');
  if (page) app.get('/', (c) => c.redirect(page.path, 302));
  return app;
}
