/**
 * Anytime-valid bounds on one proportion (a disagreement or error rate) from running counts: n
 * samples, k of them adverse. They hold at every n at once, so a gate may judge the running counts
 * at any look, as often as it likes, and stop at any of them (docs/rollout.md "Gates, evidence,
 * decisions").
 *
 * Method: one-sided likelihood-ratio tests (Wald's SPRT statistic, Wald 1945) judged as test
 * martingales with Ville's inequality (Ville 1939; Robbins 1970; Ramdas et al. 2023), inverted into
 * a confidence sequence. For a candidate rate p and an alternative q whose odds are c times p's,
 *   LR_c(p) = c^k / (1 + (c − 1) p)^n
 * is a nonnegative martingale of mean 1 when the rate is p, so P(it ever reaches 1/α) ≤ α.
 *   upper: the least p that LR_{1/4}(p) rejects at α (an alternative a quarter of p's odds)
 *   lower: the greatest p that LR_2(p) or LR_16(p) rejects, each at α/2 (twice p's odds: a mapping
 *          somewhat worse than tolerated; sixteen times: one that is plainly broken, failed in a
 *          few comparisons)
 * (rejects: reaches 1/α; the rejected rates are those above `upper` and those below `lower`).
 * P(the rate is ever above `upper`) ≤ α and P(ever below `lower`) ≤ α, whatever the looks.
 * LR_c(p) depends on p through 1 + (c − 1) p alone, so each edge is closed-form.
 */

/** The alternatives' odds ratios: the pass side bets on a quarter of the rate, the fail side on twice it and on sixteen times it. */
export const PASS_ODDS_RATIO = 1 / 4;
export const FAIL_ODDS_RATIOS = [2, 16] as const;

export type RateDecision = 'below' | 'above' | 'undecided';

export interface RateBounds {
  /** The rate is at least this, with the confidence asked, at every look at once. */
  readonly lower: number;
  /** The rate is at most this, with the confidence asked, at every look at once. */
  readonly upper: number;
}

/** ln LR_c(p) for k adverse samples out of n. */
function logRatio(n: number, k: number, p: number, c: number): number {
  return k * Math.log(c) - n * Math.log1p((c - 1) * p);
}

/** The rate p at which ln LR_c(p) is ln(1/α) (n > 0): LR_c rejects the rates beyond it (above for c < 1, below for c > 1). */
function edge(n: number, k: number, c: number, alpha: number): number {
  return (Math.exp((k * Math.log(c) - Math.log(1 / alpha)) / n) - 1) / (c - 1);
}

/** The least rate the pass-side test rejects at level α (1 when none): an anytime-valid upper bound. */
export function upperBound(n: number, k: number, alpha: number): number {
  return n === 0 ? 1 : Math.min(1, edge(n, k, PASS_ODDS_RATIO, alpha));
}

/** The greatest rate a fail-side test rejects, each at α/2 (0 when none): an anytime-valid lower bound. */
export function lowerBound(n: number, k: number, alpha: number): number {
  if (n === 0) return 0;
  const share = alpha / FAIL_ODDS_RATIOS.length;
  return Math.min(1, Math.max(0, ...FAIL_ODDS_RATIOS.map((c) => edge(n, k, c, share))));
}

export function rateBounds(n: number, k: number, alpha: number): RateBounds {
  return { lower: lowerBound(n, k, alpha), upper: upperBound(n, k, alpha) };
}

/** below: the rate is under `limit` with confidence 1 − α; above: over it; undecided: keep collecting. */
export function decideRate(bounds: RateBounds, limit: number): RateDecision {
  if (bounds.upper < limit) return 'below';
  if (bounds.lower > limit) return 'above';
  return 'undecided';
}

/**
 * About how many more samples, all clean, bring the upper bound under `limit` (0 when it is
 * already; null when no number of clean samples can: a limit of 0 or less).
 */
export function cleanSamplesToPass(n: number, k: number, limit: number, alpha: number): number | null {
  if (!(limit > 0)) return null;
  if (limit >= 1) return 0;
  const gap = Math.log(1 / alpha) - logRatio(n, k, limit, PASS_ODDS_RATIO);
  if (gap < 0) return 0;
  return Math.floor(gap / -Math.log1p((PASS_ODDS_RATIO - 1) * limit)) + 1;
}
