/**
 * The search page cache: `recipes.search` answers, in every mode, on the PageCache.
 *
 * Who may read a stored page (DECISIONS):
 * - Pages never depend on the api_key itself, only on whether paid-plan parameters are used, so
 *   the key holds the plan class, not the api_key. A stored page is served to an api_key only once
 *   the upstream has answered that key 200 (and, for a page with paid parameters, 200 to paid
 *   parameters) within `cache.keyKnowledgeTtlMs`: an unknown, revoked or free key is never served
 *   a page it would have been refused. Until then its request goes upstream, sharing the call
 *   only with requests carrying the same key.
 * - IsBookmark depends on the user: a request with credentials gets pages of its own, keyed by a
 *   keyed hash of its whole Authorization header (user AND password), so no user ever reads
 *   another user's bookmarks, and a wrong password never reads the right one's page.
 * - A review write through the gateway (create, update, delete) drops every search page (it moves
 *   StarRating and ReviewCount); a favorite add or remove drops that user's pages (IsBookmark).
 *   Changes made through other channels show after the TTL.
 * - Favorites and try-soon reads are not cached: per-user lists that change through channels the
 *   gateway does not see, where a stale list right after the user's own change is a visible fault.
 * - Pages with `Set-Cookie`, or varying on headers other than Accept and Accept-Encoding, are not stored.
 */
import { LRUCache } from 'lru-cache';
import type { OperationId } from '../catalogue/operations.js';
import { PageCache } from './page-cache.js';
import type { FreshnessPolicy, Served, StoredAnswer } from './page-cache.js';
import { searchCacheKey } from './search-key.js';
import { createSecretHasher } from './secret-hasher.js';
import type { CacheTier } from './tier.js';

export interface SearchCacheConfig {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly honorClientNoCache: boolean;
  readonly keyKnowledgeTtlMs: number;
  readonly policy: FreshnessPolicy;
  /** A shared tier (L2, every replica): with it, `hashKey` (shared by the replicas) keys the hashes. */
  readonly tier?: CacheTier | undefined;
  readonly hashKey?: string | undefined;
}

export interface SearchRequest {
  readonly values: Readonly<Record<string, unknown>>;
  readonly apiKey: string;
  readonly authorization: string | undefined;
  readonly mode: string;
  readonly json: boolean;
  readonly acceptEncoding: string | undefined;
  readonly cacheControl: string | undefined;
  readonly paidParams: boolean;
}

const STORABLE_VARY = new Set(['accept', 'accept-encoding']);

function storable(answer: StoredAnswer): boolean {
  if (answer.setCookie.length > 0) return false;
  const vary = answer.headers['vary'];
  if (!vary) return true;
  return vary.split(',').every((token) => STORABLE_VARY.has(token.trim().toLowerCase()));
}

export class SearchCache {
  readonly pages: PageCache;
  private readonly hash: (secret: string) => string;
  /** api_key hash → whether it was seen answered 200 with paid parameters. */
  private readonly knownKeys: LRUCache<string, { paid: boolean }>;

  constructor(private readonly config: SearchCacheConfig) {
    this.hash = createSecretHasher(10_000, config.tier ? config.hashKey : undefined);
    this.pages = new PageCache({ maxEntries: config.maxEntries, maxBytes: config.maxBytes, tier: config.tier });
    this.knownKeys = new LRUCache({ max: 100_000, ttl: config.keyKnowledgeTtlMs });
  }

  /** At once for a HIT or a STALE page (see PageCache.serve), else once the upstream answered. */
  serve(request: SearchRequest, produce: () => Promise<StoredAnswer>, refresh: () => Promise<StoredAnswer>): Served | Promise<Served> {
    const keyHash = this.hash(`api_key\n${request.apiKey}`);
    const userHash = request.authorization ? this.hash(`authorization\n${request.authorization}`) : null;
    const key = searchCacheKey(request.values, {
      mode: request.mode,
      json: request.json,
      gzip: /\bgzip\b/i.test(request.acceptEncoding ?? ''),
      plan: request.paidParams ? 'paid' : 'any',
      userHash,
    });
    const known = this.knownKeys.get(keyHash);
    const trusted = known !== undefined && (!request.paidParams || known.paid);
    const learn = (answer: StoredAnswer): StoredAnswer => {
      if (answer.status !== 200) return answer;
      this.knownKeys.set(keyHash, { paid: request.paidParams || (known?.paid ?? false) });
      // Other replicas learn it through the shared tier (nothing is remembered without one).
      this.pages.remember(`known\n${keyHash}\nany`, this.config.keyKnowledgeTtlMs);
      if (request.paidParams) this.pages.remember(`known\n${keyHash}\npaid`, this.config.keyKnowledgeTtlMs);
      return answer;
    };
    return this.pages.serve({
      key,
      flightKey: trusted ? key : `${key}\n${keyHash}`,
      policy: this.config.policy,
      bypass: this.config.honorClientNoCache && /\bno-cache\b/i.test(request.cacheControl ?? ''),
      mayReadStored: trusted,
      trustFact: () => `known\n${keyHash}\n${request.paidParams ? 'paid' : 'any'}`,
      group: userHash,
      produce: () => produce().then(learn),
      refresh: () => refresh().then(learn),
      storable,
    });
  }

  /** A successful write changed what search pages show. */
  afterWrite(operation: OperationId, authorization: string | undefined): void {
    if (operation.startsWith('reviews.')) this.pages.invalidateAll();
    else if ((operation === 'favorites.create' || operation === 'favorites.delete') && authorization) {
      this.pages.invalidateGroup(this.hash(`authorization\n${authorization}`));
    }
  }
}
