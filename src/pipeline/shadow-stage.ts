/**
 * Shadow mode: the legacy answer is the client's; for `shadow.sampleRate` of safe requests the
 * api2 mapping of the same canonical request runs in the background and is compared
 * (src/traffic/shadow.ts). Writes never are.
 */
import { mappingFor } from '../../mappings/index.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { ShadowAnswer } from '../traffic/shadow.js';
import { callApi2 } from './api2-side.js';
import { callLegacy } from './legacy-side.js';
import type { PipelineParts } from './parts.js';

async function asShadow(response: Response): Promise<ShadowAnswer> {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contentEncoding: response.headers.get('content-encoding'),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

/**
 * Offers the comparison (after the client's answer is ready); resolves to that answer. `defer`
 * keeps the comparison alive after the answer (RuntimeBindings.defer: edge waitUntil).
 */
export async function withShadow(
  parts: PipelineParts,
  request: CanonicalRequest,
  requestId: string,
  response: Response,
  defer?: (work: Promise<unknown>) => void,
): Promise<Response> {
  const { shadow, config, upstreams } = parts;
  const { operation } = request.match;
  const route = config.routes[operation.id];
  const mapping = mappingFor(operation.id);
  if (response.status >= 500 || !shadow || !mapping || !upstreams.api2 || route?.mode !== 'shadow' || !operation.safe) return response;
  if (Math.random() >= (route.shadow?.sampleRate ?? 1)) return response;
  const primary = await asShadow(response.clone());
  const background = { clientHeaders: {}, rawBody: null, shared: true, signal: undefined } as const;
  shadow.offer({
    operation: operation.id,
    requestId,
    losses: mapping.losses,
    ignore: new Set(route.shadow?.ignore ?? []),
    primary,
    candidate: async () => asShadow((await callApi2(parts, request, mapping, undefined, config.traffic.shadow.timeoutMs)).response),
    ...(config.traffic.shadow.measureNoise ? { secondary: async () => asShadow((await callLegacy(parts, request, background)).response) } : {}),
  }, defer);
  return response;
}
