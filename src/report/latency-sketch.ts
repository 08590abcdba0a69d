/**
 * Latency percentiles in bounded memory, for logs of any size. The first EXACT_LIMIT values are
 * kept as they are (exact nearest-rank percentiles for small logs); past that, values fall in
 * logarithmic buckets (each 1 % wide, so an estimate is within 0.5 % of the true value) and a
 * percentile is the nearest-rank bucket's midpoint. Values under 0.01 ms count as 0; values
 * above about 2 hours count as 2 hours.
 */
const RELATIVE_ACCURACY = 0.005;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
export const INV_LOG_GAMMA = 1 / Math.log(GAMMA);
const MIN_VALUE = 0.01;
/** Bucket keys from ceil(log_gamma(0.01)) = -461 up. */
export const KEY_OFFSET = 462;
export const BUCKETS = 2048;
/** Up to this many values are kept exactly. */
export const EXACT_LIMIT = 4096;

export class LatencySketch {
  private buckets: Uint32Array | null = null;
  private zeros = 0;
  private total = 0;
  private exact: number[] | null = [];

  add(ms: number): void {
    if (this.exact !== null) {
      this.exact.push(ms >= MIN_VALUE ? ms : 0);
      if (this.exact.length > EXACT_LIMIT) this.toBuckets();
      return;
    }
    this.addToBuckets(ms);
  }

  /** Adds `ms` `count` times: the same sketch as `count` calls of add(ms). */
  addCount(ms: number, count: number): void {
    let left = count;
    for (; left > 0 && this.exact !== null; left--) this.add(ms);
    if (left > 0) this.addToBuckets(ms, left);
  }

  /**
   * Adds `count` values known only by their bucket (`index` as addToBuckets computes it, or -1 for
   * values under 0.01 ms), for a source that bucketed them itself (ClickHouse). Only for a sketch
   * past EXACT_LIMIT values, as the bucketing source knows.
   */
  addToBucket(index: number, count: number): void {
    if (this.exact !== null) this.toBuckets();
    this.total += count;
    if (index < 0) this.zeros += count;
    else this.buckets![Math.min(BUCKETS - 1, index)]! += count;
  }

  /** Adds every value of another sketch. */
  merge(other: LatencySketch): void {
    if (other.exact !== null) {
      for (const value of other.exact) this.add(value);
      return;
    }
    if (this.exact !== null) this.toBuckets();
    const mine = this.buckets!;
    const theirs = other.buckets!;
    for (let i = 0; i < BUCKETS; i++) mine[i]! += theirs[i]!;
    this.zeros += other.zeros;
    this.total += other.total;
  }

  get count(): number {
    return this.exact !== null ? this.exact.length : this.total;
  }

  /** Nearest-rank percentile (q in 0..1), rounded to 0.01 ms; null when empty. */
  quantile(q: number): number | null {
    if (this.exact !== null) {
      if (this.exact.length === 0) return null;
      const sorted = Float64Array.from(this.exact).sort();
      return Math.round(sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]! * 100) / 100;
    }
    const rank = Math.max(1, Math.ceil(q * this.total));
    if (rank <= this.zeros) return 0;
    let seen = this.zeros;
    const buckets = this.buckets!;
    for (let i = 0; i < BUCKETS; i++) {
      seen += buckets[i]!;
      if (seen >= rank) return Math.round(((2 * GAMMA ** (i - KEY_OFFSET)) / (GAMMA + 1)) * 100) / 100;
    }
    return null;
  }

  private toBuckets(): void {
    const kept = this.exact ?? [];
    this.exact = null;
    this.buckets = new Uint32Array(BUCKETS);
    for (const value of kept) this.addToBuckets(value);
  }

  private addToBuckets(ms: number, count = 1): void {
    this.total += count;
    if (!(ms >= MIN_VALUE)) {
      this.zeros += count;
      return;
    }
    const index = Math.min(BUCKETS - 1, Math.ceil(Math.log(ms) * INV_LOG_GAMMA) + KEY_OFFSET);
    this.buckets![index]! += count;
  }
}
