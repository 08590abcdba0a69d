/**
 * The report's "told of the deprecation" section (docs/deprecation.md): the clients whose answers
 * carried the deprecation signal (the usage line's `deprecation`), since when (their first such
 * answer) and which signals, told first first; from the files and from ClickHouse alike (both fill
 * the aggregate's `told`). Text and HTML here; `--json` has `told` whole.
 */
import { clientName, formatCount } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { Aggregator } from './aggregate.js';
import type { Report, ToldClient } from './types.js';

export function toldClients(agg: Aggregator): ToldClient[] {
  const told: ToldClient[] = [];
  for (const [client, counts] of agg.clients) {
    if (counts.told.requests === 0) continue;
    const signals = [...counts.told.signals].sort();
    told.push({ client, label: counts.label, since: new Date(counts.told.since).toISOString(), signals, requests: counts.told.requests });
  }
  return told.sort((a, b) => a.since.localeCompare(b.since) || a.client.localeCompare(b.client));
}

const MAX_TEXT = 20;

export function toldText(report: Report): string[] {
  if (report.told.length === 0) return [];
  const out = ['', `TOLD OF THE DEPRECATION (${formatCount(report.told.length)} clients, first told first)`];
  for (const c of report.told.slice(0, MAX_TEXT)) out.push(`${clientName(c)}: since ${c.since}, ${c.signals.join(', ')} (${formatCount(c.requests)} answers)`);
  if (report.told.length > MAX_TEXT) out.push(`… ${report.told.length - MAX_TEXT} more clients (see --json)`);
  return out;
}

export function toldHtml(report: Report): Html | '' {
  if (report.told.length === 0) return '';
  const rows = report.told.map(
    (c) => html`<tr data-client="${c.client}"><td>${clientName(c)}</td><td data-field="since">${c.since}</td><td data-field="signals">${c.signals.join(', ')}</td><td data-field="requests" data-value="${c.requests}">${formatCount(c.requests)}</td></tr>`,
  );
  return html`<h2>Told of the deprecation</h2><p class="muted">Clients whose answers carried Deprecation or Sunset headers (docs/deprecation.md), since their first such answer.</p><table id="told"><thead><tr><th>client</th><th>since</th><th>signals</th><th>answers with it</th></tr></thead><tbody>${rows}</tbody></table>`;
}
