/**
 * The legacy request a guide shows the api2 call of: the client's own most frequent one (its
 * usage lines' `params`, usage.ts), else the catalogue's example (older lines carry no `params`).
 *
 * DECISION: a write's body is never logged, so a client's own write keeps the catalogue example's
 * body, less the fields the client gave in its URL; its path and query are the client's.
 */
import { operationById } from '../../catalogue/operations.js';
import type { OperationId } from '../../catalogue/operations.js';
import { encodeFormComponent, readPairs } from '../../request/pairs.js';
import { api2Replacement } from './api2-example.js';
import type { Api2Replacement, ExampleRequest } from './api2-example.js';

/** The legacy request of an operation with these `params` (`title_kw=chicken&pg=2`), or undefined when a path parameter is missing. */
export function requestOfParams(operation: OperationId, params: string, example: ExampleRequest | undefined): ExampleRequest | undefined {
  const entry = operationById(operation);
  const method = example?.method ?? entry.forms[0]!.method;
  // The line records no form: the request is written in the well-formed one of its method (not `/grocerylist{id}`).
  const ofMethod = entry.forms.filter((f) => f.method === method);
  const form = ofMethod.find((f) => f.kind !== 'malformed') ?? ofMethod[0] ?? entry.forms[0]!;
  const pairs = readPairs(params);
  const inPath = new Set(entry.params.filter((spec) => spec.in === 'path').map((spec) => spec.name));
  let missing = false;
  const path = form.template.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const value = pairs.find((pair) => pair.name === name)?.value;
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? '');
  });
  if (missing) return undefined;
  const query = pairs.filter((pair) => !inPath.has(pair.name));
  const target = query.length === 0 ? path : `${path}?${query.map((pair) => `${pair.name}=${encodeFormComponent(pair.value)}`).join('&')}`;
  const given = new Set(query.map((pair) => pair.name));
  const body = example?.body ? Object.fromEntries(Object.entries(example.body).filter(([name]) => !given.has(name.toLowerCase()))) : undefined;
  return { method: form.method, target, ...(body && Object.keys(body).length > 0 ? { body } : {}), own: true };
}

/**
 * The api2 call replacing `operation` for the client's most frequent `params` that the mapping
 * can send (most first), else for the catalogue's example; undefined for a legacy-only operation.
 */
export async function replacementFor(operation: OperationId, ranked: readonly string[], example: ExampleRequest | undefined): Promise<Api2Replacement | undefined> {
  for (const params of ranked) {
    const own = requestOfParams(operation, params, example);
    if (own === undefined) continue; // a path parameter left out of the line (it held a secret): the next one
    const replacement = await api2Replacement(operation, own);
    if (replacement === undefined) return undefined;
    if (replacement.example) return replacement;
  }
  return api2Replacement(operation, example);
}
