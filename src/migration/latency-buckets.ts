/**
 * The readiness model's latency: fixed buckets, so that counts from any source (the live
 * counters, summed over replicas in Redis; the report's files or ClickHouse) give the same p50 and
 * p95 for the same requests, and so the same verdict. A percentile is the upper bound of the
 * bucket where its nearest rank falls ("p95 ≤ 50 ms"); past the last bound, the last bound.
 *
 * A latency's fixed bucket is the one of its latency-sketch bucket's lower edge (the report's
 * sketch, src/report/latency-sketch.ts, 1 % wide buckets): ClickHouse knows large cells only by
 * their sketch buckets, so every source places a value by the same edge. A value on a bound
 * counts in that bound's bucket; one less than 1 % above it may too, alike everywhere.
 */

const RELATIVE_ACCURACY = 0.005;
export const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
export const INV_LOG_GAMMA = 1 / Math.log(GAMMA);
/** Values under this count as 0. */
export const MIN_VALUE = 0.01;
/** Sketch bucket keys from ceil(log_gamma(0.01)) = -461 up. */
export const KEY_OFFSET = 462;
export const BUCKETS = 2048;

/** The latency sketch's bucket of a value (-1 under MIN_VALUE). */
export function sketchIndex(ms: number): number {
  if (!(ms >= MIN_VALUE)) return -1;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log(ms) * INV_LOG_GAMMA) + KEY_OFFSET);
}

/** The value a sketch bucket stands for. */
export function midpoint(index: number): number {
  return (2 * GAMMA ** (index - KEY_OFFSET)) / (GAMMA + 1);
}

/** Upper bounds (ms, inclusive) of the buckets; one more bucket holds what is past the last. */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000, 30_000] as const;
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** The fixed bucket of a latency. */
export function latencyIndex(ms: number): number {
  return fixedIndexOfSketch(sketchIndex(ms));
}

/** The fixed bucket of a sketch bucket (-1: under MIN_VALUE). */
export function fixedIndexOfSketch(index: number): number {
  return index < 0 ? 0 : boundIndex(GAMMA ** (index - 1 - KEY_OFFSET));
}

/** The first bound at or above `ms` (binary search: it runs once per record), LATENCY_BOUNDS_MS.length past the last. */
function boundIndex(ms: number): number {
  let low = 0;
  let high: number = LATENCY_BOUNDS_MS.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (ms <= LATENCY_BOUNDS_MS[mid]!) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Nearest-rank q-quantile of bucket counts, as its bucket's upper bound; null without counts. */
export function bucketQuantile(counts: ArrayLike<number>, q: number): number | null {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i] ?? 0;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i] ?? 0;
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)]!;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}
