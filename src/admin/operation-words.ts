/**
 * An operation's state in words and its one sentence of why, built from the judgement's
 * structured facts (the state, the gates' n and k, the differing field paths, who moved it),
 * for the console's overview and an operation's page. The one place where a verdict becomes
 * words: a new state or gate is added to STATE_WORDS / WHY / GATE_SENTENCE; one this module does
 * not know reads as the judgement's own detail text. Presentation only: it decides nothing.
 */
import type { Judgement } from '../migration/judgement/types.js';
import { describeGate } from '../migration/rollout/gate-text.js';
import type { GateResult, Position } from '../migration/rollout/state.js';
import { positionLabel } from '../migration/rollout/steps.js';
import { formatCount } from '../display/format.js';

/** The facts a sentence is built from, beside the judgement. */
export interface WordFacts {
  readonly judgement: Judgement;
  /** The differing field paths, most first (the shadow comparisons'). */
  readonly paths: readonly string[];
  /** The last move that took clients off api2, when no move forward came after it. */
  readonly back: { readonly from: Position; readonly to: Position; readonly gates: readonly GateResult[]; readonly by: string; readonly reason: string } | null;
  /** A write waiting on legacy for the reads of its resource. */
  readonly waiting: boolean;
  /** The gates that failed at the last failed evaluation (a hold's evidence when the judgement's own gates are a later, inconclusive one). */
  readonly lastFailed: readonly GateResult[];
}

/** The state a person reads: its key (a CSS class and `data-words`) and its words. */
export function stateWords(facts: WordFacts): { readonly key: string; readonly words: string } {
  const { judgement } = facts;
  if (facts.waiting) return { key: 'waiting', words: 'waiting for its reads' };
  if (judgement.state === 'paused') return { key: 'paused', words: `paused by ${judgement.pausedBy?.by ?? 'an operator'}` };
  if (judgement.state === 'rolling-out' && facts.back) return { key: 'stepped-back', words: 'stepped back' };
  return { key: judgement.state, words: STATE_WORDS[judgement.state] ?? judgement.state.replace(/-/g, ' ') };
}

const STATE_WORDS: Readonly<Record<string, string>> = {
  done: 'done',
  'rolling-out': 'moving',
  held: 'held',
  'rolled-back': 'rolled back',
  ready: 'ready to start',
  collecting: 'collecting evidence',
  'no-evidence': 'no evidence yet',
  'cannot-move': 'cannot move',
};

const plural = (n: number, noun: string): string => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

function onPaths(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const shown = paths.slice(0, 2).map((p) => p.replace(/^.*\]\./, ''));
  return ` on ${shown.join(' and ')}${paths.length > 2 ? ` and ${paths.length - 2} more field${paths.length === 3 ? '' : 's'}` : ''}`;
}

/** One gate's finding in a person's words, from its n and k (`api2 differs on Title in 6 of 11 compared answers`). */
const GATE_SENTENCE: Readonly<Record<string, (gate: GateResult, paths: readonly string[]) => string | undefined>> = {
  shadowAgreement: (g, paths) =>
    g.adverse == null ? undefined : g.adverse === 0 ? `api2 agreed in all ${formatCount(g.samples)} compared answers` : `api2 differs${onPaths(paths)} in ${formatCount(g.adverse)} of ${formatCount(g.samples)} compared answers`,
  errorRate: (g) => {
    if (g.adverse == null) return undefined;
    const legacy = g.reference && g.reference.samples > 0 ? ` (legacy ${formatCount(g.reference.adverse)} of ${formatCount(g.reference.samples)})` : '';
    return `api2 failed ${formatCount(g.adverse)} of ${formatCount(g.samples)} answers${legacy}`;
  },
  latencyP95: (g) => (g.measured === null || g.bound === null ? undefined : `api2's slowest 5 % took ${Math.round(g.measured)} ms, ${g.outcome === 'fail' ? 'over' : 'within'} the ${Math.round(g.bound)} ms allowed`),
  breaker: (g) => (g.measured === null ? undefined : `api2's circuit breaker opened ${plural(g.measured, 'time')}`),
};

export function gateSentence(gate: GateResult, paths: readonly string[] = []): string {
  return GATE_SENTENCE[gate.gate]?.(gate, gate.gate === 'shadowAgreement' ? paths : []) ?? describeGate(gate);
}

