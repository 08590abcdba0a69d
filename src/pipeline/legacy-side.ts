/**
 * The legacy side: a catalogued request is forwarded as rendered from its canonical value
 * (src/request/forward-request.ts); an uncatalogued one is passed through as it came. Writes are
 * sent once and never retried (src/upstream/pass-through.ts).
 */
import { routeTimeoutMs } from '../config/schema.js';
import { copyWith } from '../hot-path.js';
import { upstreamRequestHeaders } from '../http/headers.js';
import type { ClientView } from '../http/client-view.js';
import { TRAIL_HEADERS, markCall } from '../request/trace-context.js';
import type { RequestTrail } from '../request/trace-context.js';
import { failureOfAnswer, passThrough } from '../upstream/pass-through.js';
import { endCall, openedCall } from '../observability/tracing/span-log.js';
import type { CallSpan } from '../observability/tracing/span-log.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { renderForwardRequest } from '../request/forward-request.js';
import type { AbortSignalLike, UpstreamRequest } from '../upstream/types.js';
import type { Attempt, PipelineParts } from './parts.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NOT_COPIED: ReadonlySet<string> = new Set(TRAIL_HEADERS);

/**
 * The headers of one call to the legacy backend: the rendered request's (shared by every call a
 * fill makes, never changed), then the trail (a span id of its own per call) and the client's
 * `User-Agent` as sent, on a shared fill too.
 */
function followed(rendered: Readonly<Record<string, string>>, trail: RequestTrail): Record<string, string> {
  const headers: Record<string, string> = copyWith(rendered, {});
  if (trail.userAgent !== undefined) headers['user-agent'] = trail.userAgent;
  return markCall(headers, trail);
}

/** What the legacy side needs of the request beyond its canonical value. */
export interface LegacyCall {
  readonly clientHeaders: Readonly<Record<string, string>>;
  readonly rawBody: Uint8Array | null;
  /** The answer will be served to other clients too (a cache fill). */
  readonly shared: boolean;
  readonly signal: AbortSignalLike | undefined;
}

export function callLegacy(parts: PipelineParts, request: CanonicalRequest, call: LegacyCall): Promise<Attempt> {
  const forward = renderForwardRequest(request, call);
  const { operation } = request.match;
  const headers = followed(forward.headers, request.trail);
  return attempt(parts, {
    method: forward.method,
    target: forward.target,
    headers,
    body: forward.body,
    timeoutMs: routeTimeoutMs(parts.config, operation.id),
    ...(call.signal ? { signal: call.signal } : {}),
  }, operation.id, request.json, openedCall(request.trail.trace.spans));
}

/** An uncatalogued request, passed through unchanged (target, headers, body). */
export function callLegacyUncatalogued(
  parts: PipelineParts,
  raw: { method: string; path: string; query: string; headers: Readonly<Record<string, string>>; body: Uint8Array | null; client: ClientView; trail: RequestTrail },
  json: boolean,
  signal: AbortSignalLike | undefined,
): Promise<Attempt> {
  const headers = markCall(upstreamRequestHeaders(raw.headers, { clientChain: raw.client.forwardedFor, proto: raw.client.scheme, host: raw.client.host }, NOT_COPIED), raw.trail);
  return attempt(parts, {
    method: raw.method,
    target: raw.query ? `${raw.path}?${raw.query}` : raw.path,
    headers,
    body: raw.body,
    timeoutMs: parts.config.timeouts.defaultMs,
    ...(signal ? { signal } : {}),
  }, 'uncatalogued', json, openedCall(raw.trail.trace.spans));
}

/** `traced`: with traces exported, the span log's entry of this call (markCall's), whose end is noted here. */
function attempt(parts: PipelineParts, request: UpstreamRequest, label: string, json: boolean, traced: CallSpan | undefined): Promise<Attempt> {
  const started = Date.now();
  const upstream = parts.upstreams.legacy;
  return passThrough(upstream, request, { label, write: !SAFE_METHODS.has(request.method), json }).then((answered) => {
    if (traced) {
      const failure = failureOfAnswer(answered);
      endCall(traced, upstream.name, request.method, request.target, failure === undefined ? answered.status : undefined, failure);
    }
    return {
      answer: answered,
      side: 'legacy',
      upstreamMs: Date.now() - started,
      // Only gateway-made answers (502/504/503) carry a reason.
      error: answered.status >= 500 ? answered.headers['x-gateway-error'] : undefined,
    };
  });
}
