/**
 * The console's one sentence of why (src/admin/operation-words.ts) is made from the judgement's
 * structured facts: a held read names the differing field and the gate's k of n; a step back
 * names where from and where to; and a verdict this module does not know (a state or a gate added
 * later) reads as the judgement's own detail, never as nothing.
 */
import { describe, expect, it } from 'vitest';
import { headlineOf, stateWords, whySentence } from '../src/admin/operation-words.js';
import type { WordFacts } from '../src/admin/operation-words.js';
import type { Judgement } from '../src/migration/judgement/types.js';
import type { GateResult } from '../src/migration/rollout/state.js';

const differs: GateResult = { gate: 'shadowAgreement', window: 'step', outcome: 'fail', measured: 0.545, bound: 0.1, samples: 11, method: 'anytime-bound', adverse: 6, lower: 0.164, upper: 0.8, confidence: 0.9, needed: 8, toPass: null, reference: null };
const judgement = (extra: Partial<Judgement>): Judgement => ({ operation: 'recipes.search', state: 'held', detail: 'held since 2026-11-28T01:37:09.993Z by shadowAgreement (3 evaluations) at shadow: …', next: '…', canMove: true, step: 'shadow', hold: { gates: ['shadowAgreement'], since: '2026-11-28T01:37:09.993Z', evaluations: 3 }, pausedBy: null, missing: {}, gates: [differs], races: 0, api2Failures: 0, cause: null, ...extra });
const facts = (j: Judgement, extra: Partial<WordFacts> = {}): WordFacts => ({ judgement: j, paths: ['Results[].Title'], back: null, waiting: false, lastFailed: [], ...extra });

describe('the why of an operation', () => {
  it("names the differing field and the gate's k of n, with no raw time", () => {
    const why = whySentence(facts(judgement({})));
    expect(why).toBe('api2 differs on Title in 6 of 11 compared answers');
    expect(stateWords(facts(judgement({})))).toEqual({ key: 'held', words: 'held' });
  });

  it('names an api2 outage as one, not as the mapping differing', () => {
    const failing: GateResult = { ...differs, gate: 'errorRate', adverse: 24, samples: 50, reference: { adverse: 0, samples: 50, rate: 0 } };
    const j = judgement({ gates: [failing], hold: { gates: ['errorRate'], since: '2026-11-28T01:37:09.993Z', evaluations: 2 }, cause: 'api2-unavailable', api2Failures: 24 });
    expect(whySentence(facts(j))).toBe('api2 unavailable: api2 failed 24 of 50 answers (legacy 0 of 50); it moves on when api2 recovers');
  });

  it('says a step back apart from a step forward', () => {
    const j = judgement({ state: 'rolling-out', hold: null, gates: [], step: 20 });
    const back = { from: 50 as const, to: 20 as const, gates: [{ ...differs, samples: 12, adverse: 8 }], by: 'controller', reason: '…' };
    expect(stateWords(facts(j, { back }))).toEqual({ key: 'stepped-back', words: 'stepped back' });
    expect(whySentence(facts(j, { back }))).toBe('stepped back from 50 % to 20 %: api2 differs on Title in 8 of 12 compared answers');
    expect(stateWords(facts(j))).toEqual({ key: 'rolling-out', words: 'moving' });
  });

  it("reads a verdict it does not know as the judgement's own detail", () => {
    const unknown = judgement({ state: 'api2-unavailable' as Judgement['state'], detail: 'api2 answered none of the last 40 calls', gates: [] });
    expect(whySentence(facts(unknown))).toBe('api2 answered none of the last 40 calls');
    expect(stateWords(facts(unknown))).toEqual({ key: 'api2-unavailable', words: 'api2 unavailable' });
    const newGate = { ...differs, gate: 'contractCheck' as GateResult['gate'] };
    expect(whySentence(facts(judgement({ gates: [newGate] })))).toContain('contractCheck');
  });

  it('counts in the headline the states as the rows name them: writes waiting for their reads apart from evidence collected', () => {
    const waiting = stateWords(facts(judgement({ state: 'collecting', hold: null, gates: [], step: 'legacy' }), { waiting: true }));
    const collecting = stateWords(facts(judgement({ state: 'collecting', hold: null, gates: [], step: null })));
    const back = stateWords(facts(judgement({ state: 'rolling-out', hold: null, gates: [], step: 20 }), { back: { from: 50, to: 20, gates: [], by: 'controller', reason: '…' } }));
    const paused = stateWords(facts(judgement({ state: 'paused', pausedBy: { by: 'alice', reason: 'late' } })));
    expect(paused.words).toBe('paused by alice');
    expect(headlineOf([waiting, waiting, collecting, back, paused])).toBe('5 operations: 1 stepped back, 1 paused, 2 waiting for their reads, 1 collecting evidence');
  });
});
