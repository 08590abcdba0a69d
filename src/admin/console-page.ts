/**
 * The live console: one server-rendered page (hono/html, no script), refreshing itself with a
 * meta refresh, readable without JavaScript. Rows carry their raw numbers in `data-field` /
 * `data-value`, as the report's HTML does (the same readiness cells: src/migration/readiness-table.ts).
 */
import type { Judgement } from '../migration/judgement/types.js';
import type { AdminView } from '../gateway/admin-port.js';
import { BLOCKER_TEXT } from '../migration/blockers.js';
import { consoleModel } from './console-model.js';
import { renderRolloutSection } from './console-rollout.js';
import type { RolloutSnapshot } from '../migration/rollout/runner.js';
import type { ConsoleModel, ConsoleOperation } from './console-model.js';
import type { ActiveConfig, JudgementSource } from '../migration/judgement/source.js';
import { clientName, formatCount } from '../display/format.js';
import { html, raw } from '../display/html.js';
import { READINESS_HTML_HEADERS, readinessHtmlCells } from '../migration/readiness-table.js';
import { dateInWords, spanInWords, timeHtml } from '../display/time.js';
import { CONSOLE_STYLE } from './console-style.js';
import { overviewHtml } from './console-overview.js';
import { operationFacts } from './operation-facts.js';
import { headlineOf } from './operation-words.js';

/** Top blockers shown per client, and clients listed. */
const BLOCKERS_SHOWN = 3;
const CLIENTS_SHOWN = 25;

function routeCells(op: ConsoleOperation) {
  const { route } = op;
  return html`<td data-field="mode" data-value="${route.mode}">${route.mode}${route.fallback ? ' (fallback)' : ''}</td><td class="n" data-field="canaryPercent" data-value="${route.canaryPercent ?? ''}">${route.canaryPercent === null ? '-' : `${route.canaryPercent}%`}</td><td class="n" data-field="shadowSampleRate" data-value="${route.shadowSampleRate ?? ''}">${route.shadowSampleRate === null ? '-' : `${Math.round(route.shadowSampleRate * 1000) / 10}%`}</td>`;
}

