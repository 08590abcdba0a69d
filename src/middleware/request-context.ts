/**
 * First in the chain: reads the headers once, normalises the request target (refusing hostile
 * paths before anything else looks at them), starts the request record and hands the finished
 * record to the sink once the answer is known.
 */
import type { MiddlewareHandler } from 'hono';
import { gatewayError } from '../http/gateway-error.js';
import { normaliseTarget, originFormOf } from '../http/target.js';
import { wantsJson } from '../legacy/render.js';
import type { GatewayEnv } from '../gateway/env.js';
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';

export function requestContext(maxUrlLength: number, sink: RecordSink | undefined): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const headers = c.req.header();
    const record: RequestRecord = { startedAt: Date.now(), method: c.req.method, operation: null, insecure: false };
    c.set('headers', headers);
    c.set('record', record);

    const target = normaliseTarget(originFormOf(c.req.url), maxUrlLength);
    if (!target.ok) {
      record.error = 'bad-target';
      c.res = gatewayError(target.status, 'bad-target', `The request target is refused: ${target.reason}.`, wantsJson(headers['accept'], headers['content-type']));
    } else {
      c.set('target', { path: target.path, query: target.query });
      await next();
    }
    if (sink) {
      record.status = c.res.status;
      sink(record);
    }
  };
}
