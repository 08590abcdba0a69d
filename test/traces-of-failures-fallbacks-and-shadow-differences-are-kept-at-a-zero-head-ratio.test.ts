/**
 * Tail-kept sampling (docs/tracing.md): at a head ratio of 0, an ordinary request's trace is not
 * exported, while a request whose shadow comparison differed, one legacy answered after api2
 * failed (fallback) and one answered 5xx still are, and so is a shadow comparison api2 failed
 * (an outage); the usage line's `traced` says which and why. api2 here is a real TLS upstream
 * that answers a review list 404 (legacy has it: the comparison differs) and every other call
 * 503; the receiver is a real OTLP/HTTP one.
 */
import { describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import { startGatewayInFrontOfMisbehavingApi2 } from './support/misbehaving-api2.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { waitFor } from './support/wait.js';

const KEY = 'sandbox-free-key';
const J = { accept: 'application/json' };
const ALICE = basic('alice', 'alice-pass');
const cleanup = closedAfterEachTest();

describe('at a 0 % head ratio', () => {
  it('exports a shadow difference, a comparison api2 failed, a fallback and a 5xx, and not an ordinary request', async () => {
    const receiver = await startOtlpReceiver();
    cleanup.push(() => receiver.close());
    const { gateway } = await startGatewayInFrontOfMisbehavingApi2(
      cleanup,
      (req, res) => {
        const reviews = /^\/recipe\/\d+\/reviews/.test(req.url ?? '');
        res.writeHead(reviews ? 404 : 503, { 'content-type': 'application/json' });
        res.end(reviews ? '{"Message":"not found"}' : '{"Message":"down"}');
      },
      {
        routes: { 'reviews.list': { mode: 'shadow' }, 'reviews.get': { mode: 'shadow' }, 'recipes.search': { mode: 'api2', fallback: true }, 'grocery.create': { mode: 'api2', fallback: false } },
        observability: { tracing: { enabled: true, endpoint: receiver.url, headRatio: 0, flushMs: 50 } },
      },
    );
    const ask = async (requestId: string, request: { target: string; method?: string; body?: string; headers?: Record<string, string> }) => {
      const res = await send(gateway.origin, { ...request, headers: { ...J, ...request.headers, 'x-request-id': requestId } });
      return res.status;
    };
    expect(await ask('ordinary', { target: `/grocerylist?api_key=${KEY}`, headers: { authorization: ALICE } })).toBe(200);
    expect(await ask('shadowed', { target: `/reviews?rid=7&api_key=${KEY}` })).toBe(200);
    expect(await ask('outage', { target: `/review/82?api_key=${KEY}` })).toBe(200);
    expect(await ask('fell-back', { target: `/recipes?title_kw=soup&api_key=${KEY}` })).toBe(200);
    const created = await ask('failed', {
      method: 'POST',
      target: `/grocerylist?api_key=${KEY}`,
      headers: { authorization: ALICE, 'content-type': 'application/json' },
      body: '{"quantity":"1","name":"milk"}',
    });
    expect(created).toBeGreaterThanOrEqual(500);

    await waitFor(() => ['shadowed', 'outage'].every((id) => gateway.shadows.some((s) => s.requestId === id)));
    expect(gateway.shadows.find((s) => s.requestId === 'shadowed')?.outcome).toBe('differ');
    expect(gateway.shadows.find((s) => s.requestId === 'outage')?.outcome).toBe('unavailable');
    const exportedIds = () => receiver.spans.filter((s) => s.kind === 2).map((s) => s.attributes['recipe_gateway.request_id']);
    await waitFor(() => ['shadowed', 'outage', 'fell-back', 'failed'].every((id) => exportedIds().includes(id)), 5000, 'the kept traces');
    expect(exportedIds()).not.toContain('ordinary');

    const kept = (id: string) => receiver.spans.find((s) => s.kind === 2 && s.attributes['recipe_gateway.request_id'] === id)?.attributes;
    expect(kept('shadowed')).toMatchObject({ 'recipe_gateway.trace.kept': 'if-shadow-differs', 'recipe_gateway.shadow.outcome': 'differ' });
    expect(kept('outage')).toMatchObject({ 'recipe_gateway.trace.kept': 'if-shadow-differs', 'recipe_gateway.shadow.outcome': 'unavailable' });
    expect(kept('fell-back')).toMatchObject({ 'recipe_gateway.trace.kept': 'fallback', 'recipe_gateway.fallback': true, 'recipe_gateway.answered_by': 'legacy' });
    expect(kept('failed')).toMatchObject({ 'recipe_gateway.trace.kept': 'failed', 'error.type': String(created) });

    const traced = (id: string) => gateway.records.find((r) => r.requestId === id)?.traced;
    expect(traced('ordinary')).toBeUndefined();
    expect(traced('shadowed')).toBe('if-shadow-differs');
    expect(traced('fell-back')).toBe('fallback');
    expect(traced('failed')).toBe('failed');
  });
});
