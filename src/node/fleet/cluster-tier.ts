/**
 * Node-only: the shared tier of a cluster worker (`workers` > 1) without Redis. It shares no page
 * (each worker keeps its own, as before), only invalidations: a write through one worker is
 * answered once every other worker dropped its pages, through the primary
 * (src/node/fleet/page-drop-relay.ts), bounded by PEER_ACK_TIMEOUT_MS; past it (a worker busy or
 * gone) the write is answered anyway and one line says so.
 *
 * DECISIONS:
 * - The workers hash credentials with keys of their own, so a user's group means nothing to
 *   another worker: a favorite write drops every page of the other workers (its own worker drops
 *   the user's pages only).
 * - PEER_ACK_TIMEOUT_MS is 1 s: a message between processes of one machine takes well under a
 *   millisecond; a worker that does not answer within a second is stuck or gone.
 */
import { ListenerSet } from '../../cache/listener-set.js';
import type { LockOutcome, CacheTier } from '../../cache/tier.js';
import type { PageDropMessage } from './page-drop-messages.js';

const PEER_ACK_TIMEOUT_MS = 1_000;

export class ClusterTier implements CacheTier {
  readonly lockTtlMs = 0;
  private readonly listeners = new ListenerSet<[group: string | null]>();
  private readonly waiting = new Map<number, () => void>();
  private next = 0;

  constructor(private readonly onUnacknowledged: (reason: string) => void) {
    process.on('message', (message: PageDropMessage | undefined) => {
      if (message?.type === 'gateway:drop-pages') {
        this.listeners.emit(null);
        this.send({ type: 'gateway:pages-dropped', id: message.id });
      } else if (message?.type === 'gateway:pages-dropped') this.waiting.get(message.id)?.();
    });
  }

  read(): undefined {
    return undefined;
  }

  write(): void {}

  lock(): LockOutcome {
    return 'out';
  }

  locked(): Promise<boolean> {
    return Promise.resolve(false);
  }

  remember(): void {}

  invalidateAll(): Promise<boolean> {
    return this.dropEverywhere();
  }

  invalidateGroup(): Promise<boolean> {
    return this.dropEverywhere();
  }

  onInvalidate(listener: (group: string | null) => void): () => void {
    return this.listeners.add(listener);
  }

  private dropEverywhere(): Promise<boolean> {
    if (!process.connected) return Promise.resolve(this.notTaken('the primary is gone'));
    const id = ++this.next;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(this.notTaken(`not every worker answered within ${PEER_ACK_TIMEOUT_MS} ms`));
      }, PEER_ACK_TIMEOUT_MS);
      this.waiting.set(id, () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(true);
      });
      this.send({ type: 'gateway:drop-pages', id });
    });
  }

  private notTaken(reason: string): false {
    this.onUnacknowledged(reason);
    return false;
  }

  private send(message: PageDropMessage): void {
    if (process.connected) process.send?.(message);
  }
}
