/**
 * The admin port: what a runtime hands the admin routes (src/admin/routes.ts) to serve: the
 * metrics text, more views (JSON or a page) and actions. Types only, so every layer that offers a
 * view (the rollout, the sandbox, the Node wiring) names them without depending on the views.
 */
export interface MetricsEndpoint {
  /** The exposition text and its content type. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

/** Another admin view: a JSON document at a path (for example live traffic state), or an HTML page (the live console). */
export interface AdminView {
  readonly path: string;
  /** `html`: `render` gives the page (a string or a promise of one); JSON otherwise (a value or a promise of one). */
  readonly type?: 'json' | 'html';
  /** `params`: the path's parameters when `path` is a Hono pattern (`/admin/clients/:client`). */
  render(params?: Readonly<Record<string, string>>): unknown;
}

/**
 * An admin action: a POST at a path (Hono pattern, e.g. `/admin/rollout/:operation/:action`), answered in JSON.
 * `returnTo`: a plain HTML form's POST (urlencoded) that succeeded is answered 303 to this page
 * (the console), so the page works without JavaScript; a function chooses it from the action's
 * path parameters and input (a console page that sent the form).
 */
export interface AdminAction {
  readonly path: string;
  readonly returnTo?: string | ((params: Readonly<Record<string, string>>, input: Readonly<Record<string, string>>) => string);
  /** `input`: the query's text values, then the body's (a JSON object or a form), the body's first. */
  handle(params: Readonly<Record<string, string>>, input: Readonly<Record<string, string>>): Promise<{ readonly status: number; readonly body: object }>;
}

export interface AdminRoutes {
  readonly metricsPath: string;
  /** When set, every admin view requires `Authorization: Bearer <token>` (src/observability/node/admin-access.ts). */
  readonly bearerToken: string | undefined;
  /** The metrics path is served without the token (for scrapers that cannot send one). */
  readonly openMetrics?: boolean | undefined;
  readonly metrics: MetricsEndpoint;
  /** More views, served with the same protection. */
  readonly views?: readonly AdminView[];
  /** Actions (POST), served with the same protection. */
  readonly actions?: readonly AdminAction[];
}
