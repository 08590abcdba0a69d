/**
 * The steps of a rolled-out route the log names (its lines' `stepSince`), each with its own
 * counts: the report judges the latest alone (judge-report.ts), and shows every one, compact, in
 * JSON (`readiness.operations[].steps`), text and HTML, so an earlier step's evidence stays readable.
 */
import { formatCount } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { ScopedEvidence } from './scoped-evidence.js';

export interface StepSection {
  /** When the step began (ISO): the lines' `stepSince`. */
  readonly since: string;
  /** The route's mode in force in that step. */
  readonly mode: string;
  /** The step the state is judged on (judge-report.ts); none of the logged ones after a move no line has followed yet. */
  readonly judged: boolean;
  readonly legacy: number;
  readonly api2: number;
  readonly api2Status5xx: number;
  readonly fallbacks: number;
  readonly compared: number;
  readonly agreed: number;
}

/** An operation's steps in one config version, oldest first, `judged` the step judge-report.ts judged; empty when its lines name none. */
export function stepSections(scoped: ScopedEvidence, config: string | undefined, operation: string, judged: number | undefined): StepSection[] {
  return scoped.stepsOf(config, operation).flatMap(({ since, mode }) => {
    const counts = scoped.countsOf(config, operation, mode, since);
    if (!counts) return [];
    return [{
      since: new Date(since).toISOString(),
      mode,
      judged: since === judged,
      legacy: counts.legacy.requests,
      api2: counts.api2.requests,
      api2Status5xx: counts.api2.status5xx,
      fallbacks: counts.fallbacks,
      compared: counts.shadow.compared,
      agreed: counts.shadow.agreed,
    }];
  });
}

/** One step in a few words: `since (mode): legacy N, api2 N (5xx N), fallbacks N, compared N (agreed N)`. */
export function stepText(step: StepSection): string {
  const compared = step.compared > 0 ? `, compared ${formatCount(step.compared)} (agreed ${formatCount(step.agreed)})` : '';
  return `${step.since} (${step.mode})${step.judged ? ' [judged]' : ''}: legacy ${formatCount(step.legacy)}, api2 ${formatCount(step.api2)} (5xx ${formatCount(step.api2Status5xx)}), fallbacks ${formatCount(step.fallbacks)}${compared}`;
}

/** The text section: one line per step of each rolled-out route; none when no line names a step. */
export function stepsText(operations: readonly { readonly operation: string; readonly steps?: readonly StepSection[] }[]): string[] {
  const named = operations.filter((op) => (op.steps?.length ?? 0) > 0);
  if (named.length === 0) return [];
  return ['', 'STEPS OF ROLLED-OUT ROUTES (each step counted apart; the state is judged on the latest)', ...named.flatMap((op) => op.steps!.map((step) => `${op.operation}  ${stepText(step)}`))];
}

/** The HTML section, compact: a list per route. */
export function stepsHtml(operations: readonly { readonly operation: string; readonly steps?: readonly StepSection[] }[]): Html | '' {
  const named = operations.filter((op) => (op.steps?.length ?? 0) > 0);
  if (named.length === 0) return '';
  const items = named.flatMap((op) => op.steps!.map((step) => html`<li data-operation="${op.operation}" data-since="${step.since}" data-judged="${String(step.judged)}">${op.operation} ${stepText(step)}</li>`));
  return html`<h3>Steps of rolled-out routes</h3><p class="muted">Each step counted apart; the state is judged on the latest.</p><ul id="steps">${items}</ul>`;
}
