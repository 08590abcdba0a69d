/**
 * What the console's overview and an operation's page show of one operation, gathered once: its
 * judgement and evidence, its way (step bar), its state in words and why (operation-words.ts),
 * the next action (a button where an admin action does it), and its requests with api2's share.
 * Pure: from the console model and the rollout runner's snapshot.
 */
import { defaultPlan } from '../migration/judgement/default-plan.js';
import type { DecisionLike } from '../migration/judgement/types.js';
import type { RolloutSnapshot } from '../migration/rollout/runner.js';
import type { RolloutAction } from '../migration/rollout/actions.js';
import type { GateResult } from '../migration/rollout/state.js';
import { exposureRank, positionKey } from '../migration/rollout/steps.js';
import { isOperationId, operationById } from '../catalogue/operations.js';
import type { ConsoleModel, ConsoleOperation } from './console-model.js';
import { stateWords, whySentence } from './operation-words.js';
import type { WordFacts } from './operation-words.js';
import { positionOfMode, wayOf } from './step-bar.js';
import type { Way } from './step-bar.js';

export interface NextAction {
  /** The judgement's next action, whole (what /admin/rollout says). */
  readonly text: string;
  /** The admin action that does it, when one does (POST /admin/rollout/<op>/<action>), with its button's words. */
  readonly action: { readonly name: RolloutAction; readonly label: string } | null;
}

export interface OperationFacts extends ConsoleOperation {
  readonly words: { readonly key: string; readonly words: string };
  readonly why: string;
  /** null: it cannot move (legacy only). */
  readonly way: Way | null;
  readonly next: NextAction;
  readonly requests: number;
  /** api2's answers among them, or null without requests. */
  readonly api2Share: number | null;
  readonly decisions: readonly DecisionLike[];
  readonly planned: boolean;
}

/** The last move off api2 with no move forward after it, with the gates that failed for it. */
function lastBack(decisions: readonly DecisionLike[]): WordFacts['back'] {
  let back: WordFacts['back'] = null;
  let failed: readonly GateResult[] = [];
  for (const d of decisions) {
    if (d.kind === 'gate-failed') failed = d.gates?.filter((g) => g.outcome === 'fail') ?? [];
    if (positionKey(d.from) === positionKey(d.to)) continue;
    const down = exposureRank(d.to) < exposureRank(d.from);
    const gates = d.gates?.some((g) => g.outcome === 'fail') ? d.gates.filter((g) => g.outcome === 'fail') : failed;
    back = down ? { from: d.from, to: d.to, gates: d.by === 'controller' ? gates : [], by: d.operator ?? d.by, reason: d.reason } : null;
    if (d.kind !== 'gate-failed') failed = [];
  }
  return back;
}

const BUTTONS: Readonly<Record<string, NextAction['action']>> = {
  paused: { name: 'resume', label: 'Resume' },
  'rolled-back': { name: 'resume', label: 'Start again' },
};

function pathsOf(op: ConsoleOperation, model: ConsoleModel): string[] {
  const fields = op.evidence.shadow.fields?.map((f) => f.path) ?? [];
  if (fields.length > 0) return fields;
  const examples = model.differences.find((d) => d.operation === op.operation)?.examples ?? [];
  return [...new Set(examples.map((e) => e.path))];
}

export function operationFacts(op: ConsoleOperation, model: ConsoleModel, snapshot: RolloutSnapshot | undefined): OperationFacts {
  const { judgement, evidence, route } = op;
  const view = snapshot?.operations.find((v) => v.operation === op.operation);
  const decisions = (snapshot?.events ?? []).filter((e) => e.operation === op.operation);
  const write = isOperationId(op.operation) ? !operationById(op.operation).safe : false;
  const way = !judgement.canMove
    ? null
    : view
      ? wayOf(view.steps, view.state?.at ?? 'legacy', decisions)
      : wayOf(defaultPlan(write).steps, positionOfMode(route.mode, route.canaryPercent), [], false);
  const lastFailed = [...decisions].reverse().find((d) => d.kind === 'gate-failed')?.gates?.filter((g) => g.outcome === 'fail') ?? [];
  const facts: WordFacts = { judgement, paths: pathsOf(op, model), back: lastBack(decisions), waiting: view?.state?.status === 'waiting', lastFailed };
  const requests = evidence.legacy.requests + evidence.api2.requests;
  return {
    ...op,
    words: stateWords(facts),
    why: whySentence(facts),
    way,
    next: { text: judgement.next, action: view ? (BUTTONS[judgement.state] ?? null) : null },
    requests,
    api2Share: requests === 0 ? null : evidence.api2.requests / requests,
    decisions,
    planned: view !== undefined,
  };
}
