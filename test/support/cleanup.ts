/**
 * What a test started, closed after it: the test pushes a close for each server, process or
 * folder it starts; after each test they run, the last started first (a gateway before the
 * upstreams behind it). The support helpers that start things take the same list.
 */
import { afterEach } from 'vitest';

export type Cleanup = Array<() => Promise<void> | void>;

/** A list of closes run after each test of the calling file. */
export function closedAfterEachTest(): Cleanup {
  const cleanup: Cleanup = [];
  afterEach(async () => {
    while (cleanup.length > 0) await cleanup.pop()?.();
  });
  return cleanup;
}
