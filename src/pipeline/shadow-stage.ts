/**
 * Shadow mode: the legacy answer is the client's; for `shadow.sampleRate` of safe requests the
 * api2 mapping of the same canonical request runs in the background and is compared
 * (src/traffic/shadow.ts). Writes never are. A route in a rollout's percentage step compares the
 * requests legacy answered the same way (route.compare); at a rollout's 100 % step the answer api2
 * gave is compared with legacy's, asked in the background (no request is answered by legacy
 * there). A fallback (legacy answering for a failed api2) is never compared, nor a 304 (no body).
 * Answers are compared as JSON: an XML client's request is compared as its JSON twin, both sides
 * asked in the background (one more legacy call, sampled and capped like the rest).
 *
 * A stage: wraps an answerer (what the client is answered) and asks `sides`, the side answerer,
 * for the background calls.
 */
import { copyWith, whenReady } from '../hot-path.js';
import { bodyBytes } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { ShadowAnswer, ShadowComparator } from '../traffic/shadow.js';
import { NO_SIGNAL } from './answerer.js';
import type { Answerer, ReadFacts } from './answerer.js';
import type { PipelineParts } from './parts.js';
import { awaitShadow } from '../observability/tracing/span-log.js';
import { watchedWrite } from './write-watch.js';
import type { WriteWatch } from './write-watch.js';

export function withShadow(parts: PipelineParts, shadow: ShadowComparator, inner: Answerer, sides: Answerer, watch: WriteWatch): Answerer {
  return (request, facts) => {
    // A write: told to the write clock while it runs (never compared itself).
    if (!request.match.operation.safe) return watchedWrite(watch, inner, request, facts);
    // Before the client's answer is asked: a write of its scope from here to the comparison's end is a race.
    const mark = watch.clock.mark();
    return whenReady(inner(request, facts), (outcome) => {
      // A stored page, or another request's call (a cache HIT, STALE or flight waiter), made no upstream call of its own.
      const how = { fallback: outcome.fallback === true, stored: outcome.upstreamMs === undefined };
      offerShadow(parts, shadow, sides, request, facts, outcome.answer, outcome.side ?? facts.side, how, { watch, mark });
      return outcome;
    });
  };
}

function asShadow(answered: Answer): ShadowAnswer {
  return {
    status: answered.status,
    contentType: answered.headers['content-type'] ?? null,
    contentEncoding: answered.headers['content-encoding'] ?? null,
    body: bodyBytes(answered),
  };
}

/**
 * Offers the comparison of the client's answer (once it is ready). `facts.defer` keeps the
 * comparison alive after the answer (RuntimeBindings.defer: edge waitUntil).
 */
function offerShadow(
  parts: PipelineParts,
  shadow: ShadowComparator,
  sides: Answerer,
  request: CanonicalRequest,
  facts: ReadFacts,
  answered: Answer,
  side: string,
  /** fallback: legacy answered for a failed api2; stored: a stored page, or another request's call (a cache HIT, STALE or flight waiter). */
  how: { readonly fallback: boolean; readonly stored: boolean },
  writes: { readonly watch: WriteWatch; readonly mark: number },
): void {
  const { config, upstreams } = parts;
  const { requestId, defer } = facts;
  const { operation } = request.match;
  const route = config.routes[operation.id];
  const { mapping } = request;
  // A fallback is legacy answering for a failed api2 (evidence of neither mapping nor agreement);
  // a 304 to a revalidating client has no body to compare (its shadow call, unconditional, would).
  if (how.fallback || answered.status === 304 || answered.status >= 500 || !mapping || !upstreams.api2 || !operation.safe) return;
  const inForce = parts.route(operation.id);
  // Shadow mode, or a rollout's percentage step (route-in-force.ts): what legacy answered is compared.
  const compare = request.routeMode === 'shadow' || (request.routeMode === 'canary' && inForce.compare);
  // A rollout's 100 % step: what api2 answered to this request is compared with legacy's answer, asked
  // in the background. A stored page is not compared again: one api2 answer would count as many.
  const reverse = side === 'api2' && !how.stored && request.routeMode === 'api2' && inForce.rollout;
  if (!(side === 'legacy' && compare) && !reverse) return;
  if (Math.random() >= (route?.shadow?.sampleRate ?? 1)) return;
  // The comparison is field by field on JSON. An XML client's request (the legacy default) is compared
  // as its JSON twin: legacy is asked for the JSON answer in the background, api2's is rendered as
  // JSON. A stored page is not compared again (its fill was): nothing is asked for it.
  const asJson = request.json ? request : copyWith(request, { json: true });
  if (!request.json && how.stored) return;
  const background = { clientHeaders: {}, rawBody: null, shared: true, signal: NO_SIGNAL, requestId, defer, background: { timeoutMs: config.traffic.shadow.timeoutMs } } as const;
  const askLegacy = async (): Promise<ShadowAnswer> => asShadow((await sides(asJson, { ...background, side: 'legacy' })).answer);
  const askApi2 = async (): Promise<ShadowAnswer> => asShadow((await sides(asJson, { ...background, side: 'api2' })).answer);
  const secondary = config.traffic.shadow.measureNoise ? { secondary: askLegacy } : {};
  const scope = writes.watch.scopeOf(request);
  const { clock } = writes.watch;
  // A race is compared once more, both sides asked again (then judged raced or not afresh).
  const again = () => {
    const mark = clock.mark();
    return { primary: askLegacy, candidate: askApi2, raced: () => clock.overlapped(mark, scope) };
  };
  const job = { operation: operation.id, requestId, routeMode: request.routeMode, stepSince: inForce.stepSince ?? undefined, losses: mapping.losses, ignore: new Set(route?.shadow?.ignore ?? []), raced: () => clock.overlapped(writes.mark, scope), again };
  if (!reverse) {
    const settled = request.trail.trace.spans ? awaitShadow(request.trail.trace.spans) : undefined;
    shadow.offer({ ...job, primary: request.json ? asShadow(answered) : askLegacy, candidate: askApi2, ...secondary, settled }, defer);
    return;
  }
  // Past the cap, no background legacy call is made at all (the comparator's own cap counts a skip only once offered).
  if (shadow.inFlight >= config.traffic.shadow.maxConcurrent) return;
  const given = asShadow(answered);
  // What api2 answered this client, or, for an XML client, api2's JSON answer to the same request.
  const candidate = request.json ? async () => given : askApi2;
  // With traces exported, the request's trace waits for the comparison (or for none being made).
  const settled = request.trail.trace.spans ? awaitShadow(request.trail.trace.spans) : undefined;
  const asked = askLegacy().then(
    // Legacy failing is not api2 differing: nothing is compared.
    (primary) => (primary.status >= 500 ? settled?.(undefined) : shadow.offer({ ...job, primary, candidate, ...secondary, settled }, defer)),
    () => settled?.(undefined),
  );
  defer(asked);
}
