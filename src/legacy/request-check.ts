/**
 * The checks every legacy request goes through before it is acted on, in this order, shared by
 * the gateway (before it forwards or maps) and the sandbox legacy backend (before it acts):
 *
 *   1. `api_key` present in the query string              → else 403
 *   2. HTTP Basic credentials present, for user operations → else 403
 *   3. the body parses (JSON object or form)               → else 400
 *   4. every parameter rule of the catalogue holds         → else 400 naming each field and rule
 *
 * DECISION: presence is checked before the rules, validity of the credentials after them (only the
 * backend knows the keys), so the gateway and the legacy backend give the same answer to every
 * request the gateway can judge.
 */
import type { RouteMatch } from '../catalogue/route-table.js';
import { parseBasic } from './credentials.js';
import type { BasicCredentials } from './credentials.js';
import { parseBody, parseQuery, validateParams } from './params.js';
import type { FieldError, ParamValues } from './params.js';

export interface LegacyRequestParts {
  readonly query: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly body: Uint8Array | null;
}

export type CheckedRequest =
  | {
      readonly ok: true;
      readonly apiKey: string;
      readonly user: BasicCredentials | null;
      readonly query: ParamValues;
      readonly values: Readonly<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly status: 400 | 403; readonly message: string; readonly errors?: readonly FieldError[] };

export const MESSAGES = {
  apiKeyMissing: 'Authentication failed: the api_key query parameter is required.',
  userMissing: 'Authentication failed: this operation needs the user credentials (HTTP Basic).',
} as const;

export function checkLegacyRequest(match: RouteMatch, parts: LegacyRequestParts): CheckedRequest {
  const query = parseQuery(parts.query);
  const apiKey = query.get('api_key');
  if (!apiKey) return { ok: false, status: 403, message: MESSAGES.apiKeyMissing };

  const user = parseBasic(parts.authorization);
  if (match.operation.auth === 'user' && !user) return { ok: false, status: 403, message: MESSAGES.userMissing };

  const body = parseBody(parts.contentType, parts.body);
  if (!body.ok) return { ok: false, status: 400, message: `The request is invalid: ${body.error.message}.`, errors: [body.error] };

  const validated = validateParams(match.operation, match.pathParams, query, body.values);
  if (!validated.ok) {
    return {
      ok: false,
      status: 400,
      message: `The request is invalid: ${validated.errors.map((e) => e.message).join('; ')}.`,
      errors: validated.errors,
    };
  }
  return { ok: true, apiKey, user, query, values: validated.values };
}
