/**
 * Requests the Node listener refuses from what only the parsed request line and the raw header
 * list show, before the core sees them:
 *
 * - `TRACE` gets 405 from the gateway itself: it would echo the request, credentials and all,
 *   from whatever answers it upstream, and no legacy operation uses it (like CONNECT, answered
 *   in src/node/node-refusals.ts).
 * - More than one `Host` header gets 400 (RFC 9112 §3.2). Node's parser keeps the first and
 *   drops the others from `req.headers`, so only `rawHeaders` can tell.
 */
import type { IncomingMessage } from 'node:http';
import { gatewayError } from '../http/gateway-error.js';

/** The methods the gateway serves, for `Allow` on a 405. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, DELETE';

export function refuseEarly(req: IncomingMessage, json: boolean): Response | undefined {
  if (req.method === 'TRACE') {
    const answer = gatewayError(405, 'method-not-allowed', 'The TRACE method is not allowed: this gateway neither forwards nor echoes requests.', json);
    answer.headers.set('allow', ALLOWED_METHODS);
    return answer;
  }
  if (hostHeaders(req.rawHeaders) > 1) {
    return gatewayError(400, 'bad-target', 'The request is refused: it carries more than one Host header.', json);
  }
  return undefined;
}

function hostHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}
