/**
 * The console's client pages: `/admin/clients` lists the clients of the usage log, and
 * `/admin/clients/<hash or label>` shows one client's section, the same section the report
 * prints (src/report/client-sections.ts) from the same source (the usage-log file this gateway
 * writes: src/node/client-history.ts). Nothing per client is kept in this process: each page
 * view reads the history again, so memory does not grow with the clients.
 */
import type { AdminView } from '../gateway/admin-port.js';
import { clientSectionHtml } from '../report/client-sections.js';
import type { ClientSection } from '../report/types.js';
import { clientName, formatCount } from '../display/format.js';
import { html, raw } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { PlansByOperation } from '../migration/rollout/client-standing.js';

/** Where the console reads per-client history; `describe` names it on the page. */
export interface ClientHistory {
  readonly describe: string;
  /** Every client's section under these rollout plans. */
  sections(plans: PlansByOperation): Promise<readonly ClientSection[]>;
}

export const CLIENTS_PATH = '/admin/clients';

const STYLE = `body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; } th, td { padding: 3px 7px; border-bottom: 1px solid #eee; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } .muted { color: #666; } ul { margin: 0; padding-left: 18px; }`;

function page(title: string, body: Html): string {
  // STYLE is a constant of this file, never data: written as it is.
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${raw(STYLE)}</style></head><body><p><a href="/admin">Migration console</a> · <a href="${CLIENTS_PATH}">Clients</a></p>${body}</body></html>
`.toString();
}

const NO_HISTORY = html`<p class="muted" id="no-history">Per-client history is read from the usage log: set observability.log.destination to a file (or run the report on the log: npm run report -- FILES, or --clickhouse).</p>`;

export function clientListPage(sections: readonly ClientSection[] | undefined, source: string): string {
  if (!sections) return page('Clients', html`<h1>Clients</h1>${NO_HISTORY}`);
  const rows = sections.map(
    (c) => html`<tr data-client="${c.client}"><td><a href="${`${CLIENTS_PATH}/${encodeURIComponent(c.client)}`}">${clientName(c)}</a></td><td class="n" data-field="requests" data-value="${c.requests}">${formatCount(c.requests)}</td></tr>`,
  );
  return page('Clients', html`<h1>Clients</h1><p class="muted">From ${source}; most requests first.</p><table id="client-list"><thead><tr><th>client</th><th>requests</th></tr></thead><tbody>${rows}</tbody></table>`);
}

export function clientPage(section: ClientSection | undefined, name: string, source: string): string {
  if (!section) return page('Client', html`<h1>Client</h1><p id="unknown-client">No request of ${name} in ${source}.</p>`);
  return page(`Client ${clientName(section)}`, html`<h1>Client</h1><p class="muted">From ${source}.</p>${clientSectionHtml(section)}`);
}

/** The two views; `plans` gives the rollout plans in force (the config's routes). */
export function clientViews(history: ClientHistory | undefined, plans: () => PlansByOperation): AdminView[] {
  const source = history?.describe ?? '';
  return [
    { path: CLIENTS_PATH, type: 'html', render: async () => clientListPage(history ? await history.sections(plans()) : undefined, source) },
    {
      path: `${CLIENTS_PATH}/:client`,
      type: 'html',
      async render(params: Readonly<Record<string, string>> = {}) {
        const name = params['client'] ?? '';
        if (!history) return clientListPage(undefined, source);
        const sections = await history.sections(plans());
        return clientPage(sections.find((c) => c.client === name) ?? sections.find((c) => c.label === name), name, source);
      },
    },
  ];
}
