/**
 * The api2 sandbox backend as a Hono app: the api2 operations the gateway maps legacy calls to,
 * with the published spec's paths, parameter names and response schemas (JSON only).
 * Runtime-agnostic (no `node:` imports); api2-start.ts serves it over TLS.
 *
 * One catch-all handler over a small route table (so paths match without regard to case, as
 * ASP.NET routes do, a known path with another method gets 405, and every call is counted in
 * `store.calls` under "METHOD /template").
 *
 * DECISIONS:
 * - Check order: route (404/405) → api key present and known (403) → HTTP Basic present on user
 *   operations, valid whenever given (403) → path, query and body rules (400) → paid-plan search
 *   parameters with the free key (403) → act.
 * - The api key: header `X-BigOven-API-Key`, else query `api_key` [C]; the header wins when both.
 * - Bodies: JSON object or form-encoded (the spec lists both); parameters never come from the
 *   query string (api2 binds bodies [FromBody] [I]). Field names match without regard to case.
 * - Errors: `{"Message": "..."}` (ASP.NET style [I]), plus `ModelState` naming each broken field on
 *   400. Unexpected exceptions: 500 "An error has occurred.".
 * - Path ids: recipeId and the integer reviewId must be whole numbers (else 400, ASP.NET's model
 *   binding answer [I]). GET /recipe/review/{reviewId} resolves string-style IDs only (else 404).
 * - GET /recipe/{recipeId}/reviews: pg default 1, rpp default 10 (a legacy client library's
 *   default [I]), rpp at most 50.
 * - Writes answer 200 (the spec documents only 200): POST review, DELETE review, PUT and DELETE
 *   grocery item `{}`; PUT review the Review; POST grocery item the ShoppingListLine.
 * - Every answer: `Content-Type: application/json; charset=utf-8`, `Cache-Control: no-cache`
 *   (ASP.NET Web API's default [I]). HEAD is answered as GET (the server sends no body).
 * - `store.calls` counts every request that matched a route (method and path), before any check:
 *   refused calls count too; unknown paths and 405s do not.
 */
import { Hono } from 'hono';
import { parseBasic } from '../legacy/credentials.js';
import { parseBody, parseQuery } from '../request/first-values.js';
import type { ParamValues } from '../request/first-values.js';
import { legacyErrorBody } from '../legacy/render.js';
import type { Plan, SandboxUser } from './dataset/dataset.js';
import { COMMON_MESSAGES } from './messages.js';
import { paidParamsOf, parseGroceryBody, parseReviewBody, parseSearch } from './api2-input.js';
import type { FieldError, Parsed } from './api2-input.js';
import type { Api2Result, Api2Store } from './api2-store.js';

export const API2_MESSAGES = {
  keyMissing: 'Authentication failed: an api key is required (header X-BigOven-API-Key or query api_key).',
  keyUnknown: 'Authentication failed: unknown api key.',
  userMissing: 'Authentication failed: this operation needs the user credentials (HTTP Basic).',
  invalid: 'The request is invalid.',
  ...COMMON_MESSAGES,
} as const;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly allow?: string;
}

interface Call {
  readonly store: Api2Store;
  readonly plan: Plan;
  readonly user: SandboxUser | null;
  readonly params: Readonly<Record<string, string>>;
  readonly query: ParamValues;
  readonly body: ParamValues;
}

type Auth = 'key' | 'user';

interface Route {
  readonly method: string;
  readonly template: string;
  readonly auth: Auth;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handle: (call: Call) => Answer;
}

const EMPTY: Record<string, never> = {};

// ---------------------------------------------------------------- routes

function route(method: string, template: string, auth: Auth, handle: (call: Call) => Answer): Route {
  const names: string[] = [];
  const source = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, template, auth, pattern: new RegExp(`^${source}/?$`, 'i'), names, handle };
}

