/**
 * Applies a mapping's declared losses to a parsed legacy answer: each lost field is set to the
 * value the adapter fills it with, so that two answers can be compared on everything else.
 * Paths: `a.b`, `Results[].Poster.IsPremium`, `[].MakeAgain` (`[]` = every array entry).
 */
import type { Loss } from '../../mappings/types.js';

export function applyLosses(value: unknown, losses: readonly Loss[]): unknown {
  const copy = structuredClone(value);
  for (const loss of losses) setPath(copy, loss.field.split(/\.|(?=\[\])/).filter((s) => s !== ''), loss.fill);
  return copy;
}

function setPath(target: unknown, steps: string[], fill: unknown): void {
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
