/**
 * Rendering legacy answers: content negotiation, JSON or XML bodies, and the legacy error shape.
 *
 * Negotiation (api2-notes, authentication table [C]): JSON when the request's `Accept` or
 * `Content-Type` names application/json, XML otherwise.
 *
 * DECISION, the legacy error body (the document is silent; ASP.NET style per api2-notes [I]):
 *   JSON  {"Message":"<sentence>"} and, for invalid input, "ModelState":{"<field>":["<rule>"]}
 *   XML   <Error><Message>…</Message><ModelState><field>…</field></ModelState></Error>
 * The Message names every broken field and its rule. Gateway-made errors also carry an
 * `X-Gateway-Error` header with a short reason code; legacy backend errors never do.
 */
import { z } from 'zod';
import { toLegacyJson, toLegacyJsonBytes } from './legacy-json.js';
import type { FieldError } from './field-error.js';
import { toXml } from './xml.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'application/xml; charset=utf-8';

const encoder = new TextEncoder();

export function wantsJson(accept: string | undefined, contentType: string | undefined): boolean {
  return jsonChosenBy(accept, contentType) !== undefined;
}

/**
 * What makes the answer JSON: `accept`, or `content-type` alone (a request header many HTTP
 * libraries drop when they follow a redirect, so such a client gets XML after a 308 under
 * `plainHttpCredentials: redirect`); undefined: the answer is XML.
 */
export function jsonChosenBy(accept: string | undefined, contentType: string | undefined): 'accept' | 'content-type' | undefined {
  if (accept !== undefined && accept.toLowerCase().includes('application/json')) return 'accept';
  if (contentType !== undefined && contentType.toLowerCase().includes('application/json')) return 'content-type';
  return undefined;
}

export interface Rendered {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * Renders a legacy record; `rootName` is its XML type name, `itemName` names top-level array
 * entries, `schema` (records.ts) orders the JSON members and decides null versus absent.
 * JSON is written as the legacy .NET service wrote it (legacy-json.ts).
 */
export function renderLegacy(
  status: number,
  value: unknown,
  json: boolean,
  rootName: string,
  itemName?: string,
  schema?: z.ZodType,
): Rendered {
  return json
    ? { status, contentType: JSON_TYPE, body: toLegacyJson(value, schema) }
    : { status, contentType: XML_TYPE, body: toXml(rootName, value, itemName) };
}

/**
 * The same, as the bytes an answer sends: the JSON writer's bytes as it writes them (no string
 * flattened, then encoded), the XML encoded once.
 */
export function renderLegacyBytes(
  value: unknown,
  json: boolean,
  rootName: string,
  itemName?: string,
  schema?: z.ZodType,
): { readonly contentType: string; readonly body: Uint8Array<ArrayBuffer> } {
  return json
    ? { contentType: JSON_TYPE, body: toLegacyJsonBytes(value, schema) }
    : { contentType: XML_TYPE, body: encoder.encode(toXml(rootName, value, itemName)) };
}

/** The error body: Message always, ModelState only for invalid input. */
export const LegacyErrorBodySchema = z.object({
  Message: z.string(),
  ModelState: z.record(z.string(), z.array(z.string())).optional(),
});

export interface LegacyErrorBody {
  Message: string;
  ModelState?: Record<string, string[]>;
}

export function legacyErrorBody(message: string, fieldErrors?: readonly FieldError[]): LegacyErrorBody {
  if (!fieldErrors || fieldErrors.length === 0) return { Message: message };
  // A Map first: a field named `constructor` or `__proto__` must not meet Object.prototype.
  const byField = new Map<string, string[]>();
  for (const error of fieldErrors) {
    const list = byField.get(error.field);
    if (list) list.push(error.message);
    else byField.set(error.field, [error.message]);
  }
  const modelState: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [field, messages] of byField) Object.defineProperty(modelState, field, { value: messages, enumerable: true, writable: true, configurable: true });
  return { Message: message, ModelState: modelState };
}

export function renderError(status: number, message: string, json: boolean, fieldErrors?: readonly FieldError[]): Rendered {
  return renderLegacy(status, legacyErrorBody(message, fieldErrors), json, 'Error', undefined, LegacyErrorBodySchema);
}
