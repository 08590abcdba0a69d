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
import { checkedBefore } from './listener.js';

/** "The client went away": the answer closed before it was finished. No AbortController needed. */
function responseGone(outgoing: ServerResponse): AbortSignalLike {
  const listeners = new Map<() => void, () => void>();
  return {
    get aborted() {
      return outgoing.destroyed && !outgoing.writableFinished;
    },
    addEventListener(_type, listener) {
      const onClose = (): void => {
        if (!outgoing.writableFinished) listener();
      };
      listeners.set(listener, onClose);
      outgoing.once('close', onClose);
    },
    removeEventListener(_type, listener) {
      const onClose = listeners.get(listener);
      if (!onClose) return;
      listeners.delete(listener);
      outgoing.off('close', onClose);
    },
  };
}

export const nodeRuntime: RuntimeBindings = {
  peer(c: Context) {
    const socket = (c.env as HttpBindings).incoming.socket;
    return { address: socket.remoteAddress ?? '', tls: (socket as { encrypted?: boolean }).encrypted === true };
  },
  clientSignal(c: Context) {
    return responseGone((c.env as HttpBindings).outgoing);
  },
  absoluteForm(c: Context) {
    return checkedBefore((c.env as HttpBindings).incoming)?.absoluteForm === true;
  },
  requestHeaders(c: Context) {
    // Node's parsed headers: lower-case names, repeated values joined (set-cookie aside, which a
    // request does not carry), duplicates of single-valued headers dropped.
    return (c.env as HttpBindings).incoming.headers as Record<string, string>;
  },
  normalisedTarget(c: Context) {
    return checkedBefore((c.env as HttpBindings).incoming)?.target;
  },
  defer() {
    // The work is already running and the process outlives the answer: nothing to hold open.
  },
};