/** Differences you can read: the legacy value beside the api2 value at each differing path, recent first. */
function renderDifferences(model: ConsoleModel, nowMs: number) {
  if (model.differences.length === 0) return '';
  const rows = model.differences.flatMap(({ operation, examples }) =>
    examples.map((e) => html`<tr data-operation="${operation}" data-path="${e.path}"><td>${operation}</td><td>${e.path}</td><td data-field="legacy"><code>${e.legacy}</code></td><td data-field="api2"><code>${e.api2}</code></td><td>${timeHtml(e.time, nowMs)}</td></tr>`),
  );
  return html`<h2>Differences</h2><p class="muted">Recent shadow comparisons of this replica under the config in force: each differing path's legacy value beside api2's (cut to 80 characters; user names and secrets never shown).</p><div class="scroll"><table id="differences"><thead><tr><th>operation</th><th>path</th><th>legacy</th><th>api2</th><th>when</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function scopeText(model: ConsoleModel): string {
  return model.scope === 'fleet'
    ? 'Counters of the whole fleet: every replica, summed through Redis.'
    : 'Counters of this replica only (no shared Redis configured, or Redis out): other replicas are not shown.';
}

/** `panel`: HTML of the runtime's own controls shown under the headline (the sandbox's fault form), written as given. */
export function renderConsole(
  model: ConsoleModel,
  refreshSeconds: number,
  rollout?: RolloutSnapshot,
  nowMs = model.toMs,
  judgements: readonly Judgement[] = model.operations.map((op) => op.judgement),
  panel = '',
): string {
  const from = model.evidenceFromMs;
  const began = from === model.configSince ? `config ${model.configHash} came into force` : from === model.startedMs ? 'this process started' : 'the live counters\' oldest';
  const windowWords = `in the evidence window (the last ${spanInWords(model.toMs - from)}, since ${began})`;
  const facts = model.operations.map((op) => operationFacts(op, model, rollout));
  const rows = model.operations.map((op) => html`<tr data-operation="${op.operation}"><td>${op.operation}</td>${routeCells(op)}${readinessHtmlCells(op)}</tr>`);
  const clients = model.clients.slice(0, CLIENTS_SHOWN).map(
    (c) =>
      html`<tr data-client="${c.client}"><td>${clientName(c)}</td><td><ul>${c.blockers
        .slice(0, BLOCKERS_SHOWN)
        .map((b) => html`<li data-kind="${b.kind}" data-value="${b.requests}">${BLOCKER_TEXT[b.kind]} (${formatCount(b.requests)})</li>`)}</ul></td></tr>`,
  );
  const clientSection = !model.clientsKnown
    ? html`<p class="muted">Clients are told apart by their keyed hash, written only with the usage log on (observability.log.enabled).</p>`
    : model.clients.length === 0
      ? html`<p class="muted">No client held back in this window.</p>`
      : html`<table id="clients"><thead><tr><th>client</th><th>top blockers (requests)</th></tr></thead><tbody>${clients}</tbody></table>`;
  const breaker = model.api2BreakerState;
  const body = html`<h1>Migration console</h1>
<p id="scope" data-scope="${model.scope}">${scopeText(model)}</p>
<p id="window" data-from="${from}" data-to="${model.toMs}" data-config="${model.configHash}">Evidence of config ${model.configHash}: since ${timeHtml(from, nowMs)} (${began}), to <span title="${dateInWords(model.toMs)}">now</span>. Refreshes every ${refreshSeconds} s.</p>
<p id="headline"><strong>${headlineOf(facts.filter((op) => op.operation !== 'uncatalogued').map((op) => op.words))}</strong></p>
${raw(panel)}
<p id="breaker">api2 circuit breaker (this replica): <span class="${breaker === 'closed' ? '' : 'open'}" data-field="api2BreakerState" data-value="${breaker}">${breaker}</span>; opened <span data-field="api2BreakerOpens" data-value="${model.api2BreakerOpens}">${formatCount(model.api2BreakerOpens)}</span> times in the window.</p>
<h2>Operations</h2>
${overviewHtml(facts, windowWords)}
<details id="figures"><summary>Every figure per operation: each side's requests, errors and latency, the comparisons, the fallbacks</summary>
<p class="muted">One state per operation, judged by the rollout gates (a plan's, else its default plan's) on the evidence of the config version and step in force: the same states /admin/rollout, /admin/traffic, /metrics and the migration report show. The counts are ${windowWords}; a gate judges its step's alone (an operation's page shows those). Latencies are fixed-bucket bounds (≤).</p>
<div class="scroll"><table id="operations"><thead><tr><th>operation</th><th>mode in force</th><th>canary</th><th>shadow sample</th>${READINESS_HTML_HEADERS}</tr></thead><tbody>${rows}</tbody></table></div></details>
${renderDifferences(model, nowMs)}
${renderRolloutSection(rollout, nowMs, judgements)}
<h2>Clients held back</h2>
${clientSection}
<p><a id="every-client" href="/admin/clients">Every client</a>: its operations, sides, errors, losses, programs and rollout plans, from the usage log.</p>`;
  // CONSOLE_STYLE is a constant, never data: written as it is.
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><noscript><meta http-equiv="refresh" content="${refreshSeconds}"></noscript><title>Migration console</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${raw(CONSOLE_STYLE)}</style></head><body data-refresh="${refreshSeconds}">${body}<script>${raw(REFRESH_IN_PLACE)}</script></body></html>
`.toString();
}

/**
 * With JavaScript, the page refreshes in place (the meta refresh is in <noscript>): it fetches
 * itself every `data-refresh` seconds and swaps its body, keeping the sections opened and the
 * scroll, and waits while a form field has the focus. A constant of this file, never data.
 */
const REFRESH_IN_PLACE = `(() => {
  const seconds = Number(document.body.dataset.refresh) || 5;
  setInterval(async () => {
    const active = document.activeElement;
    if (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) return;
    try {
      const answer = await fetch(location.href, { cache: 'no-store', credentials: 'same-origin' });
      if (!answer.ok) return;
      const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html').body;
      const opened = [...document.querySelectorAll('details[open][id]')].map((d) => d.id);
      const y = window.scrollY;
      document.body.replaceChildren(...fresh.childNodes);
      for (const id of opened) { const d = document.getElementById(id); if (d) d.open = true; }
      window.scrollTo(0, y);
    } catch { /* the next tick tries again */ }
  }, seconds * 1000);
})();`;

/** DECISION: the console shows the live counters' whole span (15 minutes) and refreshes every 5 s. */
const REFRESH_SECONDS = 5;

/** The console as an admin view at `/admin`, on the config in force and the one judgement of each operation. */
export function consoleView(
  judge: JudgementSource,
  active: () => ActiveConfig | undefined,
  rollout: () => RolloutSnapshot | undefined = () => undefined,
  differences: () => ConsoleModel['differences'] = () => [],
  panel: () => string = () => '',
): AdminView {
  return {
    path: '/admin',
    type: 'html',
    async render() {
      const snapshot = rollout();
      const judged = await judge();
      const now = active();
      if (!judged || !now) return '<!doctype html><title>Migration console</title><p>starting</p>';
      return renderConsole(consoleModel(judged, now.config, snapshot, differences(), Date.parse(now.loadedAt)), REFRESH_SECONDS, snapshot, Date.now(), judged.judgements, panel());
    },
  };
}
