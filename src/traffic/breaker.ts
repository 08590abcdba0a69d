/**
 * A circuit breaker per upstream: closed → open after `failureThreshold` consecutive failures;
 * open for `openMs`, failing fast; then half-open: one probe is let through, its success closes
 * the breaker, its failure opens it again. Failures: the exchange threw (timeout, connect, reset,
 * protocol) or the upstream answered 502, 503 or 504 (a 500 is usually about one request, not the
 * upstream's health). A client going away is not the upstream's failure.
 */
import { UpstreamError } from '../upstream/types.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream/types.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  readonly failureThreshold: number;
  readonly openMs: number;
  readonly now?: () => number;
  readonly onTransition?: (upstream: string, from: BreakerState, to: BreakerState) => void;
}

export interface Breaker {
  readonly state: () => BreakerState;
  readonly client: UpstreamClient;
}

export function withBreaker(inner: UpstreamClient, options: BreakerOptions): Breaker {
  const now = options.now ?? (() => Date.now());
  let state: BreakerState = 'closed';
  let failures = 0;
  let openedAt = 0;
  let probing = false;

  const move = (to: BreakerState) => {
    if (to === state) return;
    const from = state;
    state = to;
    options.onTransition?.(inner.name, from, to);
  };
  const failed = () => {
    failures += 1;
    if (state === 'half-open' || failures >= options.failureThreshold) {
      openedAt = now();
      move('open');
    }
  };
  const succeeded = () => {
    failures = 0;
    move('closed');
  };

  const current = (): BreakerState => {
    if (state === 'open' && now() - openedAt >= options.openMs) move('half-open');
    return state;
  };

  async function request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const at = current();
    if (at === 'open' || (at === 'half-open' && probing)) {
      throw new UpstreamError('unavailable', inner.name, false, `upstream '${inner.name}' is failing; its circuit breaker is open`);
    }
    const probe = at === 'half-open';
    if (probe) probing = true;
    try {
      const answer = await inner.request(req);
      if (answer.status >= 502 && answer.status <= 504) failed();
      else succeeded();
      return answer;
    } catch (error) {
      if (!(error instanceof UpstreamError && error.failure === 'aborted')) failed();
      throw error;
    } finally {
      if (probe) probing = false;
    }
  }

  return { state: current, client: { name: inner.name, request, close: () => inner.close() } };
}
