import { describe, expect, it } from 'vitest';
import { diffFields } from '../src/traffic/field-diff.js';
import { EXAMPLES_PER_PATH, EXAMPLE_PATHS, keepExample } from '../src/traffic/diff-examples.js';
import type { DiffExample } from '../src/traffic/diff-examples.js';
import { withBreaker } from '../src/traffic/breaker.js';
import { UpstreamError } from '../src/upstream/types.js';
import type { UpstreamClient, UpstreamRequest } from '../src/upstream/types.js';

describe('field diff', () => {
  it('names changed, missing, extra and type-changed fields with array steps as [], each with its first pair of values', () => {
    const legacy = { ResultCount: 2, Results: [{ Title: 'a', StarRating: 4, Poster: { UserID: 1 } }, { Title: 'b', StarRating: 3, Poster: { UserID: 2 } }], SpellSuggest: null };
    const api2 = { ResultCount: 2, Results: [{ Title: 'a', StarRating: '4', Poster: {} }, { Title: 'B', StarRating: 3, Poster: { UserID: 2 }, Extra: 1 }], SpellSuggest: 'x' };
    expect(diffFields(legacy, api2)).toEqual([
      { path: 'Results[].StarRating', kind: 'type', legacy: '4', api2: '"4"' },
      { path: 'Results[].Poster.UserID', kind: 'missing', legacy: '[redacted]', api2: '[redacted]' },
      { path: 'Results[].Title', kind: 'changed', legacy: '"b"', api2: '"B"' },
      { path: 'Results[].Extra', kind: 'extra', legacy: '(absent)', api2: '1' },
      { path: 'SpellSuggest', kind: 'changed', legacy: 'null', api2: '"x"' },
    ]);
  });

  it('cuts long values and never shows a user name, password or key', () => {
    const [long] = diffFields({ Description: 'x'.repeat(500) }, { Description: 'y'.repeat(500) });
    expect(long?.legacy).toBe(`"${'x'.repeat(78)}…`);
    expect(long?.legacy?.length).toBe(80);
    for (const field of ['UserName', 'Password', 'api_key', 'Email', 'AuthToken']) {
      expect(diffFields({ [field]: 'alice' }, { [field]: 'bob' })).toEqual([{ path: field, kind: 'changed', legacy: '[redacted]', api2: '[redacted]' }]);
    }
  });

  it('keeps example pairs in fixed memory: the latest few per path, a bounded number of paths', () => {
    const kept = new Map<string, DiffExample[]>();
    for (let i = 0; i < 10_000; i++) keepExample(kept, { path: `Field${i % 50}`, legacy: `"${i}"`, api2: `"${i + 1}"`, time: String(i) });
    expect(kept.size).toBe(EXAMPLE_PATHS);
    expect([...kept.values()].every((list) => list.length === EXAMPLES_PER_PATH)).toBe(true);
    expect(kept.get('Field0')?.map((e) => e.legacy)).toEqual(['"9850"', '"9900"', '"9950"']);
  });

  it('finds nothing in equal answers and skips ignored paths', () => {
    expect(diffFields({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(diffFields({ a: 1, b: 2 }, { a: 9, b: 2 }, new Set(['a']))).toEqual([]);
    expect(diffFields([1, 2], [1])).toEqual([{ path: '(root).length', kind: 'changed', legacy: '2', api2: '1' }]);
  });
});

describe('circuit breaker', () => {
  function flakyUpstream() {
    const state = { fail: true, calls: 0 };
    const client: UpstreamClient = {
      name: 'api2',
      async request(_req: UpstreamRequest) {
        state.calls += 1;
        if (state.fail) throw new UpstreamError('connect', 'api2', false, 'refused');
        return { status: 200, headers: {}, body: new Uint8Array() };
      },
      close: async () => undefined,
    };
    return { state, client };
  }
  const req: UpstreamRequest = { method: 'GET', target: '/recipes', headers: {}, timeoutMs: 100 };

  it('opens after the threshold, fails fast while open, probes half-open once, closes on success', async () => {
    let clock = 0;
    const transitions: string[] = [];
    const { state, client } = flakyUpstream();
    const breaker = withBreaker(client, { failureThreshold: 3, openMs: 1000, now: () => clock, onTransition: (_u, from, to) => transitions.push(`${from}>${to}`) });
    for (let i = 0; i < 3; i++) await expect(breaker.client.request(req)).rejects.toMatchObject({ failure: 'connect' });
    expect(breaker.state()).toBe('open');
    await expect(breaker.client.request(req)).rejects.toMatchObject({ failure: 'unavailable', sent: false });
    expect(state.calls).toBe(3);
    clock = 1000;
    expect(breaker.state()).toBe('half-open');
    await expect(breaker.client.request(req)).rejects.toMatchObject({ failure: 'connect' });
    expect(breaker.state()).toBe('open');
    clock = 2500;
    state.fail = false;
    await expect(breaker.client.request(req)).resolves.toMatchObject({ status: 200 });
    expect(breaker.state()).toBe('closed');
    expect(transitions).toEqual(['closed>open', 'open>half-open', 'half-open>open', 'open>half-open', 'half-open>closed']);
  });

  it('lets exactly one probe through while half-open: a second request during the probe fails fast, unsent', async () => {
    let clock = 0;
    const pending: Array<() => void> = [];
    let calls = 0;
    let failing = true;
    const client: UpstreamClient = {
      name: 'api2',
      async request(_req: UpstreamRequest) {
        calls += 1;
        if (failing) throw new UpstreamError('connect', 'api2', false, 'refused');
        await new Promise<void>((resolve) => pending.push(resolve));
        return { status: 200, headers: {}, body: new Uint8Array() };
      },
      close: async () => undefined,
    };
    const breaker = withBreaker(client, { failureThreshold: 1, openMs: 1000, now: () => clock });
    await expect(breaker.client.request(req)).rejects.toMatchObject({ failure: 'connect' });
    clock = 1000;
    failing = false;
    expect(breaker.state()).toBe('half-open');
    const probe = breaker.client.request(req);
    const during = [breaker.client.request(req), breaker.client.request(req)];
    const forwarded = calls;
    // Release whatever reached the upstream, so nothing hangs whatever the outcome.
    while (pending.length > 0) pending.shift()?.();
    expect(forwarded, 'requests the upstream saw: the first failure and the probe only').toBe(2);
    for (const other of during) await expect(other).rejects.toMatchObject({ failure: 'unavailable', sent: false });
    await expect(probe).resolves.toMatchObject({ status: 200 });
    expect(breaker.state()).toBe('closed');
    const after = breaker.client.request(req);
    pending.shift()?.();
    await expect(after).resolves.toMatchObject({ status: 200 });
    expect(calls).toBe(3);
  });
});
