/**
 * First-value views of legacy parameters, for code that reads a few known names and need not
 * judge the request (the sandbox api2 backend, the api key of a refused target). Checking and
 * canonical forms are src/request/canonicalise.ts's; both read parameters the same way
 * (pairs.ts, body-params.ts).
 */
import type { FieldError } from '../legacy/field-error.js';
import { readBodyParams } from './body-params.js';
import { readPairs } from './pairs.js';
import type { Pair } from './pairs.js';

export type ParamValues = ReadonlyMap<string, string>;

export type BodyParse = { readonly ok: true; readonly values: ParamValues } | { readonly ok: false; readonly error: FieldError };

function firstValues(pairs: readonly Pair[]): ParamValues {
  const values = new Map<string, string>();
  for (const pair of pairs) if (!values.has(pair.name)) values.set(pair.name, pair.value);
  return values;
}

/** Query string → first value of each parameter, names lower-cased. `+` is a space. */
export function parseQuery(query: string): ParamValues {
  return firstValues(readPairs(query));
}

/** A JSON object or form body → first value of each parameter, names lower-cased. */
export function parseBody(contentType: string | undefined, body: Uint8Array | null): BodyParse {
  const read = readBodyParams(contentType, body);
  return read.ok ? { ok: true, values: firstValues(read.pairs) } : read;
}
