/**
 * The canonical request: a legacy request checked and brought to one form, built once, after
 * which nothing reads the raw query or body again. The cache key, the request forwarded to the
 * legacy backend and the api2 call are all rendered from it (forward-request.ts, cache-key.ts,
 * mappings/), so what is checked is what is keyed is what is forwarded.
 *
 * Checks, in order, shared with the sandbox legacy backend so both answer alike: `api_key` present
 * (403), user credentials present for user operations (403), the body parses (400), every parameter
 * given once and valid (400, naming each field and rule). Each decision is marked where it is made.
 */
import type { ParamSpec } from '../catalogue/operations.js';
import type { RouteMatch } from '../catalogue/route-table.js';
import { checkRaw } from '../legacy/param-rules.js';
import type { BasicCredentials } from '../legacy/basic-auth.js';
import type { FieldError } from '../legacy/field-error.js';
import { readBodyParams } from './body-params.js';
import type { BodyKind, BodyPair } from './body-params.js';
import type { Credentials } from './credentials.js';
import type { Pair } from './pairs.js';

export type UnknownParameters = 'drop' | 'reject';

const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,40}$/;

export interface RequestParts {
  /** The query's parameters (src/request/pairs.ts). */
  readonly query: readonly Pair[];
  /** Read from the same query and the Authorization header (src/request/credentials.ts). */
  readonly credentials: Credentials;
  readonly contentType: string | undefined;
  readonly body: Uint8Array | null;
}

export interface CanonicalParam {
  readonly spec: ParamSpec;
  /** The validated, typed value. */
  readonly value: unknown;
  /** Its canonical text, as forwarded and keyed; null when it restricts nothing and is left out. */
  readonly text: string | null;
  readonly carriedIn: 'path' | 'query' | 'body';
  /** The JSON value as sent, for a parameter of a JSON body. */
  readonly json?: string | number | boolean;
}

export interface CanonicalParams {
  readonly ok: true;
  readonly match: RouteMatch;
  /** Never logged, never keyed. */
  readonly apiKey: string;
  readonly user: BasicCredentials | null;
  readonly authorization: string | undefined;
  /** In catalogue order. */
  readonly params: readonly CanonicalParam[];
  /** Typed values by parameter name (what the api2 mappings read). */
  readonly values: Readonly<Record<string, unknown>>;
  readonly bodyKind: BodyKind;
  /** Whether paid-plan parameters restrict the answer (the backend refuses them on a free plan). */
  readonly paidParams: boolean;
}

export interface Refusal {
  readonly ok: false;
  readonly status: 400 | 403;
  readonly message: string;
  readonly errors?: readonly FieldError[];
}

export const MESSAGES = {
  apiKeyMissing: 'Authentication failed: the api_key query parameter is required.',
  userMissing: 'Authentication failed: this operation needs the user credentials (HTTP Basic).',
} as const;

