/**
 * Validates api2 traffic against the PUBLISHED api2 spec (api2-partner.openapi.yaml, verbatim) with
 * a real validator library: openapi-backend (its router matches an actual path such as
 * `/recipe/12/reviews` to the spec operation; its Ajv validators check parameters, bodies and
 * responses). Loaded once per process (cached on globalThis; the YAML is parsed with `yaml`).
 *
 *   validateApi2Response('GET', '/recipe/12/reviews', 200, body)       → string[] (empty: valid)
 *   validateApi2Request({ method, path, query?, headers?, body? })     → string[] (empty: valid)
 *
 * Spec quirks handled in memory only (the file is never changed):
 * - Some operations have no operationId (GET /recipe/review/{reviewId}, GET /recipe/{recipeId}/review,
 *   POST /grocerylist/item, ...); openapi-backend needs one: `${METHOD} ${path}` is given.
 * - Ajv knows no `date-time` format by itself: an RFC 3339 date-time pattern is registered, so a
 *   legacy `/Date(ms)/` or any other text in a date field is reported. int32/int64 ranges are
 *   openapi-backend's own formats.
 * - The spec documents only 200 answers and no error body. DECISION: an undocumented 4xx/5xx answer
 *   must be `{"Message": string, ...}` (ASP.NET style, api2-notes [I]); an undocumented 2xx/3xx is
 *   reported.
 * - The spec defines securitySchemes (api key header, basic) but applies them to no operation, so
 *   credentials are not part of this validation. Its api key description allows query `api_key`,
 *   which no operation lists as a parameter: it is removed before validation (openapi-backend
 *   refuses query parameters an operation does not declare, which stays so for every other name).
 * - Form-encoded bodies (a string with Content-Type application/x-www-form-urlencoded) are parsed and
 *   their values coerced to the body schema's integer/number/boolean types before validation, as a
 *   form binder would.
 *
 * The spec file: env API2_SPEC_FILE, else the verbatim copy in test/fixtures/.
 */
import { readFileSync } from 'node:fs';
import { OpenAPIBackend } from 'openapi-backend';
import type { Document, Operation } from 'openapi-backend';
import { parse } from 'yaml';

export interface Api2RequestToValidate {
  readonly method: string;
  /** Actual path, e.g. `/recipe/12/review`; a query string here is used when `query` is absent. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** A parsed JSON value, or the raw body text (JSON or form-encoded, per Content-Type). */
  readonly body?: unknown;
}

interface AjvError {
  readonly instancePath?: string;
  readonly message?: string;
  readonly params?: unknown;
}

/** A verbatim copy of ../shared/reference/api2-partner.openapi.yaml (see api2-partner.SOURCE.md beside it). */
const DEFAULT_SPEC = new URL('../fixtures/api2-partner.openapi.yaml', import.meta.url);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const CACHE = Symbol.for('recipe-gateway.api2-openapi');

type Cached = { [CACHE]?: Promise<OpenAPIBackend> };

async function load(): Promise<OpenAPIBackend> {
  const file = process.env['API2_SPEC_FILE'] ?? DEFAULT_SPEC;
  const document = parse(readFileSync(file, 'utf8')) as Document;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      if (operation && !operation.operationId) operation.operationId = `${method.toUpperCase()} ${path}`;
    }
  }
  const api = new OpenAPIBackend({
    definition: document,
    // quick: lazy validator compilation and a synchronous dereference (init ~20 ms instead of ~5 s).
    quick: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => ajv.addFormat('date-time', DATE_TIME),
  });
  return api.init();
}

const holder = globalThis as Cached;
const api: OpenAPIBackend = await (holder[CACHE] ??= load());

export function validateApi2Response(method: string, path: string, status: number, body: unknown): string[] {
  const operation = match(method, path);
  if (!operation) return [`${method.toUpperCase()} ${path}: no such operation in the api2 spec`];
  const documented = Object.keys(operation.responses ?? {});
  const covered = documented.some((code) => code === String(status) || code === `${Math.floor(status / 100)}XX` || code === 'default');
  if (!covered) {
    if (status < 400) return [`${operation.operationId}: status ${status} is not documented (only ${documented.join(', ')})`];
    const message = (body as { Message?: unknown } | null)?.Message;
    return body !== null && typeof body === 'object' && typeof message === 'string' ? [] : [`${operation.operationId}: error ${status} body must be {"Message": string} [I]`];
  }
  const result = api.validator.validateResponse(body, operation, status);
  return format(operation, result.errors);
}

export function validateApi2Request(req: Api2RequestToValidate): string[] {
  const [path = '', search = ''] = req.path.split('?', 2);
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const operation = match(req.method, path);
  if (!operation) return [`${req.method.toUpperCase()} ${path}: no such operation in the api2 spec`];
  const query = req.query ? toMutableQuery(req.query) : Object.fromEntries(new URLSearchParams(search));
  // The api key may travel as query api_key (securitySchemes description [C]), which no operation lists.
  delete query['api_key'];
  const body = bodyFor(operation, headers['content-type'], req.body);
  if (!body.ok) return [`${operation.operationId}: ${body.error}`];
  const result = api.validator.validateRequest({ method: req.method.toLowerCase(), path, query, headers, body: body.value }, operation);
  return format(operation, result.errors);
}

// ---------------------------------------------------------------- internals

function match(method: string, path: string): Operation | undefined {
  return api.router.matchOperation({ method: method.toLowerCase(), path: path.split('?')[0] ?? path, headers: {} });
}

function format(operation: Operation, errors: readonly AjvError[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${operation.operationId}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}${detail(e.params)}`);
}

function detail(params: unknown): string {
  if (!params || typeof params !== 'object') return '';
  const p = params as Record<string, unknown>;
  const named = p['additionalProperty'] ?? p['missingProperty'] ?? p['allowedValues'];
  return named === undefined ? '' : ` (${JSON.stringify(named)})`;
}

function toMutableQuery(query: Readonly<Record<string, string | readonly string[]>>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]]));
}

type BodyResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A text body as the server would bind it: JSON parsed, a form parsed and coerced to the schema's types. */
function bodyFor(operation: Operation, contentType: string | undefined, body: unknown): BodyResult {
  if (typeof body !== 'string') return { ok: true, value: body };
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const schema = (operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.[type]?.schema;
    return { ok: true, value: coerceForm(new URLSearchParams(body), schema) };
  }
  if (body === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false, error: 'the body is not valid JSON' };
  }
}

function coerceForm(form: URLSearchParams, schema: unknown): Record<string, unknown> {
  const properties = (schema as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, text] of form) {
    if (name in out) continue;
    const type = properties[name]?.type;
    if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text))) out[name] = Number(text);
    else if (type === 'boolean' && (text === 'true' || text === 'false')) out[name] = text === 'true';
    else out[name] = text;
  }
  return out;
}
