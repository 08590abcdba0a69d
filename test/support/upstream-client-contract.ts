/**
 * The promises of the upstream client port (src/upstream/types.ts), stated once; every client runs
 * them: `describeUpstreamClientContract(name, capabilities, run)`, where `run` makes one exchange
 * in the client's own runtime (in this process, or in workerd through a harness Worker) against
 * the contract's real HTTP server on 127.0.0.1. Where a client legitimately differs it declares
 * it (fetch negotiates accept-encoding itself; workerd cannot tell a refused connection from a
 * lost one). See docs/architecture.md, "Ports".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/upstream/types.js';
import type { UpstreamClient } from '../../src/upstream/types.js';
import { EVERY_BYTE, contractUpstream } from './upstream-contract-server.js';

/** One exchange, serialisable (it may travel to another runtime). `body`: one character per byte. */
export interface UpstreamCall {
  readonly base: string;
  readonly target: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly timeoutMs?: number;
  readonly max?: number;
  /** Aborts the client signal after this many ms (the client going away). */
  readonly abortAfterMs?: number;
}

export type UpstreamOutcome =
  | { readonly status: number; readonly headers: Record<string, string | string[]>; readonly body: Buffer }
  | { readonly failure: string; readonly sent: boolean; readonly message: string };

export interface UpstreamCapabilities {
  /** Header names the client adds to those it is given (transport headers only: never a credential). */
  readonly addsHeaders: readonly string[];
  /** `as-given`: accept-encoding goes out as given; `negotiated`: gzip when the given one accepts it, else identity. */
  readonly acceptEncoding: 'as-given' | 'negotiated';
  /** How a refused connection fails: `connect` (provably not sent), or `reset` (sent: the runtime cannot tell). */
  readonly refused: { readonly failure: 'connect'; readonly sent: false } | { readonly failure: 'reset'; readonly sent: true };
}

/** Runs calls through a client made in this process for each call's base. */
export function runInProcess(make: (base: string, maxResponseBytes: number) => UpstreamClient): (call: UpstreamCall) => Promise<UpstreamOutcome> {
  return async (call) => {
    const client = make(call.base, call.max ?? 1_000_000);
    const controller = new AbortController();
    if (call.abortAfterMs !== undefined) setTimeout(() => controller.abort(), call.abortAfterMs);
    try {
      const body = call.body === undefined ? null : Uint8Array.from(call.body, (c) => c.charCodeAt(0));
      const r = await client.request({ method: call.method ?? 'GET', target: call.target, headers: call.headers ?? {}, body, timeoutMs: call.timeoutMs ?? 3000, signal: controller.signal });
      return { status: r.status, headers: r.headers as Record<string, string | string[]>, body: Buffer.from(r.body) };
    } catch (error) {
      if (error instanceof UpstreamError) return { failure: error.failure, sent: error.sent, message: error.message };
      throw error;
    } finally {
      await client.close();
    }
  };
}

