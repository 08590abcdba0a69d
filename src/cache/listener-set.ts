/**
 * The listeners a cache tier tells of invalidations or resyncs: each add() hands back the function
 * that detaches that listener, so a page cache retired by a reload is no longer held by the tier.
 */
export class ListenerSet<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  add(listener: (...args: A) => void): () => void {
    // Wrapped: the same function added twice is two listeners, each detached on its own.
    const entry = (...args: A): void => listener(...args);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  emit(...args: A): void {
    for (const listener of [...this.listeners]) listener(...args);
  }
}
