/**
 * An operation's page, `/admin/operations/<id>`, linked from its row of the console: its way,
 * state, why and next action, every gate with n, k and its bounds against the tolerance, its
 * figures per side in the evidence window, the example differences, its clients on each side
 * (from the usage log, when it is written to a file), its history collapsed, and the actions
 * with who and why. Server-rendered, no script; the same facts as the overview (operation-facts.ts).
 */
import type { AdminView } from '../gateway/admin-port.js';
import type { ActiveConfig, JudgementSource } from '../migration/judgement/source.js';
import { collapseHistory } from '../migration/judgement/history.js';
import type { RolloutSnapshot } from '../migration/rollout/runner.js';
import type { RolloutEvent } from '../migration/rollout/state.js';
import type { PlansByOperation } from '../migration/rollout/client-standing.js';
import type { ClientSection } from '../report/types.js';
import { clientName, formatCount } from '../display/format.js';
import { html, raw } from '../display/html.js';
import type { Html } from '../display/html.js';
import { spanInWords, timeHtml } from '../display/time.js';
import { sideText, latencyText, shadowText } from '../migration/readiness-table.js';
import type { ClientHistory } from './console-clients.js';
import { consoleModel } from './console-model.js';
import type { ConsoleModel } from './console-model.js';
import { OPERATIONS_PATH, actionsForm, nextHtml, stateHtml } from './console-overview.js';
import { oneRowPerMove, historyRows } from './console-rollout.js';
import { CONSOLE_STYLE } from './console-style.js';
import { gatesTable } from './gate-bars.js';
import { operationFacts } from './operation-facts.js';
import type { OperationFacts } from './operation-facts.js';
import { stepBarHtml } from './step-bar.js';

const ACTIONS = [
  ['pause', 'Pause'],
  ['resume', 'Resume'],
  ['promote', 'Promote to the next step'],
  ['rollback', 'Roll back to legacy'],
] as const;

function figures(op: OperationFacts, windowWords: string): Html {
  const { legacy, api2 } = op.evidence;
  return html`<table id="figures"><thead><tr><th></th><th>legacy</th><th>api2</th></tr></thead><tbody>
<tr><td>answers (4xx, 5xx)</td><td data-field="legacyRequests" data-value="${legacy.requests}">${sideText(legacy)}</td><td data-field="api2Requests" data-value="${api2.requests}">${sideText(api2)}</td></tr>
<tr><td>p50 / p95</td><td>${latencyText(legacy)}</td><td>${latencyText(api2)}</td></tr>
<tr><td>shadow comparisons agreeing</td><td colspan="2">${shadowText(op.evidence.shadow)}</td></tr>
<tr><td>fallbacks to legacy</td><td colspan="2">${formatCount(op.evidence.fallbacks)}</td></tr></tbody></table><p class="muted">Counted ${windowWords}; the gates above judge the step's own evidence.</p>`;
}

