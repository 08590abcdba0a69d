/**
 * Write watching, for the shadow stage: every write the gateway forwards is told to the write clock
 * (src/traffic/write-clock.ts) from the moment it is sent until it is answered, under the scope
 * the page cache invalidates (every page for a write that drops every page or has no user, else
 * the writing user's). A shadow comparison of the same scope that overlapped it is a race
 * (shadow-stage.ts). DECISION (the scope of a race): a write's scope is what the page cache drops
 * for it (every page, or the writing user's pages), and a write the catalogue gives nothing to drop
 * (grocery, try soons) is taken to change its user's data alone; a read's scope is its user's (or
 * none, without a user, which only writes dropping every page reach). With a page cache the clock is the cache's, which also hears the other
 * replicas' invalidations; without one it is this pipeline's own.
 */
import type { SearchCache } from '../cache/search-cache.js';
import { createSecretHasher } from '../cache/secret-hasher.js';
import { whenReady } from '../hot-path.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { HmacSha256 } from '../request/hmac.js';
import { WriteClock } from '../traffic/write-clock.js';
import type { WriteScope } from '../traffic/write-clock.js';
import type { Answerer, ReadFacts } from './answerer.js';

export interface WriteWatch {
  readonly clock: WriteClock;
  /** The scope of a request: its user's group (as the page cache keys it), or null without a user. */
  readonly scopeOf: (request: CanonicalRequest) => WriteScope;
}

export function writeWatchOf(searchCache: SearchCache | null, hmacSha256: HmacSha256): WriteWatch {
  if (searchCache) return { clock: searchCache.writes, scopeOf: (request) => (request.authorization ? searchCache.userGroup(request.authorization) : null) };
  const hash = createSecretHasher(hmacSha256);
  return { clock: new WriteClock(), scopeOf: (request) => (request.authorization ? hash(`authorization\n${request.authorization}`) : null) };
}

/** A write answered by `inner`, told to the clock from the moment it is sent until it is answered (the shadow stage calls it for writes). */
export function watchedWrite(watch: WriteWatch, inner: Answerer, request: CanonicalRequest, facts: ReadFacts): ReturnType<Answerer> {
  const { operation } = request.match;
  const scope = operation.drops === 'all-pages' ? null : watch.scopeOf(request);
  watch.clock.began(scope);
  const ended = () => watch.clock.ended(scope, true);
  try {
    return whenReady(
      inner(request, facts),
      (outcome) => (ended(), outcome),
      (error: unknown) => {
        ended();
        throw error;
      },
    );
  } catch (error) {
    ended();
    throw error;
  }
}
