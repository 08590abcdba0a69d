/**
 * One gate's judgement in words, for the events' reasons, the console and the report. Numbers are
 * printed with as many digits as it takes for two of them to compare as they do unprinted: a
 * failed gate never reads like `0.990 < 0.990`.
 */
import type { GateResult } from './state.js';

/** The fewest significant digits (3 at least) that print `value` and `other` apart, when they differ. */
function digitsApart(value: number, other: number, scale: number): number {
  let digits = 3;
  while (digits < 17 && value !== other && Number((value * scale).toPrecision(digits)) === Number((other * scale).toPrecision(digits))) digits++;
  return digits;
}

const print = (value: number, scale: number, digits: number): string => String(Number((value * scale).toPrecision(digits)));

/** `value` and `other` printed so that their order shows: never `0.990 < 0.990`. */
export function distinctPair(value: number, other: number, scale = 1): [string, string] {
  const digits = digitsApart(value, other, scale);
  return [print(value, scale, digits), print(other, scale, digits)];
}

/** `value` printed with the digits that keep it apart from each of `others`. */
function shown(value: number, others: readonly number[], scale: number): string {
  return print(value, scale, Math.max(3, ...others.map((other) => digitsApart(value, other, scale))));
}

const pct = (value: number, others: readonly number[] = []): string => `${shown(value, others, 100)} %`;

/** A gate's outcome in one word, as every view names it. */
export const GATE_WORD: Record<GateResult['outcome'], string> = { pass: 'held', fail: 'failed', inconclusive: 'collecting' };

const NOUN: Record<GateResult['gate'], string> = { shadowAgreement: 'differ', errorRate: 'api2 errors', latencyP95: 'timed', breaker: 'opens' };

/**
 * `shadowAgreement 0/398 differ (0 %): 95 % upper bound 0.9998 % < 1 % (step)`,
 * `errorRate 4/6 api2 errors (excess 66.7 %): 95 % lower bound 12.3 % > 1 % (recent)`,
 * `latencyP95 500 > 30 (recent, 8 samples)`.
 */
export function describeGate(gate: GateResult): string {
  if (gate.method !== 'anytime-bound' || gate.lower == null || gate.upper == null || gate.bound === null) return describePoint(gate);
  // A rate is printed within [0, 100 %]: a bound beyond it (the interval of an excess over legacy's rate reaches below 0) says no more than the end it is clamped to.
  const [lower, upper] = [clampRate(gate.lower), clampRate(gate.upper)];
  const { bound } = gate;
  const measured = gate.measured === null ? '-' : pct(clampRate(gate.measured));
  const races = gate.races ? `, ${gate.races} ${gate.races === 1 ? 'race' : 'races'} left out` : '';
  const counted = gate.gate === 'errorRate' ? `${gate.adverse ?? '?'}/${gate.samples} api2 errors (excess ${measured}${legacyPart(gate.reference)})` : `${gate.adverse ?? '?'}/${gate.samples} ${NOUN[gate.gate]} (${measured}${races})`;
  const confidence = `${gate.confidence === null || gate.confidence === undefined ? '?' : Number((gate.confidence * 100).toPrecision(6))} %`;
  const head = `${gate.gate} ${counted}: ${confidence}`;
  if (gate.outcome === 'fail') return `${head} lower bound ${pct(lower, [bound])} > ${pct(bound, [lower])} (${gate.window})`;
  if (gate.outcome === 'pass') return `${head} upper bound ${pct(upper, [bound])} < ${pct(bound, [upper])} (${gate.window})`;
  const short = gate.needed !== undefined && gate.samples < gate.needed ? `, ${gate.samples} of ${gate.needed} samples` : '';
  const more = gate.toPass ? `, about ${gate.toPass} more clean to pass` : '';
  return `${head} bounds ${pct(lower, [bound])} to ${pct(upper, [bound])} around ${pct(bound, [lower, upper])}: collecting${short}${more} (${gate.window})`;
}

/** A point or count gate, or a gate judged before the bounds: `latencyP95 500 > 30 (recent, 8 samples)`. */
function describePoint(gate: GateResult): string {
  const higherIsBetter = gate.gate === 'shadowAgreement' && gate.method === undefined;
  // The sign says how the two numbers compare (a gate short of samples may be on either side).
  const within = gate.measured === null || gate.bound === null ? gate.outcome !== 'fail' : higherIsBetter ? gate.measured >= gate.bound : gate.measured <= gate.bound;
  const op = higherIsBetter ? (within ? '≥' : '<') : within ? '≤' : '>';
  const [measured, bound] = gate.measured === null || gate.bound === null ? [plain(gate.measured), plain(gate.bound)] : distinctPair(gate.measured, gate.bound);
  const short = gate.outcome === 'inconclusive' && gate.needed !== undefined && gate.samples < gate.needed ? ` of ${gate.needed} needed` : '';
  return `${gate.gate} ${measured} ${op} ${bound} (${gate.window}, ${gate.samples} samples${short})`;
}

/** Legacy's counts an error rate was compared with, or the stored baseline's rate standing in for them. */
function legacyPart(reference: GateResult['reference']): string {
  if (!reference) return '';
  return reference.samples > 0 ? `, legacy ${reference.adverse}/${reference.samples}` : `, legacy baseline ${pct(reference.rate)}`;
}

const clampRate = (rate: number): number => Math.min(1, Math.max(0, rate));

const plain = (value: number | null): string => (value === null ? '-' : String(Number(value.toPrecision(3))));
