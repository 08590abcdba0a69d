/**
 * The admin views (today: the Prometheus metrics). They are never open to every client of the
 * gateway: the Node entry serves them on a separate admin listener (bound to loopback by default),
 * or on the main listener only behind a bearer token (src/observability/node/wiring.ts). This
 * module is runtime-agnostic: the metrics text comes from an injected `MetricsEndpoint`.
 */
import { Hono as HonoApp } from 'hono';
import type { Hono } from 'hono';

export interface MetricsEndpoint {
  /** The exposition text and its content type. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

/** Another admin view: a JSON document at a path (for example live traffic state). */
export interface AdminView {
  readonly path: string;
  render(): unknown;
}

export interface AdminRoutes {
  readonly metricsPath: string;
  /** When set, every admin view requires `Authorization: Bearer <token>`. */
  readonly bearerToken: string | undefined;
  readonly metrics: MetricsEndpoint;
  /** More views, served with the same protection. */
  readonly views?: readonly AdminView[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function mountAdminRoutes(app: Hono<any>, admin: AdminRoutes): void {
  const expected = admin.bearerToken === undefined ? undefined : `Bearer ${admin.bearerToken}`;
  const refused = (authorization: string | undefined): Response | null =>
    expected === undefined || sameText(authorization ?? '', expected)
      ? null
      : new Response('bearer token required\n', {
          status: 401,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="gateway-admin"', 'cache-control': 'no-store' },
        });
  app.get(admin.metricsPath, async (c) => {
    const refusal = refused(c.req.header('authorization'));
    if (refusal) return refusal;
    const { contentType, body } = await admin.metrics.render();
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
  });
  for (const view of admin.views ?? []) {
    app.get(view.path, (c) => refused(c.req.header('authorization')) ?? c.json(view.render() as object, 200, { 'cache-control': 'no-store' }));
  }
}

/** Compares in time independent of where the first difference is. */
function sameText(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** The app of a separate admin listener: the admin views and a health check. */
export function createAdminApp(admin: AdminRoutes): Hono {
  const app = new HonoApp();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  mountAdminRoutes(app, admin);
  return app;
}