function differences(model: ConsoleModel, operation: string, nowMs: number): Html {
  const examples = model.differences.find((d) => d.operation === operation)?.examples ?? [];
  if (examples.length === 0) return html`<p class="muted" id="differences">No differing comparison kept for it under the config in force.</p>`;
  const rows = examples.map((e) => html`<tr data-path="${e.path}"><td>${e.path}</td><td data-field="legacy"><code>${e.legacy}</code></td><td data-field="api2"><code>${e.api2}</code></td><td>${timeHtml(e.time, nowMs)}</td></tr>`);
  return html`<div class="scroll"><table id="differences"><thead><tr><th>path</th><th>legacy</th><th>api2</th><th>when</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function clients(sections: readonly ClientSection[] | undefined, operation: string): Html {
  if (!sections) return html`<p class="muted" id="clients">Clients per side are read from the usage log: set observability.log.destination to a file.</p>`;
  const side = (name: string) =>
    sections.flatMap((c) => {
      const answers = c.operations.find((o) => o.operation === operation)?.sides.find((s) => s.side === name)?.answers ?? 0;
      return answers > 0 ? [html`<li data-client="${c.client}" data-value="${answers}">${clientName(c)} (${formatCount(answers)})</li>`] : [];
    });
  const [legacy, api2] = [side('legacy'), side('api2')];
  const list = (items: Html[]) => (items.length === 0 ? html`<p class="muted">none</p>` : html`<ul>${items}</ul>`);
  return html`<table id="clients"><thead><tr><th>answered by legacy</th><th>answered by api2</th></tr></thead><tbody><tr><td data-side="legacy">${list(legacy)}</td><td data-side="api2">${list(api2)}</td></tr></tbody></table>`;
}

export function renderOperationPage(op: OperationFacts, model: ConsoleModel, sections: readonly ClientSection[] | undefined, nowMs: number): string {
  const windowWords = `in the last ${spanInWords(model.toMs - model.evidenceFromMs)}`;
  const history = collapseHistory(oneRowPerMove(op.decisions as readonly RolloutEvent[])).reverse();
  const actions = op.planned ? html`<div id="actions">${actionsForm(op.operation, ACTIONS)}</div>` : html`<p class="muted" id="actions">No rollout plan: give it one (routes.${op.operation}.rollout) to move it with these actions.</p>`;
  const body = html`<p><a href="/admin">Migration console</a> · <a href="/admin/clients">Clients</a></p>
<h1>${op.operation}</h1>
<table id="summary" class="overview"><tbody><tr data-operation="${op.operation}"><td>${op.way ? stepBarHtml(op.way) : ''}</td><td>${stateHtml(op)}</td><td data-field="why">${op.why}</td>${nextHtml(op, true)}</tr></tbody></table>
<h2>Gates</h2>${gatesTable(op.judgement.gates, model.differences.find((d) => d.operation === op.operation)?.examples.map((e) => e.path) ?? [])}
<h2>Figures</h2>${figures(op, windowWords)}
<h2>Example differences</h2>${differences(model, op.operation, nowMs)}
<h2>Clients on each side</h2>${clients(sections, op.operation)}
<h2>Actions</h2>${actions}
<details id="history"><summary>History (${history.length}), newest first</summary>${history.length === 0 ? html`<p class="muted">No move yet.</p>` : html`<div class="scroll"><table id="rollout-moves"><thead><tr><th>when</th><th>operation</th><th>what</th><th>from → to</th><th>by</th><th>why</th></tr></thead><tbody>${historyRows(history, nowMs)}</tbody></table></div>`}</details>`;
  // CONSOLE_STYLE is a constant, never data: written as it is.
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${op.operation}: migration console</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${raw(CONSOLE_STYLE)}</style></head><body>${body}</body></html>
`.toString();
}

const page = (title: string, text: string): string => html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><p><a href="/admin">Migration console</a></p><p id="unknown-operation">${text}</p></body></html>`.toString();

/** `/admin/operations/:operation` on the judgement, config, rollout and differences the console shows. */
export function operationView(
  judge: JudgementSource,
  active: () => ActiveConfig | undefined,
  rollout: () => RolloutSnapshot | undefined,
  differences: () => ConsoleModel['differences'],
  history: ClientHistory | undefined,
  plans: () => PlansByOperation,
): AdminView {
  return {
    path: `${OPERATIONS_PATH}/:operation`,
    type: 'html',
    async render(params: Readonly<Record<string, string>> = {}) {
      const snapshot = rollout();
      const judged = await judge();
      const now = active();
      if (!judged || !now) return page('Operation', 'starting');
      const model = consoleModel(judged, now.config, snapshot, differences(), Date.parse(now.loadedAt));
      const op = model.operations.find((o) => o.operation === params['operation']);
      if (!op) return page('Operation', `No operation ${params['operation'] ?? ''} in the catalogue.`);
      const sections = history ? await history.sections(plans()) : undefined;
      return renderOperationPage(operationFacts(op, model, snapshot), model, sections, Date.now());
    },
  };
}
