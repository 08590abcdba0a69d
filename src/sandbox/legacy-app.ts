/**
 * The legacy sandbox backend as a Hono app: what the real legacy server answers, close enough for
 * the gateway's tests and shadow comparisons. Runtime-agnostic (no `node:` imports).
 *
 * One catch-all handler: target normalisation → route table → shared request checks
 * (canonicalise) → key, user and plan checks → store → legacy rendering → HTTP details
 * (ETag/304, gzip, Cache-Control).
 *
 * DECISIONS:
 * - Check order: target (400/414) → route (404/405) → api_key present (403) → Basic present on user
 *   operations (403) → body and parameter rules (400) → api_key known (403) → Basic valid, whenever
 *   given, also on search and recipe detail (403) → paid-plan parameters with a free key (403) → act.
 * - 404 and 405 use ASP.NET Web API's messages; 405 carries `Allow` (HEAD listed with GET).
 * - Unexpected exceptions: 500 "An error has occurred." (ASP.NET's wording), never a stack trace.
 * - The HTTP details (Cache-Control, ETag/304, gzip, Vary) are the legacy answer policy
 *   (src/legacy/answer-policy.ts), which the gateway's api2 mode applies too.
 */
import { Hono } from 'hono';
import type { HonoRequest } from 'hono';
import type { Operation } from '../catalogue/operations.js';
import { CATALOGUE_ROUTES } from '../catalogue/route-table.js';
import type { RouteTable } from '../catalogue/route-table.js';
import { normaliseTarget, originFormOf } from '../http/target.js';
import { cacheControlOf, deliver, NO_STORE } from '../legacy/answer-policy.js';
import { parseBasic } from '../legacy/basic-auth.js';
import type { BasicCredentials } from '../legacy/basic-auth.js';
import { positiveId } from '../legacy/param-rules.js';
import { parseQuery } from '../request/first-values.js';
import { canonicalise, MESSAGES, paidParamNames } from '../request/canonicalise.js';
import { credentialsOf } from '../request/credentials.js';
import { readPairs } from '../request/pairs.js';
import { negotiateEncoding } from '../request/encoding.js';
import type { Compression } from '../http/compression.js';
import { renderError, renderLegacy, wantsJson } from '../legacy/answer-body.js';
import { RecipeDetailSchema } from '../legacy/records.js';
import type { FieldError } from '../legacy/field-error.js';
import { SANDBOX_BEHAVIOUR } from './behaviour.js';
import { Values } from './legacy-values.js';
import type { SandboxUser } from './dataset/dataset.js';
import { COMMON_MESSAGES } from './messages.js';
import { LEGACY_REFUSALS } from '../legacy/refusal-words.js';
import type { LegacyStore } from './legacy-store.js';

export const SANDBOX_MESSAGES = {
  unknownKey: LEGACY_REFUSALS.unknownKey,
  ...COMMON_MESSAGES,
} as const;

/** What a request is answered with, before the HTTP details are applied. */
interface Answer {
  readonly status: number;
  /** null: no body and no Content-Type (204). */
  readonly body: string | null;
  readonly contentType?: string;
  readonly cacheControl: string;
  readonly allow?: string;
}

interface RequestView {
  readonly method: string;
  /** Origin-form request target (path and query). */
  readonly target: string;
  readonly json: boolean;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly acceptEncoding: string | undefined;
  readonly readBody: () => Promise<Uint8Array>;
}

const RECIPE_DETAIL = /^(?:\/v[0-9]{1,3})?\/recipe\/([^/]+)\/?$/i;
const ENCODER = new TextEncoder();

export function createLegacySandboxApp(store: LegacyStore, compression?: Compression): Hono {
  const app = new Hono();
  const routes = CATALOGUE_ROUTES;
  app.all('*', async (c) => {
    const view = viewOf(c.req, c.env);
    let answer: Answer;
    try {
      answer = await answerRequest(store, routes, view);
    } catch {
      answer = failure(500, SANDBOX_MESSAGES.internal, view.json);
    }
    return finish(answer, view, compression);
  });
  app.onError((_error, c) => {
    const rendered = renderError(500, SANDBOX_MESSAGES.internal, wantsJson(c.req.header('accept'), c.req.header('content-type')));
    return new Response(rendered.body, { status: 500, headers: { 'Content-Type': rendered.contentType, 'Cache-Control': NO_STORE } });
  });
  return app;
}

function viewOf(req: HonoRequest, env: unknown): RequestView {
  const contentType = req.header('content-type');
  return {
    method: req.method.toUpperCase(),
    target: rawTarget(req.url, env),
    json: wantsJson(req.header('accept'), contentType),
    contentType,
    authorization: req.header('authorization'),
    ifNoneMatch: req.header('if-none-match'),
    acceptEncoding: req.header('accept-encoding'),
    readBody: async () => new Uint8Array(await req.arrayBuffer()),
  };
}

/**
 * DECISION: the request target as the client sent it. On @hono/node-server, `c.req.url` went
 * through the WHATWG URL parser, which resolves dot segments (`/a/%2e%2e/recipes` → `/recipes`)
 * before normaliseTarget can refuse them; the raw `incoming.url` of the Node bindings is used when
 * present (duck-typed, no `node:` import). Elsewhere: originFormOf(c.req.url).
 */
