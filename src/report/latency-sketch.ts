/**
 * Latency percentiles in bounded memory, for logs of any size. The first EXACT_LIMIT values are
 * kept as they are (exact nearest-rank percentiles for small logs); past that, values fall in
 * logarithmic buckets (each 1 % wide, so an estimate is within 0.5 % of the true value) and a
 * percentile is the nearest-rank bucket's midpoint. Values under 0.01 ms count as 0; values
 * above about 2 hours count as 2 hours.
 *
 * Beside it, the same values in the readiness model's fixed buckets (src/migration/latency-buckets.ts),
 * which the verdict reads so that the report and the live console judge the same requests alike.
 */
import { BUCKETS, LATENCY_BUCKETS, MIN_VALUE, fixedIndexOfSketch, latencyIndex, midpoint, sketchIndex } from '../migration/latency-buckets.js';

export { BUCKETS, INV_LOG_GAMMA, KEY_OFFSET } from '../migration/latency-buckets.js';

/** Up to this many values are kept exactly. */
export const EXACT_LIMIT = 4096;

export class LatencySketch {
  private buckets: Uint32Array | null = null;
  private zeros = 0;
  private total = 0;
  private exact: number[] | null = [];
  /** Counts per fixed bucket (src/migration/latency-buckets.ts). */
  readonly fixed = new Uint32Array(LATENCY_BUCKETS);

  add(ms: number): void {
    this.fixed[latencyIndex(ms)]! += 1;
    this.addValue(ms);
  }

  private addValue(ms: number): void {
    if (this.exact !== null) {
      this.exact.push(ms >= MIN_VALUE ? ms : 0);
      if (this.exact.length > EXACT_LIMIT) this.toBuckets();
      return;
    }
    this.addToBuckets(ms);
  }

  /** Adds `ms` `count` times: the same sketch as `count` calls of add(ms). */
  addCount(ms: number, count: number): void {
    this.fixed[latencyIndex(ms)]! += count;
    let left = count;
    for (; left > 0 && this.exact !== null; left--) this.addValue(ms);
    if (left > 0) this.addToBuckets(ms, left);
  }

  /**
   * Adds `count` values known only by their bucket (`index` as addToBuckets computes it, or -1 for
   * values under 0.01 ms), for a source that bucketed them itself (ClickHouse). Only for a sketch
   * past EXACT_LIMIT values, as the bucketing source knows. Its fixed bucket is the one of the
   * bucket's midpoint, as for every value (src/migration/latency-buckets.ts).
   */
  addToBucket(index: number, count: number): void {
    this.fixed[fixedIndexOfSketch(Math.min(BUCKETS - 1, index))]! += count;
    if (this.exact !== null) this.toBuckets();
    this.total += count;
    if (index < 0) this.zeros += count;
    else this.buckets![Math.min(BUCKETS - 1, index)]! += count;
  }

  /** Adds every value of another sketch. */
  merge(other: LatencySketch): void {
    for (let i = 0; i < LATENCY_BUCKETS; i++) this.fixed[i]! += other.fixed[i]!;
    if (other.exact !== null) {
      for (const value of other.exact) this.addValue(value);
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
      if (seen >= rank) return Math.round(midpoint(i) * 100) / 100;
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
    this.buckets![sketchIndex(ms)]! += count;
  }
}