const ROUTES: readonly Route[] = [
  route('GET', '/recipes', 'key', (c) => {
    const query = parseSearch(c.query);
    if (!query.ok) return invalid(query.errors);
    const paid = paidParamsOf(query.value);
    if (paid.length > 0 && c.plan === 'free') return error(403, API2_MESSAGES.paidOnly(paid));
    return answer(c.store.search(query.value, c.user?.userId ?? null));
  }),
  route('GET', '/recipe/{recipeId}/reviews', 'key', (c) =>
    withInts(c, ['recipeId'], ([recipeId]) => {
      const paging = pagingOf(c.query);
      if (!paging.ok) return invalid(paging.errors);
      return answer(c.store.listReviews(recipeId, c.user?.userId ?? null, paging.value.page, paging.value.perPage));
    }),
  ),
  route('GET', '/recipe/{recipeId}/review', 'user', (c) => withInts(c, ['recipeId'], ([recipeId]) => answer(c.store.myReview(userOf(c), recipeId)))),
  route('POST', '/recipe/{recipeId}/review', 'user', (c) =>
    withInts(c, ['recipeId'], ([recipeId]) => withBody(parseReviewBody(c.body), (body) => answer(c.store.postReview(userOf(c), recipeId, body), EMPTY))),
  ),
  route('GET', '/recipe/review/{reviewId}', 'key', (c) => answer(c.store.reviewByGuid(c.params['reviewId'] ?? ''))),
  route('PUT', '/recipe/review/{reviewId}', 'user', (c) =>
    withBody(parseReviewBody(c.body), (body) => answer(c.store.updateReviewByGuid(userOf(c), c.params['reviewId'] ?? '', body))),
  ),
  route('GET', '/recipe/{recipeId}/review/{reviewId}', 'key', (c) =>
    withInts(c, ['recipeId', 'reviewId'], ([recipeId, reviewId]) => answer(c.store.reviewOfRecipe(recipeId, reviewId))),
  ),
  route('PUT', '/recipe/{recipeId}/review/{reviewId}', 'user', (c) =>
    withInts(c, ['recipeId', 'reviewId'], ([recipeId, reviewId]) =>
      withBody(parseReviewBody(c.body), (body) => answer(c.store.updateReviewOfRecipe(userOf(c), recipeId, reviewId, body))),
    ),
  ),
  route('DELETE', '/recipe/{recipeId}/review/{reviewId}', 'user', (c) =>
    withInts(c, ['recipeId', 'reviewId'], ([recipeId, reviewId]) => answer(c.store.deleteReviewOfRecipe(userOf(c), recipeId, reviewId), EMPTY)),
  ),
  route('GET', '/grocerylist', 'user', (c) => ({ status: 200, body: c.store.groceryList(userOf(c)) })),
  route('POST', '/grocerylist/item', 'user', (c) =>
    withBody(parseGroceryBody(c.body), (body) => ({ status: 200, body: c.store.addGroceryItem(userOf(c), body) })),
  ),
  route('PUT', '/grocerylist/item/{guid}', 'user', (c) =>
    withBody(parseGroceryBody(c.body), (body) => answer(c.store.updateGroceryItem(userOf(c), c.params['guid'] ?? '', body), EMPTY)),
  ),
  route('DELETE', '/grocerylist/item/{guid}', 'user', (c) => answer(c.store.deleteGroceryItem(userOf(c), c.params['guid'] ?? ''), EMPTY)),
];

// ---------------------------------------------------------------- app

export function createApi2SandboxApp(store: Api2Store): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    let result: Answer;
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

