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

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h3 { font-size: 15px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 3px 7px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.done, .ready { color: #2e7d32; font-weight: bold; } .held, .rolled-back, .paused { color: #c62828; font-weight: bold; } .cannot-move, .no-evidence { color: #666; font-weight: bold; } .rolling-out, .collecting { color: #1565c0; font-weight: bold; }
.open { color: #c62828; font-weight: bold; } .muted { color: #666; } ul { margin: 0; padding-left: 18px; }
#scope { padding: 6px 10px; background: #f3f6fa; display: inline-block; }
`;

/** Top blockers shown per client, and clients listed. */
const BLOCKERS_SHOWN = 3;
const CLIENTS_SHOWN = 25;

function routeCells(op: ConsoleOperation) {
  const { route } = op;
  return html`<td data-field="mode" data-value="${route.mode}">${route.mode}${route.fallback ? ' (fallback)' : ''}</td><td class="n" data-field="canaryPercent" data-value="${route.canaryPercent ?? ''}">${route.canaryPercent === null ? '-' : `${route.canaryPercent}%`}</td><td class="n" data-field="shadowSampleRate" data-value="${route.shadowSampleRate ?? ''}">${route.shadowSampleRate === null ? '-' : `${Math.round(route.shadowSampleRate * 1000) / 10}%`}</td>`;
}

/** Differences you can read: the legacy value beside the api2 value at each differing path, recent first. */
function renderDifferences(model: ConsoleModel) {
  if (model.differences.length === 0) return '';
  const rows = model.differences.flatMap(({ operation, examples }) =>
    examples.map((e) => html`<tr data-operation="${operation}" data-path="${e.path}"><td>${operation}</td><td>${e.path}</td><td data-field="legacy"><code>${e.legacy}</code></td><td data-field="api2"><code>${e.api2}</code></td><td>${e.time}</td></tr>`),
  );
  return html`<h2>Differences</h2><p class="muted">Recent shadow comparisons of this replica under the config in force: each differing path's legacy value beside api2's (cut to 80 characters; user names and secrets never shown).</p><table id="differences"><thead><tr><th>operation</th><th>path</th><th>legacy</th><th>api2</th><th>when</th></tr></thead><tbody>${rows}</tbody></table>`;
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
  const minutes = Math.round((model.toMs - model.fromMs) / 60_000);
  const since = model.configSince > model.fromMs ? `since config ${model.configHash} came into force at ${new Date(model.configSince).toISOString()}` : `last ${minutes} minutes, config ${model.configHash}`;
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
<p id="window" data-from="${model.fromMs}" data-to="${model.toMs}" data-config="${model.configHash}">Evidence of the config version in force (${since}): ${new Date(model.fromMs).toISOString()} to ${new Date(model.toMs).toISOString()}. Refreshes every ${refreshSeconds} s.</p>
<p id="headline"><strong>${model.headline}</strong></p>
${raw(panel)}
<p id="breaker">api2 circuit breaker (this replica): <span class="${breaker === 'closed' ? '' : 'open'}" data-field="api2BreakerState" data-value="${breaker}">${breaker}</span>; opened <span data-field="api2BreakerOpens" data-value="${model.api2BreakerOpens}">${formatCount(model.api2BreakerOpens)}</span> times in the window.</p>
<h2>Operations</h2>
<p class="muted">One state per operation, judged by the rollout gates (a plan's, else its default plan's) on the evidence of the config version and step in force: the same states /admin/rollout, /admin/traffic, /metrics and the migration report show. Latencies are fixed-bucket bounds (≤).</p>
<table id="operations"><thead><tr><th>operation</th><th>mode in force</th><th>canary</th><th>shadow sample</th>${READINESS_HTML_HEADERS}</tr></thead><tbody>${rows}</tbody></table>
${renderDifferences(model)}
${renderRolloutSection(rollout, nowMs, judgements)}
<h2>Clients held back</h2>
${clientSection}
<p><a id="every-client" href="/admin/clients">Every client</a>: its operations, sides, errors, losses, programs and rollout plans, from the usage log.</p>`;
  // STYLE is a constant of this file, never data: written as it is.
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${refreshSeconds}"><title>Migration console</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${raw(STYLE)}</style></head><body>${body}</body></html>
`.toString();
}

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
      return renderConsole(consoleModel(judged, now.config, snapshot, differences()), REFRESH_SECONDS, snapshot, Date.now(), judged.judgements, panel());
    },
  };
}
