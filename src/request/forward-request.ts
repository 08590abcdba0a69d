/**
 * The request forwarded to the legacy backend, rendered from the canonical request: the path in
 * the form the client used (malformed forms stay as published) without `/v{n}` prefix or trailing
 * slash, the parameters in catalogue order and the document's spelling with their canonical text,
 * `api_key` last, and the headers the canonical request owns rendered from its facts.
 *
 * A shared fill (a cache MISS whose answer other clients will be served) carries nothing else:
 * no conditional or range header, no header the key does not hold. A request answered to its own
 * client only also passes on the client's other end-to-end headers (User-Agent, If-None-Match...).
 *
 * What follows the request across backends (X-Request-Id, traceparent, tracestate, and the client's
 * User-Agent on a shared fill too) is not rendered here: each call adds it (src/pipeline/legacy-
 * side.ts), with a span id of its own, so it is never part of a page key.
 */
import { upstreamRequestHeaders } from '../http/headers.js';
import { TRAIL_HEADERS } from './trace-context.js';
import type { CanonicalParams } from './canonicalise.js';
import type { CanonicalRequest } from './canonical-request.js';
import { encodeFormComponent } from './pairs.js';
import { rememberedPerOwner } from '../hot-path.js';

/** The method, the path and the query parameters of a forward request, without `api_key`: what a page key holds of them. */
export interface ForwardTarget {
  readonly method: string;
  readonly path: string;
  /** The rendered query parameters without `api_key`. */
  readonly params: string;
}

export interface LegacyForward extends ForwardTarget {
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | null;
}

/** What is forwarded beyond the canonical request. */
export interface ForwardFacts {
  /** The client's headers (lower-case names); only read when `shared` is false. */
  readonly clientHeaders: Readonly<Record<string, string>>;
  /** A fill whose answer other clients are served: nothing the key does not hold is sent. */
  readonly shared: boolean;
  /** The body as it came; forwarded unchanged only when it carries no parameters. */
  readonly rawBody: Uint8Array | null;
}

/** Headers the canonical request renders itself, or each call sets (the trail); the client's copies are never passed on. */
const OWNED: ReadonlySet<string> = new Set(['accept', 'accept-encoding', 'authorization', 'content-type', ...TRAIL_HEADERS]);
const encoder = new TextEncoder();

/** The target of the forward request (without `api_key`): all a page key needs to render. */
export function renderForwardTarget(request: CanonicalRequest): ForwardTarget {
  // Frozen parameters are a remembered check's (canonical-request.ts), shared by every request with
  // the same raw facts: the target is rendered once per them, the method and the path form.
  if (!Object.isFrozen(request.params)) return targetOf(request);
  return targetPerParams(request.params, `${request.method} ${request.match.form.template}`, request);
}

const targetPerParams = rememberedPerOwner(8, 512, (_params: object, _facts: string, request: CanonicalRequest) => targetOf(request));

function targetOf(request: CanonicalRequest): ForwardTarget {
  const { template } = request.match.form;
  const path = template.includes('{') ? template.replace(/\{([a-z]+)\}/g, (_, name: string) => encodeURIComponent(textOf(request, name))) : template;
  const params = request.params
    .filter((param) => param.carriedIn === 'query' && param.text !== null)
    .map((param) => `${param.spec.name}=${encodeFormComponent(param.text as string)}`)
    .join('&');
  return { method: request.method, path, params };
}

/** The `Accept` the forward request sends: the representation the client reads. */
export function acceptOf(request: CanonicalRequest): string {
  return request.json ? 'application/json' : 'application/xml';
}

export function renderForwardRequest(request: CanonicalRequest, facts: ForwardFacts): LegacyForward {
  const { method, path, params } = renderForwardTarget(request);
  const keyPart = `api_key=${encodeFormComponent(request.apiKey)}`;
  const headers: Record<string, string> = facts.shared ? {} : upstreamRequestHeaders(facts.clientHeaders, request.forwarded, OWNED);
  headers['accept'] = acceptOf(request);
  headers['accept-encoding'] = request.encoding;
  if (request.authorization !== undefined) headers['authorization'] = request.authorization;
  headers['x-forwarded-for'] = request.forwarded.clientChain;
  headers['x-forwarded-proto'] = request.forwarded.proto;
  if (request.forwarded.host) headers['x-forwarded-host'] = request.forwarded.host;
  const body = renderBody(request, facts);
  if (body.contentType) headers['content-type'] = body.contentType;
  return { method, path, params, target: `${path}?${params ? `${params}&` : ''}${keyPart}`, headers, body: body.bytes };
}

function textOf(request: CanonicalParams, name: string): string {
  return request.params.find((param) => param.spec.name === name)?.text ?? '';
}

function renderBody(request: CanonicalRequest, facts: ForwardFacts): { bytes: Uint8Array | null; contentType?: string } {
  if (request.method === 'GET' || request.method === 'HEAD') return { bytes: null };
  const contentType = facts.clientHeaders['content-type'];
  const inBody = request.params.filter((param) => param.carriedIn === 'body' && param.text !== null);
  if (request.bodyKind === 'json') {
    const object: Record<string, string | number | boolean> = {};
    for (const param of inBody) object[param.spec.name] = typeof param.json === 'string' || param.json === undefined ? (param.text as string) : param.json;
    return { bytes: encoder.encode(JSON.stringify(object)), ...(contentType ? { contentType } : {}) };
  }
  if (request.bodyKind === 'form') {
    const form = inBody.map((param) => `${param.spec.name}=${encodeFormComponent(param.text as string)}`).join('&');
    return { bytes: encoder.encode(form), ...(contentType ? { contentType } : {}) };
  }
  return { bytes: facts.rawBody, ...(contentType ? { contentType } : {}) };
}
