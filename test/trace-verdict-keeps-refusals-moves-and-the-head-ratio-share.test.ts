/**
 * The trace verdict at the answer (src/observability/tracing/verdict.ts): a request the gateway
 * refused itself and one answered within the move window of its rollout step are kept at a 0 %
 * ratio (not a client that went away, not a step older than the window); a kind left out of
 * `keep` is not kept; the head ratio keeps its share of trace ids (within 1 percentage point over
 * 20,000 ids from a seeded generator) and the same ids at every replica.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { openSpanLog } from '../src/observability/tracing/span-log.js';
import { headTakes, verdictAtAnswer, verdictRules } from '../src/observability/tracing/verdict.js';

function rules(tracing: Record<string, unknown>) {
  const parsed = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } }, observability: { tracing: { enabled: true, endpoint: 'http://127.0.0.1:4318/v1/traces', headRatio: 0, ...tracing } } });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return verdictRules(parsed.config.observability.tracing);
}

const NOW = 1_800_000_000_000;
const ordinary: RequestRecord = { requestId: 'r', traceId: 'ffffffffffffffffffffffffffffffff', startedAt: NOW, method: 'GET', operation: 'recipes.search', insecure: false, mode: 'legacy', status: 200 };
const log = openSpanLog(undefined, false);

describe('the verdict at a 0 % head ratio', () => {
  it('keeps a refusal by the gateway and a request answered during a move, and nothing ordinary', () => {
    const all = rules({});
    expect(verdictAtAnswer(ordinary, log, all)).toBeUndefined();
    expect(verdictAtAnswer({ ...ordinary, mode: undefined, status: 400, error: 'invalid-request' }, log, all)).toBe('refused');
    expect(verdictAtAnswer({ ...ordinary, mode: undefined, status: 499, error: 'client-gone' }, log, all)).toBeUndefined();
    expect(verdictAtAnswer({ ...ordinary, stepSince: NOW - 59_000 }, log, all)).toBe('moving');
    expect(verdictAtAnswer({ ...ordinary, stepSince: NOW - 61_000 }, log, all)).toBeUndefined();
    expect(verdictAtAnswer({ ...ordinary, status: 502, fallback: true }, log, all)).toBe('failed');
  });

  it('keeps only the kinds `keep` names', () => {
    const onlyFailed = rules({ keep: ['failed'] });
    expect(verdictAtAnswer({ ...ordinary, fallback: true }, log, onlyFailed)).toBeUndefined();
    expect(verdictAtAnswer({ ...ordinary, stepSince: NOW }, log, onlyFailed)).toBeUndefined();
    expect(verdictAtAnswer({ ...ordinary, status: 503 }, log, onlyFailed)).toBe('failed');
  });

  it('keeps a client-sampled trace only with honorClientSampled', () => {
    const sampledByClient = openSpanLog('00f067aa0ba902b7', true);
    expect(verdictAtAnswer(ordinary, sampledByClient, rules({}))).toBeUndefined();
    expect(verdictAtAnswer(ordinary, sampledByClient, rules({ honorClientSampled: true }))).toBe('sampled');
  });
});

describe('the head ratio', () => {
  it('keeps its share of trace ids, the same ids every time', () => {
    let seed = 48;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    const ids = Array.from({ length: 20_000 }, () => [next(), next(), next(), next()].map((n) => n.toString(16).padStart(8, '0')).join(''));
    for (const ratio of [0.01, 0.1, 0.5]) {
      const kept = ids.filter((id) => headTakes(id, ratio));
      expect(Math.abs(kept.length / ids.length - ratio), `ratio ${ratio}`).toBeLessThan(0.01);
      expect(ids.filter((id) => headTakes(id, ratio))).toEqual(kept);
    }
    expect(ids.every((id) => headTakes(id, 1))).toBe(true);
    expect(ids.some((id) => headTakes(id, 0))).toBe(false);
  });
});
