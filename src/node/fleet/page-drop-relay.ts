/**
 * Node-only, in the cluster primary: relays a worker's "drop your pages" (a write it answered
 * changed them, src/node/fleet/cluster-tier.ts) to every other live worker, and tells the writer
 * once each has dropped them. A worker that never answers (busy, gone) leaves the writer to its
 * own bound; the relay forgets the request after RELAY_FORGET_MS.
 */
import type { Worker } from 'node:cluster';
import type { FromWorker } from '../cluster-messages.js';

const RELAY_FORGET_MS = 5_000;

export function createPageDropRelay(workers: () => Iterable<Worker>): (from: Worker, message: FromWorker) => void {
  let next = 0;
  const pending = new Map<number, { left: number; done: () => void }>();
  return (from, message) => {
    if (message.type === 'gateway:pages-dropped') {
      const waiting = pending.get(message.id);
      if (waiting && --waiting.left === 0) waiting.done();
      return;
    }
    if (message.type !== 'gateway:drop-pages') return;
    const asked = message.id;
    const id = ++next;
    const peers = [...workers()].filter((worker) => worker !== from && worker.isConnected());
    const answer = (): void => {
      pending.delete(id);
      if (from.isConnected()) from.send({ type: 'gateway:pages-dropped', id: asked });
    };
    if (peers.length === 0) return answer();
    const forget = setTimeout(() => pending.delete(id), RELAY_FORGET_MS);
    forget.unref();
    pending.set(id, {
      left: peers.length,
      done: () => {
        clearTimeout(forget);
        answer();
      },
    });
    for (const peer of peers) peer.send({ type: 'gateway:drop-pages', id });
  };
}
