/**
 * Runtime bindings for @hono/node-server: the peer comes from the socket, and the client's
 * disconnect from the response's `close` event (reading `c.req.raw.signal` would build a full
 * WHATWG Request and cost about a third of throughput: proxy-lessons, speed on Node).
 */
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { ServerResponse } from 'node:http';
import type { RuntimeBindings } from '../gateway/env.js';
import type { AbortSignalLike } from '../upstream/types.js';
import { normaliseTarget } from '../http/target.js';
import { nodeHmacSha256 } from '../request/hmac-node.js';
import { nodeCompression } from './compression.js';
import { arrivalOf } from './listener.js';
import type { ArrivingRequest } from './listener.js';

/**
 * "The client went away": the answer closed before it was finished. No AbortController needed.
 *
 * A class, not an object literal with a getter: such a literal keeps its getter, and with it the
 * getter's closure and the whole request (response, request, socket state), alive through every
 * scavenge until the next mark-compact (its accessor pair appears to live in the old generation).
 * 3M literals with a getter promote 390 MB where the same class promotes 63 KB
 * (docs/benchmarks-anchors.md, "Promotion").
 */
class ResponseGone implements AbortSignalLike {
  private onClose: Map<() => void, () => void> | undefined;

  constructor(private readonly outgoing: ServerResponse) {}

  get aborted(): boolean {
    return this.outgoing.destroyed && !this.outgoing.writableFinished;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    const outgoing = this.outgoing;
    const onClose = (): void => {
      if (!outgoing.writableFinished) listener();
    };
    (this.onClose ??= new Map()).set(listener, onClose);
    outgoing.once('close', onClose);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const onClose = this.onClose?.get(listener);
    if (!onClose) return;
    this.onClose!.delete(listener);
    this.outgoing.off('close', onClose);
  }
}

export const nodeRuntime: RuntimeBindings = {
  arrival(c: Context, maxUrlLength: number) {
    const incoming = (c.env as HttpBindings).incoming as HttpBindings['incoming'] & Partial<ArrivingRequest>;
    // Made by the listener (listener.ts); made here only for a server without it.
    return incoming.arrival ?? arrivalOf(incoming, normaliseTarget(incoming.url ?? '/', maxUrlLength), false);
  },
  answeredItself(c: Context) {
    return ((c.env as HttpBindings).incoming as HttpBindings['incoming'] & Partial<ArrivingRequest>).answeredByNode;
  },
  clientSignal(c: Context) {
    return new ResponseGone((c.env as HttpBindings).outgoing);
  },
  defer() {
    // The work is already running and the process outlives the answer: nothing to hold open.
  },
  hmacSha256: nodeHmacSha256,
  compression: nodeCompression,
};