function rawTarget(url: string, env: unknown): string {
  const incoming = (env as { incoming?: { url?: unknown } } | undefined)?.incoming;
  const raw = incoming?.url;
  return typeof raw === 'string' && raw.startsWith('/') ? raw : originFormOf(url);
}

// ---------------------------------------------------------------- request → answer

async function answerRequest(store: LegacyStore, routes: RouteTable, req: RequestView): Promise<Answer> {
  const target = normaliseTarget(req.target);
  if (!target.ok) return failure(target.status, `The request is invalid: ${target.reason}.`, req.json);
  const method = req.method === 'HEAD' ? 'GET' : req.method;

  const match = routes.match(method, target.path);
  if (!match) {
    const detail = RECIPE_DETAIL.exec(target.path);
    if (detail?.[1] !== undefined) {
      return method === 'GET' ? recipeDetail(store, detail[1], target.query, req) : notAllowed(req, ['GET']);
    }
    const allowed = routes.methodsFor(target.path);
    return allowed.length > 0 ? notAllowed(req, allowed) : failure(404, SANDBOX_MESSAGES.notFound, req.json);
  }

  const body = method === 'GET' ? null : await req.readBody();
  const query = readPairs(target.query);
  const checked = canonicalise(match, { query, credentials: credentialsOf(query, req.authorization), contentType: req.contentType, body });
  if (!checked.ok) return failure(checked.status, checked.message, req.json, checked.errors);
  const plan = store.planOf(checked.apiKey);
  if (!plan) return failure(403, SANDBOX_MESSAGES.unknownKey, req.json);
  const user = authenticate(store, checked.user);
  if (user === false) return failure(403, SANDBOX_MESSAGES.badUser, req.json);
  const paid = paidParamNames(checked.params);
  if (paid.length > 0 && plan === 'free') return failure(403, SANDBOX_MESSAGES.paidOnly(paid), req.json);

  const outcome = SANDBOX_BEHAVIOUR[match.operation.id].act(store, new Values(checked.values), user);
  if (!outcome.ok) return failure(outcome.status, outcome.message, req.json);
  return success(match.operation, outcome.value, req.json, user !== null);
}

/** The uncatalogued `GET /recipe/{id}` (RecipeInfo + Ingredients + Instructions, root `Recipe`): api_key only. */
function recipeDetail(store: LegacyStore, rawId: string, query: string, req: RequestView): Answer {
  const apiKey = parseQuery(query).get('api_key');
  if (!apiKey) return failure(403, MESSAGES.apiKeyMissing, req.json);
  const id = positiveId.schema.safeParse(safeDecode(rawId));
  if (!id.success) {
    const error: FieldError = { field: 'id', message: `id must ${positiveId.rule}` };
    return failure(400, `The request is invalid: ${error.message}.`, req.json, [error]);
  }
  if (!store.planOf(apiKey)) return failure(403, SANDBOX_MESSAGES.unknownKey, req.json);
  const user = authenticate(store, parseBasic(req.authorization));
  if (user === false) return failure(403, SANDBOX_MESSAGES.badUser, req.json);
  const found = store.recipeDetail(id.data as number, user?.userId ?? null);
  if (!found.ok) return failure(found.status, found.message, req.json);
  const rendered = renderLegacy(200, found.value, req.json, 'Recipe', undefined, RecipeDetailSchema);
  return { ...rendered, cacheControl: cacheControlOf('public', user !== null) };
}

/** null: no credentials given; false: given but wrong. */
function authenticate(store: LegacyStore, credentials: BasicCredentials | null): SandboxUser | null | false {
  if (!credentials) return null;
  return store.authenticate(credentials.user, credentials.password) ?? false;
}

/** `withUser`: the request carried a user, which makes a `public` answer `no-store`. */
function success(operation: Operation, value: unknown, json: boolean, withUser: boolean): Answer {
  const shape = operation.answer;
  const cacheControl = cacheControlOf(shape.cacheControl, withUser);
  if (shape.status === 204) return { status: 204, body: null, cacheControl };
  return { ...renderLegacy(shape.status, value, json, shape.xmlRoot ?? 'Result', shape.xmlItem, shape.record), cacheControl };
}

function failure(status: number, message: string, json: boolean, errors?: readonly FieldError[]): Answer {
  return { ...renderError(status, message, json, errors), cacheControl: NO_STORE };
}

function notAllowed(req: RequestView, methods: readonly string[]): Answer {
  const allow = methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ');
  return { ...failure(405, SANDBOX_MESSAGES.methodNotAllowed(req.method), req.json), allow };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------- answer → HTTP response

async function finish(answer: Answer, req: RequestView, compression: Compression | undefined): Promise<Response> {
  const body = answer.body === null ? null : ENCODER.encode(answer.body);
  const delivered = await deliver(
    { status: answer.status, body, contentType: answer.contentType, cacheControl: answer.cacheControl },
    { method: req.method, ifNoneMatch: req.ifNoneMatch, coding: negotiateEncoding(req.acceptEncoding), compression },
  );
  const headers = delivered.headers;
  if (answer.allow) headers['allow'] = answer.allow;
  return new Response(delivered.body, { status: delivered.status, headers });
}
