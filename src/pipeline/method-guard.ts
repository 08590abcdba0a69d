/**
 * `TRACE` (and the non-standard `TRACK`) get 405 from the gateway itself, on every runtime: the
 * upstream would echo the request back, credentials and all, and no legacy operation uses it.
 * (CONNECT never reaches the core on Node: src/node/node-refusals.ts answers it.)
 */
import { withHeader } from '../http/answer.js';
import { gatewayError } from '../http/gateway-error.js';
import { wantsJson } from '../legacy/render.js';
import type { Guard } from './guard.js';

/** The methods the gateway serves, for `Allow` on a 405. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, DELETE';

const ECHOING = new Set(['TRACE', 'TRACK']);

export const methodGuard: Guard = (c) => {
  const method = c.req.method;
  if (!ECHOING.has(method)) return undefined;
  c.get('record').error = 'method-not-allowed';
  const headers = c.get('headers');
  const json = wantsJson(headers['accept'], headers['content-type']);
  const refusal = gatewayError(405, 'method-not-allowed', `The ${method} method is not allowed: this gateway neither forwards nor echoes requests.`, json);
  return withHeader(refusal, 'allow', ALLOWED_METHODS);
};