async function answerRequest(store: Api2Store, req: Request): Promise<Answer> {
  const url = new URL(req.url);
  const method = req.method.toUpperCase() === 'HEAD' ? 'GET' : req.method.toUpperCase();
  const path = url.pathname;
  const matched = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m !== null);
  if (matched.length === 0) return error(404, API2_MESSAGES.notFound);
  const hit = matched.find((x) => x.r.method === method);
  if (!hit?.m) {
    const allow = [...new Set(matched.flatMap((x) => (x.r.method === 'GET' ? ['GET', 'HEAD'] : [x.r.method])))].join(', ');
    return { ...error(405, API2_MESSAGES.methodNotAllowed(req.method)), allow };
  }
  const found = hit.r;
  const key = `${found.method} ${found.template}`;
  store.calls[key] = (store.calls[key] ?? 0) + 1;

  const query = parseQuery(url.search.slice(1));
  const apiKey = req.headers.get('x-bigoven-api-key') || query.get('api_key');
  if (!apiKey) return error(403, API2_MESSAGES.keyMissing);
  const plan = store.planOf(apiKey);
  if (!plan) return error(403, API2_MESSAGES.keyUnknown);
  const credentials = parseBasic(req.headers.get('authorization') ?? undefined);
  if (!credentials && found.auth === 'user') return error(403, API2_MESSAGES.userMissing);
  const user = credentials ? store.authenticate(credentials.user, credentials.password) : null;
  if (credentials && !user) return error(403, API2_MESSAGES.badUser);

  let body: ParamValues = new Map();
  if (method === 'POST' || method === 'PUT') {
    const parsed = parseBody(req.headers.get('content-type') ?? undefined, new Uint8Array(await req.arrayBuffer()));
    if (!parsed.ok) return invalid([parsed.error]);
    body = parsed.values;
  }
  const params: Record<string, string> = {};
  found.names.forEach((name, i) => (params[name] = safeDecode(hit.m?.[i + 1] ?? '')));
  return found.handle({ store, plan, user, params, query, body });
}

function respond(result: Answer): Response {
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-cache' };
  if (result.allow) headers['Allow'] = result.allow;
  return new Response(JSON.stringify(result.body), { status: result.status, headers });
}

// ---------------------------------------------------------------- helpers

function error(status: number, message: string): Answer {
  return { status, body: { Message: message } };
}

function invalid(errors: readonly FieldError[]): Answer {
  return { status: 400, body: legacyErrorBody(`${API2_MESSAGES.invalid} ${errors.map((e) => `${e.message}.`).join(' ')}`, errors) };
}

/** A store result as an answer; `replaceWith`: the body to send instead of the value on success. */
function answer<T>(result: Api2Result<T>, replaceWith?: unknown): Answer {
  if (!result.ok) return error(result.status, result.message);
  return { status: 200, body: replaceWith ?? result.value };
}

function withBody<T>(parsed: Parsed<T>, act: (value: T) => Answer): Answer {
  return parsed.ok ? act(parsed.value) : invalid(parsed.errors);
}

/** Path ids as positive 32-bit integers (the spec's int32 / int64 ids), else 400. */
function withInts<const N extends readonly string[]>(c: Call, names: N, act: (ids: { -readonly [K in keyof N]: number }) => Answer): Answer {
  const ids: number[] = [];
  const errors: FieldError[] = [];
  for (const name of names) {
    const raw = c.params[name] ?? '';
    const n = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (n >= 1 && n <= 2_147_483_647) ids.push(n);
    else errors.push({ field: name, message: `${name} must be a whole number from 1 to 2147483647` });
  }
  return errors.length > 0 ? invalid(errors) : act(ids as { -readonly [K in keyof N]: number });
}

function pagingOf(query: ParamValues): Parsed<{ page: number; perPage: number }> {
  const errors: FieldError[] = [];
  const read = (name: string, max: number, fallback: number): number => {
    const raw = query.get(name);
    if (raw === undefined || raw === '') return fallback;
    const n = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : NaN;
    if (n >= 1 && n <= max) return n;
    errors.push({ field: name, message: `${name} must be a whole number from 1 to ${max}` });
    return fallback;
  };
  const value = { page: read('pg', 100_000, 1), perPage: read('rpp', 50, 10) };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

function userOf(c: Call): number {
  if (!c.user) throw new Error('user operation without an authenticated user');
  return c.user.userId;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
