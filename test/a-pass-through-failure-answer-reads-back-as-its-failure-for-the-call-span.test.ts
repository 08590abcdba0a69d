/**
 * A legacy call's client span says why the exchange failed (`error.type`: timeout, connect, reset,
 * too-large, protocol, unavailable, aborted; docs/tracing.md). The pass-through turns the failure
 * into the client's 502/503/504 (or a bare 499), and the span's failure is read back from that
 * answer (src/upstream/pass-through.ts `failureOfAnswer`): every failure reads back as itself, and
 * an upstream's own answer, a 5xx included, as no failure.
 */
import { describe, expect, it } from 'vitest';
import { answer } from '../src/http/answer.js';
import { failureOfAnswer, upstreamFailure } from '../src/upstream/pass-through.js';
import { UpstreamError } from '../src/upstream/types.js';
import type { UpstreamFailure } from '../src/upstream/types.js';

const FAILURES: readonly UpstreamFailure[] = ['timeout', 'connect', 'reset', 'too-large', 'protocol', 'aborted', 'unavailable'];

describe('a pass-through failure answer', () => {
  it('reads back as the failure it was made of', () => {
    for (const failure of FAILURES) {
      const made = upstreamFailure(new UpstreamError(failure, 'legacy', true, 'failed'), { label: 'recipes.search', write: false, json: true });
      expect(failureOfAnswer(made), failure).toBe(failure);
    }
  });

  it('an upstream answer is no failure, whatever its status', () => {
    for (const status of [200, 404, 500, 502, 503]) expect(failureOfAnswer(answer(status, { 'content-type': 'text/plain' }, null))).toBeUndefined();
  });
});
