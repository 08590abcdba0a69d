/**
 * The console's overview: one row per operation that can move, seven columns (the operation,
 * its way as a step bar, its state in words, one sentence of why, the next action (a plain HTML
 * form's button where an admin action does it), its requests and api2's share), then the
 * operations that stay on legacy, grouped apart. Each row links to the operation's page.
 */
import { formatCount, formatPercent } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { OperationFacts } from './operation-facts.js';
import { stepBarHtml } from './step-bar.js';

export const OPERATIONS_PATH = '/admin/operations';

export const operationHref = (operation: string): string => `${OPERATIONS_PATH}/${encodeURIComponent(operation)}`;

/** Where a console form's rollout action comes back to: the operation's page that sent it, else the console. */
export function consoleReturnTo(params: Readonly<Record<string, string>>, input: Readonly<Record<string, string>>): string {
  return input['from'] === 'operation' && params['operation'] ? operationHref(params['operation']) : '/admin';
}

const actionPath = (operation: string, action: string): string => `/admin/rollout/${encodeURIComponent(operation)}/${action}`;

const FROM_PAGE = html`<input type="hidden" name="from" value="operation">`;

/**
 * The operation page's actions: one plain HTML form (works without JavaScript) with who and why,
 * a button per action (POST /admin/rollout/<op>/<action>), answered 303 back to the page (consoleReturnTo).
 */
export function actionsForm(operation: string, actions: ReadonlyArray<readonly [string, string]>): Html {
  return html`<form class="act" id="actions-form" method="post" action="${actionPath(operation, actions[0]![0])}">${FROM_PAGE}<input name="by" aria-label="your name" placeholder="your name" maxlength="64" size="12"> <input name="reason" aria-label="why" placeholder="why" maxlength="300" size="30"> ${actions.map(([name, label]) => html`<button type="submit" formaction="${actionPath(operation, name)}" data-action="${name}">${label}</button> `)}</form>`;
}

/** The next action's words without the admin call it names (the button makes that call). */
const withoutCall = (text: string): string => text.replace(/:?\s*POST \/admin\/\S+?\.?$/, '.');

/** The next action's cell; `onPage`: on the operation's page (its form comes back there). */
export function nextHtml(op: OperationFacts, onPage = false): Html {
  const { text, action } = op.next;
  const form = action ? html`<form class="act" method="post" action="${actionPath(op.operation, action.name)}" data-action="${action.name}">${onPage ? FROM_PAGE : ''}<button type="submit">${action.label}</button></form>` : '';
  return html`<td data-field="next" data-value="${text}" title="${text}">${action ? html`${form} <span class="next-text">${withoutCall(text)}</span>` : html`<span class="next-text">${text}</span>`}</td>`;
}

function requestsHtml(op: OperationFacts): Html {
  return html`<td class="n" data-label="requests" data-field="requests" data-value="${op.requests}" data-legacy="${op.evidence.legacy.requests}" data-api2="${op.evidence.api2.requests}">${formatCount(op.requests)}</td><td class="n" data-label="api2's share" data-field="api2Share" data-value="${op.api2Share ?? ''}">${formatPercent(op.api2Share)}</td>`;
}

export function stateHtml(op: OperationFacts): Html {
  return html`<span class="state ${op.words.key}" data-field="state" data-value="${op.judgement.state}" data-words="${op.words.key}">${op.words.words}</span>`;
}

function row(op: OperationFacts): Html {
  return html`<tr data-operation="${op.operation}"><td class="op"><a href="${operationHref(op.operation)}">${op.operation}</a></td><td data-label="way">${op.way ? stepBarHtml(op.way) : ''}</td><td>${stateHtml(op)}</td><td data-label="why" data-field="why">${op.why}</td>${nextHtml(op)}${requestsHtml(op)}</tr>`;
}

/** The overview and the legacy-only group; `windowWords` names the window the requests are counted in. */
export function overviewHtml(operations: readonly OperationFacts[], windowWords: string): Html {
  const movable = operations.filter((op) => op.judgement.canMove);
  const legacyOnly = operations.filter((op) => !op.judgement.canMove);
  const legacyRows = legacyOnly.map(
    (op) => html`<tr data-operation="${op.operation}"><td class="op"><a href="${operationHref(op.operation)}">${op.operation}</a></td><td>${stateHtml(op)}</td><td data-label="why" data-field="why">${op.why}</td>${nextHtml(op)}${requestsHtml(op)}</tr>`,
  );
  return html`<table id="overview" class="overview"><thead><tr><th>operation</th><th>its way</th><th>state</th><th>why</th><th>next</th><th class="n" title="${windowWords}">requests</th><th class="n">api2's share</th></tr></thead><tbody>${movable.map(row)}</tbody></table>
<p class="muted">Requests ${windowWords}. A step bar shows where each operation is (filled), where it has been (light) and, struck through in orange, the steps it stepped back from; dashed: no plan, placed by its mode on the default plan's steps.</p>
${legacyOnly.length === 0 ? '' : html`<h2>Legacy only</h2><p class="muted">No api2 mapping: these stay on legacy through the gateway.</p><table id="legacy-only" class="overview"><thead><tr><th>operation</th><th>state</th><th>why</th><th>next</th><th class="n">requests</th><th class="n">api2's share</th></tr></thead><tbody>${legacyRows}</tbody></table>`}`;
}
