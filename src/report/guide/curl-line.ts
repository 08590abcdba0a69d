/**
 * The api2 call of a guide's example as a curl line a client's developer can run: the api2 base
 * URL from the gateway's config (`upstreams.api2.baseUrl`), else the placeholder $API2_BASE_URL,
 * and the secrets as placeholders ($API2_KEY, and $API2_USER:$API2_PASSWORD for an operation that
 * acts for a user): never a key or a password of the client. Pure.
 */
import { API2_KEY_HEADER } from '../../api2/port.js';
import type { Api2Example } from './api2-example.js';

/** Named in docs/usage-log-and-report.md ("A migration guide per client"). */
export const API2_BASE_URL_PLACEHOLDER = '$API2_BASE_URL';

/** A double-quoted shell word: `"`, `\`, `` ` `` and `$` escaped, so nothing in it expands. */
const quoted = (text: string): string => `"${text.replace(/["\\`$]/g, (c) => `\\${c}`)}"`;

/** `curl -X GET -H "x-bigoven-api-key: $API2_KEY" "https://api2.example.com/recipes?title_kw=soup"`. */
export function curlLine(example: Api2Example, baseUrl: string | undefined, user: boolean): string {
  const base = baseUrl ? quoted(`${baseUrl.replace(/\/+$/, '')}${example.path}${example.queryString}`) : `"${API2_BASE_URL_PLACEHOLDER}${quoted(`${example.path}${example.queryString}`).slice(1)}`;
  const parts = ['curl', '-X', example.method, '-H', `"${API2_KEY_HEADER}: $API2_KEY"`];
  if (user) parts.push('-u', '"$API2_USER:$API2_PASSWORD"');
  if (example.bodyJson !== undefined) parts.push('-H', quoted('content-type: application/json'), '--data', quoted(example.bodyJson));
  parts.push(base);
  return parts.join(' ');
}
