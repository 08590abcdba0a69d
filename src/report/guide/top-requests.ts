/**
 * A client's most frequent requests of one operation (the usage line's `params`), in bounded
 * memory: the Space-Saving summary (Metwally, Agrawal, El Abbadi, "Efficient computation of
 * frequent and top-k elements in data streams", ICDT 2005) with `TOP_REQUESTS_KEPT` counters.
 * Exact while an operation's client sent at most that many distinct requests; beyond, every
 * request sent more than n / TOP_REQUESTS_KEPT times of n is kept, and a count is over by at most
 * n / TOP_REQUESTS_KEPT (the smallest counter). Pure.
 */

/** Counters per client and operation: memory is clients × operations × this × 256 characters at most. */
export const TOP_REQUESTS_KEPT = 8;

export class TopRequests {
  private readonly counts = new Map<string, number>();

  /** `n` more requests with these params (ClickHouse hands sums). */
  add(params: string, n = 1): void {
    const known = this.counts.get(params);
    if (known !== undefined || this.counts.size < TOP_REQUESTS_KEPT) {
      this.counts.set(params, (known ?? 0) + n);
      return;
    }
    // Full: the least counted gives its place, and its count, to the newcomer.
    let least: string | undefined;
    let leastCount = Infinity;
    for (const [text, count] of this.counts) {
      if (count < leastCount || (count === leastCount && text > least!)) [least, leastCount] = [text, count];
    }
    this.counts.delete(least!);
    this.counts.set(params, leastCount + n);
  }

  /** The params, most requests first (equal counts: in text order, so every source ranks alike). */
  ranked(): string[] {
    return [...this.counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([text]) => text);
  }
}