export function describeUpstreamClientContract(name: string, can: UpstreamCapabilities, run: (call: UpstreamCall) => Promise<UpstreamOutcome>): void {
  describe(`${name} keeps the upstream client contract`, () => {
    const upstream = contractUpstream();
    const seen = upstream.seen;
    let base = '';
    let refusedBase = '';
    beforeAll(async () => {
      ({ base, refusedBase } = await upstream.start());
    });
    afterAll(() => upstream.close());

    const ok = async (call: Omit<UpstreamCall, 'base'>, at = base) => {
      const outcome = await run({ base: at, ...call });
      if ('failure' in outcome) throw new Error(`expected an answer, got ${outcome.failure}: ${outcome.message}`);
      return outcome;
    };
    const failed = async (call: Omit<UpstreamCall, 'base'>, at = base) => {
      const outcome = await run({ base: at, ...call });
      if (!('failure' in outcome)) throw new Error(`expected a failure, got status ${outcome.status}`);
      return { failure: outcome.failure, sent: outcome.sent };
    };

    it('sends the method, the target under the base path, the headers and the body given, byte for byte, and adds no credential', async () => {
      const given = { 'x-request-id': 'r-1', 'content-type': 'application/octet-stream', authorization: 'Basic YWxpY2U6YWxpY2UtcGFzcw==', 'accept-encoding': 'br' };
      for (const method of ['POST', 'PUT', 'DELETE', 'GET']) {
        const body = method === 'GET' ? undefined : EVERY_BYTE.toString('latin1');
        expect((await ok({ target: '/echo?a=1&b=%20%2F&c=%C3%A9', method, headers: given, body }, `${base}/base/`)).status).toBe(201);
        const received = seen.at(-1)!;
        expect([received.method, received.url]).toEqual([method, '/base/echo?a=1&b=%20%2F&c=%C3%A9']);
        expect(received.body.equals(body === undefined ? Buffer.alloc(0) : EVERY_BYTE), 'the body byte for byte').toBe(true);
        const { 'accept-encoding': encoding, ...rest } = given;
        for (const [header, value] of Object.entries(rest)) expect(received.headers[header], header).toBe(value);
        expect(received.headers['accept-encoding']).toBe(can.acceptEncoding === 'as-given' ? encoding : 'identity');
        const added = Object.keys(received.headers).filter((header) => !(header in given));
        expect(added.filter((header) => !can.addsHeaders.includes(header)), 'headers the client added').toEqual([]);
      }
      await ok({ target: '/echo', headers: { 'accept-encoding': 'gzip;q=0.5, br' } }, `${base}/base`);
      expect(seen.at(-1)?.headers['accept-encoding']).toBe(can.acceptEncoding === 'as-given' ? 'gzip;q=0.5, br' : 'gzip');
      await ok({ target: '/echo' }, `${base}/base`);
      expect(seen.at(-1)?.headers['accept-encoding'], 'none given').toBe(can.acceptEncoding === 'as-given' ? undefined : 'identity');
    });

    it("answers the upstream's status, headers (lower-case names, repeated ones apart) and body byte for byte, whatever the status", async () => {
      const bytes = await ok({ target: '/bytes' });
      expect([bytes.status, bytes.headers['x-answer'], bytes.headers['set-cookie'], bytes.headers['content-type']]).toEqual([203, 'Kept As Sent', ['a=1; Path=/', 'b=2; Path=/'], 'application/octet-stream']);
      expect(bytes.body.equals(EVERY_BYTE), 'the body byte for byte').toBe(true);
      expect((await ok({ target: '/bytes', method: 'HEAD' })).body.byteLength).toBe(0);
      const missing = await ok({ target: '/missing' });
      expect([missing.status, missing.body.toString()]).toEqual([404, 'not here']);
      const redirect = await ok({ target: '/redirect' });
      expect([redirect.status, redirect.headers['location']], 'a redirect is answered, never followed').toEqual([302, '/elsewhere']);
      const empty = await ok({ target: '/no-content', method: 'DELETE' });
      expect([empty.status, empty.body.byteLength]).toEqual([204, 0]);
    });

    it('a deadline that passes (no answer, or a body that stalls) fails as timeout, sent, within the deadline', async () => {
      const started = Date.now();
      expect(await failed({ target: '/hang', timeoutMs: 300 })).toEqual({ failure: 'timeout', sent: true });
      expect(await failed({ target: '/stall-body', timeoutMs: 300 })).toEqual({ failure: 'timeout', sent: true });
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('the client going away fails as aborted', async () => {
      expect((await failed({ target: '/hang', timeoutMs: 5_000, abortAfterMs: 100 })).failure).toBe('aborted');
    });

    it(`a refused connection fails as ${can.refused.failure} (sent: ${can.refused.sent}); a connection that breaks fails as reset, sent`, async () => {
      expect(await failed({ target: '/x' }, refusedBase)).toEqual(can.refused);
      expect(await failed({ target: '/cut-body' })).toEqual({ failure: 'reset', sent: true });
      expect(await failed({ target: '/cut-before-answer', method: 'POST', body: 'x' })).toEqual({ failure: 'reset', sent: true });
    });

    it('an answer past maxResponseBytes fails as too-large; one at the limit is answered', async () => {
      expect(await failed({ target: '/big', max: 10_000 })).toEqual({ failure: 'too-large', sent: true });
      expect((await ok({ target: '/big', max: 64 * 1024 })).body.byteLength).toBe(64 * 1024);
    });
  });
}
