/**
 * The parameters a usage line may carry (its `params` field): what the request's URL gave of the
 * parameters its operation declares, so that a client's migration guide can show the api2 call of
 * the client's own request (src/report/guide/). Never a secret:
 *
 * DECISION: a usage line's `params` holds the operation's declared parameters as the URL gave them
 * (path parameters from the route, the others from the query string; never the body), in
 * catalogue order, in the document's spelling, values form-encoded (`title_kw=chicken&pg=2`).
 * A name the operation does not declare is never written, so `api_key` is not, in whatever form
 * the gateway reads it (`API_KEY`, `api%5Fkey`: names are decoded and lower-cased, pairs.ts), nor
 * any other name a client invents (`password=`); the legacy interface has no credential parameter,
 * and the Basic credentials travel in a header. A declared parameter whose value holds one of the
 * request's secrets (3 characters or more: an api key, the Basic user name or password; a client
 * that typed one into a field) is left out, as `pathTemplate` leaves such a segment out (identity.ts `secretsLookedFor`). At most 256 characters
 * (the text is ASCII: as many bytes), cut before the first pair that would not fit. Empty when
 * the URL gave none.
 */
import type { RouteMatch } from '../catalogue/route-table.js';
import { remembered, rememberedPer } from '../hot-path.js';
import type { Credentials } from './credentials.js';
import { secretsLookedFor } from './identity.js';
import { encodeFormComponent } from './pairs.js';
import type { Pair } from './pairs.js';

/** The longest `params` text written. */
export const MAX_LOGGED_PARAMS = 256;

/** The `params` of a request: its declared URL parameters as text, secrets out, bounded. */
export function paramsText(match: RouteMatch, pairs: readonly Pair[], credentials: Pick<Credentials, 'apiKeys' | 'user'>): string {
  const looked = secretsLookedFor(credentials);
  const holdsSecret = (value: string): boolean => looked.length > 0 && looked.some((secret) => value.toLowerCase().includes(secret));
  let text = '';
  for (const spec of match.operation.params) {
    const values = spec.in === 'path' ? (match.pathParams[spec.name] === undefined ? [] : [match.pathParams[spec.name]!]) : pairs.filter((pair) => pair.name === spec.name).map((pair) => pair.value);
    for (const value of values) {
      if (holdsSecret(value)) continue;
      const pair = `${spec.name}=${encodeFormComponent(value)}`;
      if (text.length + (text === '' ? 0 : 1) + pair.length > MAX_LOGGED_PARAMS) return text;
      text = text === '' ? pair : `${text}&${pair}`;
    }
  }
  return text;
}

/**
 * `paramsText` remembered per the request's pairs and credentials (frozen, and shared by every
 * request with the same query text and Authorization header: src/gateway/arrival.ts) and per its
 * match (shared per method and path: src/catalogue/route-table.ts): a repeated request makes no
 * new text. It reads nothing else.
 */
const perQuery = rememberedPer(4, (pairs: readonly Pair[], credentials: Credentials) => remembered(16, (match: RouteMatch) => paramsText(match, pairs, credentials)));

export function loggedParams(pairs: readonly Pair[], credentials: Credentials, match: RouteMatch): string {
  return perQuery(pairs, credentials)(match);
}
