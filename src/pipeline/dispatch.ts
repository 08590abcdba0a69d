/**
 * The stages after the guards, over one request:
 *
 *   route         the catalogue's operation (matched by the request context before the guards),
 *                 or uncatalogued (passed through unchanged, or refused with 404 by config)
 *   read body     once, within the configured limit (read-body.ts)
 *   canonicalise  the canonical request (src/request/): checked as the legacy backend would,
 *                 refused with a legacy error naming each field and rule
 *   answer        from the side its route chooses (choose-side.ts), through the page cache for
 *                 cached operations (page-stage.ts), compared in shadow mode (shadow-stage.ts)
 *
 * The record learns the operation, the side, the upstream time, the cache outcome and the error;
 * the request context writes it once the answer is known.
 */
import type { Context } from 'hono';
import type { RouteMatch } from '../catalogue/route-table.js';
import { routeMode } from '../config/schema.js';
import type { GatewayEnv } from '../gateway/env.js';
import type { RequestRecord } from '../gateway/request-record.js';
import { answer } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import { gatewayError } from '../http/gateway-error.js';
import { wantsJson } from '../legacy/render.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { canonicalise } from '../request/canonicalise.js';
import { negotiateEncoding } from '../request/encoding.js';
import { answerFromSide, chooseSide } from './choose-side.js';
import { callLegacyUncatalogued } from './legacy-side.js';
import { answerFromPages } from './page-stage.js';
import type { Attempt, PipelineParts } from './parts.js';
import { readRequestBody } from './read-body.js';
import type { BodyRead } from './read-body.js';
import { withShadow } from './shadow-stage.js';

export type { PipelineParts as DispatchParts, Upstreams } from './parts.js';

export function dispatch(parts: PipelineParts): (c: Context<GatewayEnv>) => Answer | Promise<Answer> {
  const { config } = parts;
  return (c) => {
    const headers = c.get('headers');
    const record = c.get('record');
    const method = c.req.method;
    const json = wantsJson(headers['accept'], headers['content-type']);
    const match = c.get('match');

    if (match) {
      record.routeMode = routeMode(config, match.operation.id);
    } else if (config.uncatalogued === 'reject') {
      record.error = 'uncatalogued';
      return gatewayError(404, 'uncatalogued', `No legacy operation answers ${method} on this path.`, json);
    }

    const read = readRequestBody(c, headers, config.limits.maxRequestBodyBytes);
    if (!(read instanceof Promise)) return answerRead(parts, c, match, read, json);
    return read.then(
      (body) => answerRead(parts, c, match, body, json),
      () => {
        // The client went away (or Node's request timeout cut it) while sending its body: nobody
        // will read an answer, and nothing was sent upstream. Not a gateway failure.
        record.error = 'client-gone';
        return answer(499, {});
      },
    );
  };
}

function learn(record: RequestRecord, attempt: Attempt): void {
  record.mode = attempt.side;
  record.upstreamMs = attempt.upstreamMs;
  if (attempt.error) record.error = attempt.error;
  if (attempt.fallback) record.fallback = true;
}

/** A routed (or uncatalogued) request whose body is read: made canonical, then answered. */
function answerRead(parts: PipelineParts, c: Context<GatewayEnv>, match: RouteMatch | null, read: BodyRead, json: boolean): Answer | Promise<Answer> {
  const { config, runtime, searchCache, shadow } = parts;
  const headers = c.get('headers');
  const record = c.get('record');
  const client = c.get('client');
  const { path, query } = c.get('target');
  if (!read.ok) {
    record.error = 'body-too-large';
    return gatewayError(413, 'body-too-large', `The request body is larger than ${read.limit} bytes.`, json);
  }
  if (!match) {
    const raw = { method: c.req.method, path, query, headers, body: read.body, client };
    return callLegacyUncatalogued(parts, raw, json, runtime.clientSignal(c)).then((attempt) => {
      learn(record, attempt);
      return attempt.answer;
    });
  }

  const checked = canonicalise(match, { query, contentType: headers['content-type'], authorization: headers['authorization'], body: read.body }, config.unknownParameters);
  if (!checked.ok) {
    const code = checked.status === 400 ? 'invalid-request' : 'unauthenticated';
    record.error = code;
    return gatewayError(checked.status, code, checked.message, json, checked.errors);
  }
  // Listed rather than spread: one object shape for every request (a spread of `checked` is
  // V8's slow generic copy).
  const request: CanonicalRequest = {
    ok: true,
    match: checked.match,
    apiKey: checked.apiKey,
    user: checked.user,
    authorization: checked.authorization,
    params: checked.params,
    values: checked.values,
    bodyKind: checked.bodyKind,
    paidParams: checked.paidParams,
    method: c.req.method,
    json,
    encoding: negotiateEncoding(headers['accept-encoding']),
    forwarded: { clientChain: client.forwardedFor, proto: client.scheme, host: client.host },
  };
  const forced = config.traffic.forceHeader ? headers[config.traffic.forceHeader]?.trim().toLowerCase() : undefined;
  const side = chooseSide(parts, request, forced);
  const { operation } = match;

  if (searchCache && operation.cache === 'pages' && request.method === 'GET') {
    const defer = (work: Promise<unknown>): void => runtime.defer?.(c, work);
    const answered = answerFromPages(parts, searchCache, request, side, { headers, record, defer }, (attempt) => learn(record, attempt));
    if (!shadow) return answered;
    return Promise.resolve(answered).then((served) => withShadow(parts, request, record.requestId, served, defer));
  }
  const legacy = { clientHeaders: headers, rawBody: read.body, shared: false, signal: runtime.clientSignal(c) };
  return answerFromSide(parts, request, side, legacy).then((attempt) => {
    learn(record, attempt);
    if (searchCache && operation.drops && attempt.answer.status < 300) searchCache.afterWrite(operation, request.authorization);
    return shadow ? withShadow(parts, request, record.requestId, attempt.answer, (work) => runtime.defer?.(c, work)) : attempt.answer;
  });
}