export function canonicalise(match: RouteMatch, parts: RequestParts, unknown: UnknownParameters = 'drop'): CanonicalParams | Refusal {
  const { query, credentials } = parts;
  const { apiKeys, apiKey, user } = credentials;
  // DECISION: presence of credentials is checked before the rules, their validity after (only the
  // backend knows the keys), so the gateway and the legacy backend answer alike every request the
  // gateway can judge.
  if (!apiKey) return { ok: false, status: 403, message: MESSAGES.apiKeyMissing };
  const { operation } = match;
  if (operation.auth === 'user' && !user) return { ok: false, status: 403, message: MESSAGES.userMissing };
  const body = readBodyParams(parts.contentType, parts.body);
  if (!body.ok) return invalid([body.error]);

  const errors: FieldError[] = apiKeys.length > 1 ? [givenTwice('api_key')] : [];
  const params: CanonicalParam[] = [];
  const values: Record<string, unknown> = {};
  for (const spec of operation.params) {
    const found = occurrences(spec, match, query, body.pairs);
    // DECISION: a known parameter given twice in one place (`title_kw=X&title_kw=EVIL`,
    // `{"Rating":5,"rating":9}`) is refused with 400: ASP.NET would join or pick, and no reading is safe to guess.
    if (found.given.length > 1) {
      errors.push(givenTwice(spec.name));
      continue;
    }
    const given = found.given[0];
    // DECISION: an absent parameter with a default (pg, rpp) takes it, and it is forwarded explicitly.
    const raw = given?.value ?? spec.defaultValue;
    if (raw === undefined || raw === '') {
      if (spec.required) errors.push({ field: spec.name, message: `${spec.name} is required` });
      continue;
    }
    const parsed = checkRaw(spec.rule, raw);
    if (!parsed.ok) {
      errors.push({ field: spec.name, message: `${spec.name} must ${spec.rule.rule}` });
      continue;
    }
    values[spec.name] = parsed.value;
    const json = (given as BodyPair | undefined)?.json;
    params.push({ spec, value: parsed.value, text: textOf(spec, parsed.value), carriedIn: found.carriedIn, ...(json !== undefined && found.carriedIn === 'body' ? { json } : {}) });
  }
  // DECISION: a parameter the operation does not know is dropped (never forwarded, never keyed), or
  // refused with 400 when `unknownParameters` is `reject`.
  if (unknown === 'reject') errors.push(...unknownNames(operation.params, query, body.pairs));
  if (errors.length > 0) return invalid(errors);
  const paidParams = paidParamNames(params).length > 0;
  return { ok: true, match, apiKey, user, authorization: credentials.authorization, params, values, bodyKind: body.kind, paidParams };
}

/** The paid-plan parameters that restrict the answer (the backend refuses them on a free plan). */
export function paidParamNames(params: readonly CanonicalParam[]): string[] {
  return params.filter((param) => param.spec.paidPlan === true && param.text !== null).map((param) => param.spec.name);
}

/**
 * Where a parameter was given.
 * DECISION: names match without regard to case (the legacy server was ASP.NET; pairs.ts and
 * body-params.ts lower-case them) and are forwarded in the document's spelling; a parameter taken
 * from the query or the body takes the body's value when given in both (the query's copy is dropped).
 */
function occurrences(spec: ParamSpec, match: RouteMatch, query: readonly Pair[], body: readonly BodyPair[]): { given: readonly Pair[]; carriedIn: CanonicalParam['carriedIn'] } {
  if (spec.in === 'path') {
    const value = match.pathParams[spec.name];
    return { given: value === undefined ? [] : [{ name: spec.name, value }], carriedIn: 'path' };
  }
  if (spec.in === 'input') {
    const inBody = body.filter((pair) => pair.name === spec.name);
    if (inBody.length > 0) return { given: inBody, carriedIn: 'body' };
  }
  return { given: query.filter((pair) => pair.name === spec.name), carriedIn: 'query' };
}

function textOf(spec: ParamSpec, value: unknown): string | null {
  if (spec.rule.render) return spec.rule.render(value);
  return typeof value === 'string' ? value : String(value);
}

function unknownNames(specs: readonly ParamSpec[], query: readonly Pair[], body: readonly BodyPair[]): FieldError[] {
  const inQuery = new Set(['api_key', ...specs.filter((s) => s.in !== 'path').map((s) => s.name)]);
  const inBody = new Set(specs.filter((s) => s.in === 'input').map((s) => s.name));
  const names = new Set([...query.filter((p) => !inQuery.has(p.name)), ...body.filter((p) => !inBody.has(p.name))].map((p) => p.name));
  // A name is echoed in the error only when it is a plain token (it came from the client).
  return [...names].map((name) =>
    PLAIN_NAME.test(name) ? { field: name, message: `${name} is not a parameter of this operation` } : { field: 'query', message: 'a parameter this operation does not take was given' },
  );
}

function givenTwice(name: string): FieldError {
  return { field: name, message: `${name} must be given once` };
}

function invalid(errors: readonly FieldError[]): Refusal {
  return { ok: false, status: 400, message: `The request is invalid: ${errors.map((e) => e.message).join('; ')}.`, errors };
}
