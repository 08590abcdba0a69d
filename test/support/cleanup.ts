/**
 * What a test started, closed after it: the test pushes a close for each server, process or
 * folder it starts; they run the last started first (a gateway before the upstreams behind it),
 * after each test or, for what a file's tests share, after all of them. The support helpers that
 * start things take the same list.
 */
import { afterAll, afterEach } from 'vitest';

export type Cleanup = Array<() => Promise<void> | void>;

async function closeAll(cleanup: Cleanup): Promise<void> {
  while (cleanup.length > 0) await cleanup.pop()?.();
}

/** A list of closes run after each test of the calling file (or describe block). */
export function closedAfterEachTest(): Cleanup {
  const cleanup: Cleanup = [];
  afterEach(() => closeAll(cleanup));
  return cleanup;
}

/** A list of closes run once all tests of the calling file (or describe block) are done; `timeoutMs`: the hook's bound. */
export function closedAfterAllTests(timeoutMs?: number): Cleanup {
  const cleanup: Cleanup = [];
  afterAll(() => closeAll(cleanup), timeoutMs);
  return cleanup;
}
