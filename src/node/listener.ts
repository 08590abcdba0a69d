/**
 * The Node request listener in front of the Hono core. It does the two things only the raw
 * request can show, before @hono/node-server turns the target into a URL (which would silently
 * resolve `..` segments):
 *
 * 1. Absolute-form targets (`GET http://legacy.example/recipes HTTP/1.1`, from clients that use
 *    the gateway as their HTTP proxy) are accepted when the host is a configured legacy host and
 *    rewritten to origin-form with that `Host`; any other host gets 421 and is never contacted.
 * 2. The raw target is checked with the core's normaliser: dot segments, NUL and the like are
 *    refused here with the same 400 the core would give.
 * 3. TRACE (405), a repeated Host and a repeated Authorization (400) are refused (src/node/early-refusals.ts).
 *
 * A request let through carries its finished arrival (method, checked target, headers, peer,
 * absolute form) as a declared field of Node's request object (`ArrivingRequest`); the Node
 * bindings (runtime.ts) hand it to the core, which reads nothing else of the request.
 */
import { IncomingMessage } from 'node:http';
import type { ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { gatewayErrorResponse } from '../http/gateway-error.js';
import { singleValue } from '../http/headers.js';
import { normaliseTarget } from '../http/target.js';
import type { TargetResult } from '../http/target.js';
import type { RuntimeAnswer, RuntimeArrival } from '../gateway/env.js';
import { wantsJson } from '../legacy/answer-body.js';
import { refuseEarly } from './early-refusals.js';
import type { ListenerRefusal } from './early-refusals.js';
import { REQUEST_ID_HEADER } from '../request/request-id.js';
import { recordRefusal, refusalArrival } from '../observability/refusal-record.js';
import type { RefusalObserver } from '../observability/refusal-record.js';

/**
 * Node's request class for the gateway's listeners (`IncomingMessage` in the server options,
 * src/node/server.ts): what the Node bindings (runtime.ts) hand the core. The fields are declared
 * from the start, so setting one does not change the request object's shape (a V8 hidden-class
 * transition per request).
 */
export class ArrivingRequest extends IncomingMessage {
  /** Set by the listener on a request it lets through. */
  arrival: RuntimeArrival | undefined = undefined;
  /** Set by src/node/node-refusals.ts when Node answered the request itself while its body was arriving. */
  answeredByNode: RuntimeAnswer | undefined = undefined;
}

/** The arrival the core is handed for `req`, its target checked as `target` says. */
export function arrivalOf(req: IncomingMessage, target: TargetResult, absoluteForm: boolean): RuntimeArrival {
  return {
    method: req.method ?? 'GET',
    target,
    // Node's parsed headers: lower-case names, repeated values joined (set-cookie aside, which a
    // request does not carry), duplicates of single-valued headers dropped.
    headers: req.headers as Record<string, string>,
    peer: { address: req.socket.remoteAddress ?? '', tls: (req.socket as { encrypted?: boolean }).encrypted === true },
    absoluteForm,
  };
}

const ABSOLUTE_FORM = /^(https?):\/\/([^/?#]*)(.*)$/i;
/** A host name or address with an optional port (RFC 9110 7.2); HTTP/1.1 requires one. */
const VALID_HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

export interface ListenerOptions {
  /** Whether an authority is one of the legacy hosts (hostMatcher of `legacyHosts`, built once per config and shared with CONNECT termination). */
  readonly isLegacyHost: (authority: string) => boolean;
  readonly maxUrlLength: number;
  /** Reports the refusals made here through the gateway's record sink (usage log, metrics). */
  readonly observer?: RefusalObserver | undefined;
}

/** What the listener hands requests to: the core app, or a switch between app generations. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FetchTarget = Pick<Hono<any>, 'fetch'>;

export function createNodeListener(app: FetchTarget, options: ListenerOptions) {
  const honoListener = getRequestListener(app.fetch);
  const { isLegacyHost } = options;

  const observer = options.observer;

  return (req: IncomingMessage, res: ServerResponse): void => {
    const arrived = observer ? performance.now() : 0;
    const absoluteForm = (req.url ?? '/')[0] !== '/';
    const refusal = checkRequest(req, absoluteForm, isLegacyHost, options.maxUrlLength);
    if (!refusal) {
      void honoListener(req, res);
      return;
    }
    // The answer is in the format the client asked for (worked out only for a refusal).
    const json = wantsJson(req.headers.accept, req.headers['content-type']);
    void refuseObserved(req, res, gatewayErrorResponse(refusal[0], refusal[1], refusal[2], json), absoluteForm, arrived, observer);
  };
}

/**
 * What the listener refuses `req` with, if anything; a request let through has its target in
 * origin-form (`req.url`, `Host` rewritten from an absolute-form target) and its arrival set.
 */
function checkRequest(req: IncomingMessage, absoluteForm: boolean, isLegacyHost: (host: string) => boolean, maxUrlLength: number): ListenerRefusal | undefined {
  const early = refuseEarly(req);
  if (early) return early;
  let target = req.url ?? '/';
  if (absoluteForm) {
    const absolute = ABSOLUTE_FORM.exec(target);
    if (!absolute) return [400, 'bad-target', 'The request target is refused: it is neither a path nor an http(s) URL.'];
    const authority = absolute[2] ?? '';
    if (authority.includes('@') || !isLegacyHost(authority)) return [421, 'misdirected', 'Misdirected request: this gateway only proxies the legacy service hosts.'];
    const rest = absolute[3] ?? '';
    target = rest.startsWith('/') ? rest : `/${rest}`;
    req.url = target;
    req.headers.host = authority;
  }
  const host = req.headers.host;
  if (!host || !VALID_HOST.test(host)) return [400, 'bad-target', 'The request is refused: its Host header is missing or not a host name.'];
  const checked = normaliseTarget(target, maxUrlLength);
  if (!checked.ok) return [checked.status, 'bad-target', `The request target is refused: ${checked.reason}.`];
  (req as Partial<ArrivingRequest>).arrival = arrivalOf(req, checked, absoluteForm);
  return undefined;
}

function refuseObserved(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  absoluteForm: boolean,
  startedPerf: number,
  observer: RefusalObserver | undefined,
): Promise<void> {
  if (!observer) return refuse(res, response).then(() => undefined);
  const arrival = refusalArrival({
    method: req.method ?? 'GET',
    rawTarget: req.url ?? '/',
    requestIdHeader: singleValue(req.headers[REQUEST_ID_HEADER]),
    authorization: req.headers.authorization,
    contentLength: req.headers['content-length'],
    tls: (req.socket as { encrypted?: boolean }).encrypted === true,
    absoluteForm,
    startedAt: Date.now(),
    startedPerf,
  });
  if (observer.identifier) response.headers.set(REQUEST_ID_HEADER, arrival.requestId);
  return refuse(res, response).then((bytes) => {
    recordRefusal(observer, arrival, response.status, response.headers.get('x-gateway-error') ?? 'refused', bytes);
  });
}


/** Writes the answer; resolves with the body's byte length. */
function refuse(res: ServerResponse, response: Response): Promise<number> {
  return response.text().then((body) => {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    res.end(body);
    return Buffer.byteLength(body);
  });
}
