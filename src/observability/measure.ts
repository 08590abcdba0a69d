/**
 * Small measurements for the request record, runtime-agnostic.
 */

/** Milliseconds rounded to 0.01 ms. */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}
