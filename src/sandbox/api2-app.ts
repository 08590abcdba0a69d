/**
 * The api2 sandbox backend as a Hono app: the routes of api2-routes.ts (the published spec's
 * paths, parameter names and response schemas; JSON only). Runtime-agnostic (no `node:` imports);
 * api2-start.ts serves it over TLS.
 *
 * One catch-all handler over the route table, so that paths match without regard to case (as
 * ASP.NET routes do), a known path with another method gets 405, and every call is counted.
 *
 * DECISIONS:
 * - Check order: route (404/405) → api key present and known (403) → HTTP Basic present on user
 *   routes, valid whenever given (403) → path, query and body rules (400) → paid-plan search
 *   parameters with the free key (403) → act.
 * - The api key: header `X-BigOven-API-Key`, else query `api_key` [C]; the header wins when both.
 * - Bodies: JSON object or form-encoded (the spec lists both); parameters never come from the
 *   query string (api2 binds bodies [FromBody] [I]). Field names match without regard to case.
 * - Unexpected exceptions: 500 "An error has occurred.".
 * - Every answer: `Content-Type: application/json; charset=utf-8`, `Cache-Control: no-cache`
 *   (ASP.NET Web API's default [I]). HEAD is answered as GET (the server sends no body).
 * - `store.calls` counts, per "METHOD /path", every request that matched a route, before any
 *   check: refused calls count too; unknown paths and 405s do not.
 */
import { Hono } from 'hono';
import { parseBasic } from '../legacy/basic-auth.js';
import { parseBody, parseQuery } from '../request/first-values.js';
import type { ParamValues } from '../request/first-values.js';
import { API2_MESSAGES, error, invalid } from './api2-replies.js';
import type { Reply } from './api2-replies.js';
import { API2_ROUTES } from './api2-routes.js';
import type { Api2Route } from './api2-routes.js';
import type { Api2Store } from './api2-store.js';

/** The messages are api2-replies.ts's; named here too, beside the app that answers them. */
export { API2_MESSAGES } from './api2-replies.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

interface Compiled {
  readonly route: Api2Route;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

function compile(route: Api2Route): Compiled {
  const names: string[] = [];
  const source = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`, 'i'), names };
}

const COMPILED = API2_ROUTES.map(compile);

export function createApi2SandboxApp(store: Api2Store): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    let result: Reply<unknown>;
    try {
      result = await answerRequest(store, c.req.raw);
    } catch {
      result = error(500, API2_MESSAGES.internal);
    }
    return respond(result);
  });
  app.onError(() => respond(error(500, API2_MESSAGES.internal)));
  return app;
}

async function answerRequest(store: Api2Store, req: Request): Promise<Reply<unknown>> {
  const url = new URL(req.url);
  const method = req.method.toUpperCase() === 'HEAD' ? 'GET' : req.method.toUpperCase();
  const matched = COMPILED.flatMap((compiled) => {
    const match = compiled.pattern.exec(url.pathname);
    return match ? [{ compiled, match }] : [];
  });
  if (matched.length === 0) return error(404, API2_MESSAGES.notFound);
  const hit = matched.find((m) => m.compiled.route.method === method);
  if (!hit) {
    const allow = [...new Set(matched.flatMap((m) => (m.compiled.route.method === 'GET' ? ['GET', 'HEAD'] : [m.compiled.route.method])))].join(', ');
    return { ...error(405, API2_MESSAGES.methodNotAllowed(req.method)), allow };
  }
  const { route, names } = hit.compiled;
  const key = `${route.method} ${route.path}`;
  store.calls[key] = (store.calls[key] ?? 0) + 1;

  const query = parseQuery(url.search.slice(1));
  const apiKey = req.headers.get('x-bigoven-api-key') || query.get('api_key');
  if (!apiKey) return error(403, API2_MESSAGES.keyMissing);
  const plan = store.planOf(apiKey);
  if (!plan) return error(403, API2_MESSAGES.keyUnknown);
  const credentials = parseBasic(req.headers.get('authorization') ?? undefined);
  if (!credentials && route.auth === 'user') return error(403, API2_MESSAGES.userMissing);
  const user = credentials ? store.authenticate(credentials.user, credentials.password) : null;
  if (credentials && !user) return error(403, API2_MESSAGES.badUser);

  let body: ParamValues = new Map();
  if (method === 'POST' || method === 'PUT') {
    const parsed = parseBody(req.headers.get('content-type') ?? undefined, new Uint8Array(await req.arrayBuffer()));
    if (!parsed.ok) return invalid([parsed.error]);
    body = parsed.values;
  }
  const params: Record<string, string> = {};
  names.forEach((name, i) => (params[name] = safeDecode(hit.match[i + 1] ?? '')));
  return route.handle({ store, plan, user, params, query, body });
}

function respond(result: Reply<unknown>): Response {
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-cache' };
  if ('allow' in result && result.allow) headers['Allow'] = result.allow;
  return new Response(JSON.stringify(result.body), { status: result.status, headers });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
