/**
 * A page's source for the page cache: the wrapped answerer, called with the shared fill's facts.
 * The cache calls it down (produce, or a background refresh) and never back up into the page
 * stage; the attempt this request made itself is kept for its record (a waiter made none).
 */
import type { PageSource, StoredAnswer } from '../cache/types.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { copyWith } from '../hot-path.js';
import { NO_SIGNAL } from './answerer.js';
import type { Answerer, ReadFacts } from './answerer.js';
import type { Outcome } from './parts.js';
import { toStored } from './stored-answer.js';

export class PageFill implements PageSource {
  /** The upstream attempt this request made itself, when it filled the page. */
  filled: Outcome | undefined;

  /** `facts` are the client's request's: a fill is made with the shared fill's (`sharedFacts`), only when one is made (never on a HIT). */
  constructor(
    private readonly answerer: Answerer,
    private readonly request: CanonicalRequest,
    private readonly facts: ReadFacts,
  ) {}

  async produce(): Promise<StoredAnswer> {
    this.filled = await this.answerer(this.request, sharedFacts(this.facts));
    return storedOf(this.filled);
  }

  async refresh(): Promise<StoredAnswer> {
    // With traces exported, the refresh's calls are marked background on the request's trace.
    const spans = this.request.trail.trace.spans;
    if (spans) spans.background = true;
    return storedOf(await this.answerer(this.request, sharedFacts(this.facts)));
  }
}

/** A shared fill carries no body of the client's, is never cancelled by it, and renders nothing the key does not hold. */
function sharedFacts(facts: ReadFacts): ReadFacts {
  return copyWith(facts, { rawBody: null, shared: true, signal: NO_SIGNAL });
}

/** The attempt as the cache takes it: a fallback is marked, so it is never stored as the api2 page. */
function storedOf(attempt: Outcome): StoredAnswer {
  const stored = toStored(attempt.answer);
  return attempt.fallback === true ? { ...stored, fallback: true } : stored;
}
