/**
 * Shadow mode: the legacy answer is the client's; for `shadow.sampleRate` of safe requests the
 * api2 mapping of the same canonical request runs in the background and is compared
 * (src/traffic/shadow.ts). Writes never are. A route in a rollout's percentage step compares the
 * requests legacy answered the same way (route.compare); an answer api2 gave, or a fallback, is
 * not compared.
 */
import { bodyBytes } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { ShadowAnswer } from '../traffic/shadow.js';
import { callApi2, IN_BACKGROUND } from './api2-side.js';
import { callLegacy } from './legacy-side.js';
import type { PipelineParts, Side } from './parts.js';

function asShadow(answered: Answer): ShadowAnswer {
  return {
    status: answered.status,
    contentType: answered.headers['content-type'] ?? null,
    contentEncoding: answered.headers['content-encoding'] ?? null,
    body: bodyBytes(answered),
  };
}

/**
 * Offers the comparison of the client's answer (once it is ready). `defer` keeps the comparison
 * alive after the answer (RuntimeBindings.defer: edge waitUntil).
 */
export function offerShadow(
  parts: PipelineParts,
  request: CanonicalRequest,
  requestId: string,
  answered: Answer,
  side: Side,
  defer?: (work: Promise<unknown>) => void,
): void {
  const { shadow, config, upstreams } = parts;
  const { operation } = request.match;
  const route = config.routes[operation.id];
  const { mapping } = request;
  // Shadow mode, or a rollout's percentage step (route-in-force.ts): what legacy answered is compared.
  const compare = request.routeMode === 'shadow' || (request.routeMode === 'canary' && parts.route(operation.id).compare);
  if (side !== 'legacy' || answered.status >= 500 || !shadow || !mapping || !upstreams.api2 || !compare || !operation.safe) return;
  if (Math.random() >= (route?.shadow?.sampleRate ?? 1)) return;
  const primary = asShadow(answered);
  const background = { clientHeaders: {}, rawBody: null, shared: true, signal: undefined } as const;
  shadow.offer({
    operation: operation.id,
    requestId,
    losses: mapping.losses,
    ignore: new Set(route?.shadow?.ignore ?? []),
    primary,
    candidate: async () => asShadow((await callApi2(parts, request, mapping, undefined, IN_BACKGROUND, config.traffic.shadow.timeoutMs)).answer),
    ...(config.traffic.shadow.measureNoise ? { secondary: async () => asShadow((await callLegacy(parts, request, background)).answer) } : {}),
  }, defer);
}