/** The failed gates, one per gate (its step window's finding before its last period's). */
function failedSentence(gates: readonly GateResult[], paths: readonly string[]): string | undefined {
  const all = gates.filter((g) => g.outcome === 'fail').sort((a, b) => (a.window === b.window ? 0 : a.window === 'step' ? -1 : 1));
  const failed = all.filter((g, i) => all.findIndex((o) => o.gate === g.gate) === i);
  return failed.length === 0 ? undefined : failed.map((g) => gateSentence(g, paths)).join('; ');
}

const WHAT_MORE: Readonly<Record<string, string>> = { shadowAgreement: 'compared answer', errorRate: 'api2 answer', latencyP95: 'timed api2 answer', breaker: 'evaluation' };

function missingSentence(missing: Readonly<Record<string, number>>): string | undefined {
  const parts = Object.entries(missing).map(([gate, n]) => `about ${formatCount(n)} more ${WHAT_MORE[gate] ?? 'sample'}${n === 1 ? '' : 's'}`);
  return parts.length === 0 ? undefined : `needs ${parts.join(' and ')}`;
}

const at = (j: Judgement): string => (j.step === null ? '' : ` at ${positionLabel(j.step)}`);

/** Per state, the sentence (undefined: the judgement's detail). */
const WHY: Readonly<Record<string, (facts: WordFacts) => string | undefined>> = {
  held: ({ judgement, paths, lastFailed }) => {
    const why = failedSentence(judgement.gates, paths) ?? failedSentence(lastFailed, paths) ?? (judgement.hold ? `held by ${judgement.hold.gates.join(', ') || 'a gate'}${at(judgement)}` : undefined);
    // An outage is named as one: nothing in the mapping is wrong, and it moves on by itself.
    return why && judgement.cause === 'api2-unavailable' ? `api2 unavailable: ${why}; it moves on when api2 recovers` : why;
  },
  'rolled-back': ({ back, paths }) => {
    if (!back) return undefined;
    const gates = failedSentence(back.gates, paths);
    return gates ? `sent back to legacy from ${positionLabel(back.from)}: ${gates}` : back.reason;
  },
  paused: ({ judgement }) => (judgement.pausedBy ? `${judgement.pausedBy.reason.replace(/^paused by [^:]*:?\s*/, '') || 'no reason given'}${at(judgement)}` : undefined),
  'rolling-out': ({ judgement, back, paths }) => {
    const collecting = missingSentence(judgement.missing);
    if (back) {
      const gates = failedSentence(back.gates, paths);
      return `stepped back from ${positionLabel(back.from)} to ${positionLabel(back.to)}${gates ? `: ${gates}` : ` (${back.reason})`}`;
    }
    return collecting ? `${collecting}${at(judgement)}` : `its gates hold${at(judgement)}; it moves on once the step has lasted its time`;
  },
  collecting: ({ judgement }) => missingSentence(judgement.missing),
  ready: () => 'its default gates hold: it can start',
};

/** The one sentence of why (no state word: the state is shown beside it). */
export function whySentence(facts: WordFacts): string {
  if (facts.waiting) return 'waits on legacy until every read of its resource is at its last step';
  return WHY[facts.judgement.state]?.(facts) ?? facts.judgement.detail;
}

/** The words of each state key in the console's headline, in its order (a key not listed comes last, as its words). */
const HEADLINE: ReadonlyArray<readonly [string, string]> = [
  ['done', 'done'],
  ['rolling-out', 'moving'],
  ['stepped-back', 'stepped back'],
  ['held', 'held by a gate'],
  ['paused', 'paused'],
  ['rolled-back', 'rolled back'],
  ['ready', 'ready to start'],
  ['waiting', 'waiting for their reads'],
  ['collecting', 'collecting evidence'],
  ['no-evidence', 'no evidence yet'],
  ['cannot-move', 'cannot move'],
];

/** `16 operations: 1 done, 5 moving, 6 waiting for their reads, 4 cannot move`: the states as the rows name them. */
export function headlineOf(states: ReadonlyArray<{ readonly key: string; readonly words: string }>): string {
  const counts = new Map<string, number>();
  for (const s of states) counts.set(s.key, (counts.get(s.key) ?? 0) + 1);
  const known = HEADLINE.filter(([key]) => counts.has(key)).map(([key, words]) => `${counts.get(key)} ${words}`);
  const unknown = [...counts].filter(([key]) => !HEADLINE.some(([k]) => k === key)).map(([key, n]) => `${n} ${states.find((s) => s.key === key)!.words}`);
  return `${states.length} operations: ${[...known, ...unknown].join(', ')}`;
}
