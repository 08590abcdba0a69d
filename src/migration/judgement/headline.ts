/**
 * The headline every view prints: the judgements counted by state, in one order
 * (`16 operations: 3 done, 1 held by a gate, 4 cannot move, 8 no evidence yet`).
 */
import { OPERATION_STATES } from './types.js';
import type { Judgement, OperationState } from './types.js';

export const STATE_TEXT: Readonly<Record<OperationState, string>> = {
  done: 'done',
  'rolling-out': 'rolling out',
  held: 'held by a gate',
  paused: 'paused',
  'rolled-back': 'rolled back',
  ready: 'ready to start',
  collecting: 'collecting evidence',
  'no-evidence': 'no evidence yet',
  'cannot-move': 'cannot move',
};

export function stateCounts(judgements: readonly Judgement[]): Record<OperationState, number> {
  const counts = Object.fromEntries(OPERATION_STATES.map((s) => [s, 0])) as Record<OperationState, number>;
  for (const j of judgements) counts[j.state]++;
  return counts;
}

export function headline(judgements: readonly Judgement[]): string {
  const catalogued = judgements.filter((j) => j.operation !== 'uncatalogued');
  const counts = stateCounts(catalogued);
  const parts = OPERATION_STATES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${STATE_TEXT[s]}`);
  return `${catalogued.length} operations: ${parts.join(', ')}`;
}
