/**
 * The page cache of the catalogue's cached operations (`cache: 'pages'` on an operation), in
 * every mode, on the PageCache.
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
 * - What a successful write drops is said by the catalogue (`drops` on the operation): every page
 *   (review writes move StarRating and ReviewCount), or the writing user's pages (favorites move
 *   IsBookmark). Changes made through other channels show after the TTL.
 * - Pages with `Set-Cookie`, varying on headers other than Accept and Accept-Encoding, in a
 *   content coding other than the one the fill asked for, or answered by legacy for a failed api2
 *   (a fallback), are not stored.
 */
import { LRUCache } from 'lru-cache';
import type { Operation } from '../catalogue/operations.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { PageCache } from './page-cache.js';
import type { FreshnessPolicy, PageSource, ServeRequest, Served, StoredAnswer } from './types.js';
import { pageKey } from './page-key.js';
import type { HmacSha256 } from '../request/hmac.js';
import { createSecretHasher } from './secret-hasher.js';
import type { CacheTier } from './tier.js';
import { WriteClock } from '../traffic/write-clock.js';

export interface SearchCacheConfig {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly honorClientNoCache: boolean;
  readonly keyKnowledgeTtlMs: number;
  /** A shared tier (L2, every replica): with it, `hashKey` (shared by the replicas) keys the hashes. */
  readonly tier?: CacheTier | undefined;
  readonly hashKey?: string | undefined;
  /** The runtime's HMAC-SHA256 (RuntimeBindings.hmacSha256). */
  readonly hmacSha256: HmacSha256;
}

export interface PageRequest {
  /** The request a shared fill of the page forwards is rendered from it, and the key is made of it. */
  readonly canonical: CanonicalRequest;
  readonly side: string;
  readonly cacheControl: string | undefined;
  readonly policy: FreshnessPolicy;
  /** Keeps a background refresh alive on runtimes that would cut it (RuntimeBindings.defer). */
  readonly defer?: (work: Promise<unknown>) => void;
}

const STORABLE_VARY = new Set(['accept', 'accept-encoding']);

function storable(answer: StoredAnswer, coding: string | undefined): boolean {
  // Legacy's bytes under an api2 key would be served and recorded as api2's answers.
  if (answer.fallback === true || answer.setCookie.length > 0) return false;
  // A page in another coding than the fill asked for would reach clients that never accepted it.
  const sent = answer.headers['content-encoding']?.trim().toLowerCase();
  if (sent !== undefined && sent !== 'identity' && sent !== coding) return false;
  const vary = answer.headers['vary'];
  if (!vary) return true;
  return vary.split(',').every((token) => STORABLE_VARY.has(token.trim().toLowerCase()));
}

/**
 * One request as the page cache asks it (ServeRequest). A class, not an object of closures: a
 * HIT, which calls none of them, makes one object (some 430 B a HIT less, allocation profile).
 */
class SearchServe implements ServeRequest {
  readonly flightKey: string;
  readonly policy: FreshnessPolicy;
  readonly mayReadStored: boolean;
  readonly defer: ((work: Promise<unknown>) => void) | undefined;
  private readonly paid: boolean;
  private readonly coding: string;

  constructor(
    private readonly cache: SearchCache,
    request: PageRequest,
    readonly source: PageSource,
    readonly key: string,
    private readonly keyHash: string,
    /** What was known of the api key when the request came. */
    private readonly known: { paid: boolean } | undefined,
    readonly group: string | null,
    readonly bypass: boolean,
  ) {
    this.policy = request.policy;
    this.defer = request.defer;
    this.paid = request.canonical.paidParams;
    this.coding = request.canonical.encoding;
    this.mayReadStored = known !== undefined && (!this.paid || known.paid);
    this.flightKey = this.mayReadStored ? key : `${key}\n${keyHash}`;
  }

  learn(answer: StoredAnswer): void {
    if (answer.status === 200) this.cache.keyAnswered(this.keyHash, this.paid, this.known);
  }

  storable(answer: StoredAnswer): boolean {
    return storable(answer, this.coding);
  }

  trustFact(): string {
    return `known\n${this.keyHash}\n${this.paid ? 'paid' : 'any'}`;
  }
}

export class SearchCache {
  readonly pages: PageCache;
  /** The writes seen here and, through the shared tier, on every replica (races of shadow comparisons). */
  readonly writes = new WriteClock();
  private readonly hash: (secret: string) => string;
  /** api_key hash → whether it was seen answered 200 with paid parameters. */
  private readonly knownKeys: LRUCache<string, { paid: boolean }>;

  constructor(private readonly config: SearchCacheConfig) {
    this.hash = createSecretHasher(config.hmacSha256, 10_000, config.tier ? config.hashKey : undefined);
    this.pages = new PageCache({ maxEntries: config.maxEntries, maxBytes: config.maxBytes, tier: config.tier, onInvalidated: (group) => this.writes.ended(group) });
    this.knownKeys = new LRUCache({ max: 100_000, ttl: config.keyKnowledgeTtlMs });
  }

  /** At once for a HIT or a STALE page (see PageCache.serve), else once the source answered. */
  serve(request: PageRequest, source: PageSource): Served | Promise<Served> {
    const { apiKey, authorization, paidParams } = request.canonical;
    const keyHash = this.hash(`api_key\n${apiKey}`);
    const userHash = authorization ? this.userGroup(authorization) : null;
    const key = pageKey(request.canonical, { side: request.side, plan: paidParams ? 'paid' : 'any', userHash });
    const bypass = this.config.honorClientNoCache && /\bno-cache\b/i.test(request.cacheControl ?? '');
    return this.pages.serve(new SearchServe(this, request, source, key, keyHash, this.knownKeys.get(keyHash), userHash, bypass));
  }

  /** The upstream answered an api key 200 (`paidParams`: to paid-plan parameters); `known`: what was known of it before. */
  keyAnswered(keyHash: string, paidParams: boolean, known: { paid: boolean } | undefined): void {
    this.knownKeys.set(keyHash, { paid: paidParams || (known?.paid ?? false) });
    // Other replicas learn it through the shared tier (nothing is remembered without one).
    this.pages.remember(`known\n${keyHash}\nany`, this.config.keyKnowledgeTtlMs);
    if (paidParams) this.pages.remember(`known\n${keyHash}\npaid`, this.config.keyKnowledgeTtlMs);
  }

  /** Detaches the page cache from the shared tier (a reload replaced this cache). */
  dispose(): void {
    this.pages.dispose();
  }

  /**
   * A rollout moved a route's clients off api2 (or its plan ended): the pages it served go, on every
   * replica and in the shared tier, as after a write that drops every page. (Its api2 pages are
   * already out of reach: their key carries the route's page epoch.) Never rejects.
   */
  async afterRouteMove(): Promise<void> {
    await this.pages.invalidateAll();
  }

  /**
   * A successful write of `operation` changed what pages show (as the catalogue says). Resolves
   * once the shared tier took the invalidation, or once it could not in time (the tier bounds
   * the wait, logs and counts it); never rejects: the write is answered either way.
   */
  async afterWrite(operation: Operation, authorization: string | undefined): Promise<void> {
    if (operation.drops === 'all-pages') await this.pages.invalidateAll();
    else if (operation.drops === 'user-pages' && authorization) await this.pages.invalidateGroup(this.userGroup(authorization));
  }

  /** The group of a user's pages (what a user-pages write drops, on every replica): a keyed hash of the whole Authorization header. */
  userGroup(authorization: string): string {
    return this.hash(`authorization\n${authorization}`);
  }
}
