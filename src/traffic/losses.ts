/**
 * Applies a mapping's declared losses to a parsed legacy answer: each lost field is set to the
 * value the adapter fills it with, so two answers can be compared on everything else. Used by the
 * shadow comparison, and by the tests that prove api2 mode answers like legacy.
 * Paths: `a.b`, `Results[].Poster.IsPremium`, `[].MakeAgain` (`[]` = every array entry).
 */
import type { Loss } from '../../mappings/types.js';

export function applyLosses(value: unknown, losses: readonly Loss[]): unknown {
  if (losses.length === 0) return value;
  const copy = structuredClone(value);
  for (const loss of losses) setPath(copy, loss.field.split(/\.|(?=\[\])/).filter((s) => s !== ''), loss.fill);
  return copy;
}

function setPath(target: unknown, steps: readonly string[], fill: unknown): void {
  if (target === null || typeof target !== 'object') return;
  const [step, ...rest] = steps;
  if (step === undefined) return;
  if (step === '[]') {
    if (Array.isArray(target)) for (const entry of target) setPath(entry, rest, fill);
    return;
  }
  const record = target as Record<string, unknown>;
  if (!(step in record)) return;
  if (rest.length === 0) record[step] = fill;
  else setPath(record[step], rest, fill);
}
