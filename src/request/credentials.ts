/**
 * A request's credentials, read once on arrival: every `api_key` of the query string and the
 * `Authorization` header with its HTTP Basic user. The guards (plain-http policy), the canonical
 * request, the cache key, the api2 calls and the record all read these; nothing parses them again.
 * Never logged, never keyed: the record holds keyed hashes only (src/request/identity.ts).
 */
import { parseBasic } from '../legacy/basic-auth.js';
import type { BasicCredentials } from '../legacy/basic-auth.js';
import type { Pair } from './pairs.js';

export interface Credentials {
  /** Every `api_key` value of the query, decoded, in order (names match without regard to case). */
  readonly apiKeys: readonly string[];
  /** The first of them: the one a request is answered with (a second one is refused). */
  readonly apiKey: string | undefined;
  readonly authorization: string | undefined;
  /** The Basic user and password of `authorization`; null without (or with another scheme). */
  readonly user: BasicCredentials | null;
  /** Whether the request carries any: an `api_key` or an `Authorization` header. */
  readonly carried: boolean;
}

export function credentialsOf(query: readonly Pair[], authorization: string | undefined): Credentials {
  const apiKeys = query.filter((pair) => pair.name === 'api_key').map((pair) => pair.value);
  return {
    apiKeys,
    apiKey: apiKeys[0],
    authorization,
    user: parseBasic(authorization),
    carried: apiKeys.length > 0 || authorization !== undefined,
  };
}
