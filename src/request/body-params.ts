/**
 * Parameters carried in a request body (DECISION, the legacy document is silent): a JSON object
 * (`Content-Type: application/json`) or a form (`application/x-www-form-urlencoded`). A body of
 * another type carries no parameters and is forwarded as it came.
 *
 * A JSON field keeps the JSON type it was sent with, so that the body rendered for the legacy
 * backend gives its typed binder what the client gave it (`"rating": 5` stays a number).
 */
import type { FieldError } from '../legacy/field-error.js';
import { readPairs } from './pairs.js';
import type { Pair } from './pairs.js';

export type BodyKind = 'json' | 'form' | 'none';

export interface BodyPair extends Pair {
  /** The JSON value as sent (a JSON body only). */
  readonly json?: string | number | boolean;
}

export type BodyParams =
  | { readonly ok: true; readonly kind: BodyKind; readonly pairs: readonly BodyPair[] }
  | { readonly ok: false; readonly error: FieldError };

const NONE: BodyParams = { ok: true, kind: 'none', pairs: [] };
const decoder = new TextDecoder();

export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/json\s*(;|$)/i.test(contentType);
}

export function isFormContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
}

export function readBodyParams(contentType: string | undefined, body: Uint8Array | null): BodyParams {
  if (!body || body.byteLength === 0) return NONE;
  if (isFormContentType(contentType)) return { ok: true, kind: 'form', pairs: readPairs(decoder.decode(body)) };
  if (!isJsonContentType(contentType)) return NONE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(body));
  } catch {
    return { ok: false, error: { field: 'body', message: 'body must be a valid JSON object' } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: { field: 'body', message: 'body must be a JSON object' } };
  }
  const pairs: BodyPair[] = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    const name = key.toLowerCase();
    if (typeof value === 'string') pairs.push({ name, value, json: value });
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') pairs.push({ name, value: String(value), json: value });
    else return { ok: false, error: { field: key, message: `${key} must be a text or a number` } };
  }
  return { ok: true, kind: 'json', pairs };
}
