/**
 * Parameter carriage and validation, shared by the gateway and the sandbox legacy backend.
 *
 * DECISIONS (the legacy document is silent, part 4 "Gaps"):
 * - POST/PUT parameters are accepted in the query string, in a JSON object body
 *   (`Content-Type: application/json`) or in a form-encoded body
 *   (`application/x-www-form-urlencoded`). A body of another type is not read for parameters.
 * - A parameter given in both the body and the query string takes the body's value.
 * - A parameter repeated in one place takes its first value.
 * - Parameter names match without regard to case (the legacy server was ASP.NET).
 * - `api_key` travels in the query string only (api2-notes, authentication [C]).
 */
import type { Operation, ParamSpec } from '../catalogue/operations.js';

export type ParamValues = ReadonlyMap<string, string>;

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export type BodyParse = { readonly ok: true; readonly values: ParamValues } | { readonly ok: false; readonly error: FieldError };

const EMPTY: ParamValues = new Map();

/** Query string → first value of each parameter, names lower-cased. `+` is a space. */
export function parseQuery(query: string): ParamValues {
  if (query === '') return EMPTY;
  const values = new Map<string, string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const name = decodeFormComponent(rawName).toLowerCase();
    if (!values.has(name)) values.set(name, decodeFormComponent(rawValue));
  }
  return values;
}

/** Form decoding of one name or value: `+` is a space; a malformed escape is kept as it is. */
export function decodeFormComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // DECISION: a malformed escape is kept literally rather than refused; rules then judge the value.
    return spaced;
  }
}

export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/json\s*(;|$)/i.test(contentType);
}

export function isFormContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
}

export function parseBody(contentType: string | undefined, body: Uint8Array | null): BodyParse {
  if (!body || body.byteLength === 0) return { ok: true, values: EMPTY };
  if (isFormContentType(contentType)) {
    return { ok: true, values: parseQuery(new TextDecoder().decode(body)) };
  }
  if (!isJsonContentType(contentType)) return { ok: true, values: EMPTY };
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { ok: false, error: { field: 'body', message: 'body must be a valid JSON object' } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: { field: 'body', message: 'body must be a JSON object' } };
  }
  const values = new Map<string, string>();
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const name = key.toLowerCase();
    if (values.has(name) || value === null || value === undefined) continue;
    if (typeof value === 'string') values.set(name, value);
    else if (typeof value === 'number' && Number.isFinite(value)) values.set(name, String(value));
    else if (typeof value === 'boolean') values.set(name, String(value));
    else return { ok: false, error: { field: key, message: `${key} must be a text or a number` } };
  }
  return { ok: true, values };
}

export type Validated =
  | { readonly ok: true; readonly values: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Applies the operation's parameter rules; every broken rule is reported, in catalogue order. */
export function validateParams(
  operation: Operation,
  pathParams: Readonly<Record<string, string>>,
  query: ParamValues,
  body: ParamValues,
): Validated {
  const values: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const spec of operation.params) {
    const raw = rawValueOf(spec, pathParams, query, body);
    if (raw === undefined || (raw === '' && spec.required)) {
      if (spec.required) errors.push({ field: spec.name, message: `${spec.name} is required` });
      continue;
    }
    if (raw === '' && !spec.required) continue;
    const parsed = spec.rule.schema.safeParse(raw);
    if (parsed.success) values[spec.name] = parsed.data;
    else errors.push({ field: spec.name, message: `${spec.name} must ${spec.rule.rule}` });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}

function rawValueOf(
  spec: ParamSpec,
  pathParams: Readonly<Record<string, string>>,
  query: ParamValues,
  body: ParamValues,
): string | undefined {
  switch (spec.in) {
    case 'path':
      return pathParams[spec.name];
    case 'query':
      return query.get(spec.name);
    case 'input':
      return body.get(spec.name) ?? query.get(spec.name);
  }
}

/** The paid-plan parameters present in a request (the backend refuses them on a free plan). */
export function paidParamsUsed(operation: Operation, query: ParamValues): string[] {
  return operation.params
    .filter((spec) => {
      const value = query.get(spec.name) ?? '';
      return spec.paidPlan && value !== '' && value !== spec.neutralValue;
    })
    .map((spec) => spec.name);
}
