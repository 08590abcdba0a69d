/**
 * The upstream clients when traces are exported: each call marked with a span (span-log.ts
 * `openCall`) gets its timing and result noted. Wraps the breakers too, so a call the breaker
 * refuses (`unavailable`) is a span. Not used with export off.
 */
import { UpstreamError } from '../../upstream/types.js';
import type { UpstreamClient, UpstreamRequest, Upstreams } from '../../upstream/types.js';
import { callOf, nowMs } from './span-log.js';

function tracedClient(client: UpstreamClient, baseUrl: string): UpstreamClient {
  const base = baseUrl.replace(/\/+$/, '');
  const request = (call: UpstreamRequest) => {
    const span = callOf(call.headers);
    if (!span) return client.request(call);
    span.upstream = client.name;
    span.method = call.method;
    const query = call.target.indexOf('?');
    span.url = base + (query === -1 ? call.target : call.target.slice(0, query));
    span.startedAt = nowMs();
    return client.request(call).then(
      (answer) => {
        span.status = answer.status;
        span.endedAt = nowMs();
        return answer;
      },
      (error: unknown) => {
        span.failure = error instanceof UpstreamError ? error.failure : 'error';
        span.endedAt = nowMs();
        throw error;
      },
    );
  };
  return { name: client.name, request, close: () => client.close(), ...(client.stats ? { stats: () => client.stats!() } : {}) };
}

export function tracedUpstreams<U extends Upstreams>(upstreams: U, baseUrls: { readonly legacy: string; readonly api2?: string | undefined }): U {
  const legacy = tracedClient(upstreams.legacy, baseUrls.legacy);
  const api2 = upstreams.api2 ? tracedClient(upstreams.api2, baseUrls.api2 ?? '') : undefined;
  return Object.assign({}, upstreams, api2 ? { legacy, api2 } : { legacy });
}
