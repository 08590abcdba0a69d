/**
 * The report's section per client (issue 40): the operations it calls, which side answered them
 * and its 4xx and 5xx per side, the declared losses it is exposed to on the operations api2
 * answered it (from the mappings: src/catalogue/movability.ts), its client programs (User-Agent
 * families) and where the config's rollout plans put it. Built from the aggregate's counts, so the files and
 * ClickHouse give the same sections; the console's client page renders the same HTML.
 */
import { mappingFor } from '../catalogue/movability.js';
import { clientStanding } from '../migration/rollout/client-standing.js';
import type { PlansByOperation } from '../migration/rollout/client-standing.js';
import { clientName, formatCount } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { ClientAgg } from './aggregate.js';
import { topPrograms } from './client-facts.js';
import type { ClientSection, Report } from './types.js';

/** The sides, in the order the section shows them. */
export const SIDES = ['legacy', 'api2', 'fallback', 'gateway'] as const;
export const NO_PROGRAM = '(no User-Agent)';

const byCount = <T extends { readonly requests: number }>(key: (item: T) => string) => (a: T, b: T): number => b.requests - a.requests || key(a).localeCompare(key(b));

export function clientSection(id: string, client: ClientAgg, plans: PlansByOperation | undefined): ClientSection {
  const operations = [...client.facts.operations].map(([operation, sides]) => {
    const listed = SIDES.flatMap((side) => {
      const counts = sides.get(side);
      return counts ? [{ side, ...counts }] : [];
    });
    return { operation, requests: listed.reduce((sum, s) => sum + s.answers, 0), sides: listed };
  }).sort(byCount((o) => o.operation));
  const moved = operations.filter((o) => o.sides.some((s) => s.side === 'api2')).map((o) => o.operation).sort();
  const losses = moved.flatMap((operation) => (mappingFor(operation)?.losses ?? []).map((loss) => ({ operation, field: loss.field, why: loss.why })));
  const programs = topPrograms(client.facts.programs);
  const unnamed = client.requests - programs.reduce((sum, p) => sum + p.requests, 0);
  if (unnamed > 0) programs.push({ program: NO_PROGRAM, requests: unnamed });
  return { client: id, label: client.label, requests: client.requests, operations, losses, programs, standing: plans ? clientStanding(plans, id, client.label) : null };
}

export function clientSections(clients: ReadonlyMap<string, ClientAgg>, plans: PlansByOperation | undefined): ClientSection[] {
  return [...clients].map(([id, client]) => clientSection(id, client, plans)).sort(byCount((c) => c.client));
}

function standingText(section: ClientSection): string {
  const { standing } = section;
  if (!standing) return 'rollout plans: not known (no --config given)';
  const held = standing.held.length > 0 ? `held on legacy by the plans of ${standing.held.join(', ')}` : 'held by no plan';
  const cohorts = standing.cohorts.length > 0 ? `in a cohort of ${standing.cohorts.map((c) => `${c.operation} (step ${c.step}, ${REACHED[reachedKey(c.reached)]})`).join(', ')}` : 'in no cohort';
  return `${held}; ${cohorts}`;
}

/** Whether the rollout has reached the client's cohort step, in words (docs/usage-log-and-report.md, client sections). */
const REACHED = { reached: 'reached: api2 answers it', waiting: 'not reached: legacy answers it', unknown: 'where the rollout is, is not known' } as const;
const reachedKey = (reached: boolean | null): keyof typeof REACHED => (reached === null ? 'unknown' : reached ? 'reached' : 'waiting');

type SideCounts = ClientSection['operations'][number]['sides'][number];
const sideText = (s: SideCounts): string => {
  const refused = [s.status4xx > 0 ? `${formatCount(s.status4xx)} 4xx` : '', s.status5xx > 0 ? `${formatCount(s.status5xx)} 5xx` : ''].filter((part) => part !== '');
  return `${s.side} ${formatCount(s.answers)}${refused.length > 0 ? ` (${refused.join(', ')})` : ''}`;
};

/** The section of one client as text lines (the report prints the first MAX_TEXT). */
export function clientSectionText(section: ClientSection): string[] {
  const out = [`${clientName(section)}: ${formatCount(section.requests)} requests; ${standingText(section)}`];
  for (const op of section.operations) out.push(`    ${op.operation}: ${op.sides.map(sideText).join(', ')}`);
  if (section.losses.length > 0) out.push(`    loses on api2: ${section.losses.map((l) => `${l.operation} ${l.field}`).join(', ')}`);
  out.push(`    programs: ${section.programs.map((p) => `${p.program} ${formatCount(p.requests)}`).join(', ') || '(none)'}`);
  return out;
}

const MAX_TEXT = 20;

export function clientSectionsText(report: Report): string[] {
  if (report.clientSections.length === 0) return [];
  const out = ['', `EACH CLIENT (${formatCount(report.clientSections.length)} clients, most requests first)`];
  for (const section of report.clientSections.slice(0, MAX_TEXT)) out.push(...clientSectionText(section));
  if (report.clientSections.length > MAX_TEXT) out.push(`… ${report.clientSections.length - MAX_TEXT} more clients (see --json)`);
  return out;
}

/** One client's section as HTML; every figure in `data-field` / `data-value` (tests and the console read them). */
export function clientSectionHtml(section: ClientSection): Html {
  const sideCells = (sides: ClientSection['operations'][number]['sides']) =>
    SIDES.map((side) => {
      const s = sides.find((x) => x.side === side);
      return (['answers', 'status4xx', 'status5xx'] as const).map((field) => html`<td class="n" data-side="${side}" data-field="${field}" data-value="${s?.[field] ?? 0}">${formatCount(s?.[field] ?? 0)}</td>`);
    });
  const rows = section.operations.map((op) => html`<tr data-operation="${op.operation}"><td>${op.operation}</td><td class="n" data-field="requests" data-value="${op.requests}">${formatCount(op.requests)}</td>${sideCells(op.sides)}</tr>`);
  const head = SIDES.map((side) => html`<th>${side}</th><th>4xx</th><th>5xx</th>`);
  const losses = section.losses.map((l) => html`<li data-operation="${l.operation}" data-field="${l.field}">${l.operation}: <code>${l.field}</code>: ${l.why}</li>`);
  const programs = section.programs.map((p) => html`<li data-program="${p.program}" data-value="${p.requests}">${p.program}: ${formatCount(p.requests)}</li>`);
  const standing = section.standing;
  return html`<section class="client-section" data-client="${section.client}"><h3>${clientName(section)}</h3>
<p><span data-field="requests" data-value="${section.requests}">${formatCount(section.requests)}</span> requests. <span class="standing" data-held="${standing?.held.join(' ') ?? ''}" data-cohorts="${standing?.cohorts.map((c) => `${c.operation}:${c.step}:${reachedKey(c.reached)}`).join(' ') ?? ''}">${standingText(section)}</span>.</p>
<table class="client-operations"><thead><tr><th>operation</th><th>requests</th>${head}</tr></thead><tbody>${rows}</tbody></table>
<p>Declared losses on the operations api2 answered it:</p><ul class="losses">${losses.length > 0 ? losses : html`<li class="muted">none</li>`}</ul>
<p>Client programs (User-Agent families):</p><ul class="programs">${programs}</ul></section>`;
}

const MAX_HTML = 50;

export function clientSectionsHtml(report: Report): Html | '' {
  if (report.clientSections.length === 0) return '';
  const more = report.clientSections.length > MAX_HTML ? html`<p class="muted">… ${report.clientSections.length - MAX_HTML} more clients (see --json).</p>` : '';
  return html`<h2 id="client-sections">Each client</h2><p class="muted">Per client, most requests first: the operations it calls and which side answered them (fallback: api2 failed, legacy answered), its 4xx and 5xx per side, the mappings' declared losses on the operations api2 answered it, its client programs, and where the rollout plans put it.</p>${report.clientSections.slice(0, MAX_HTML).map(clientSectionHtml)}${more}`;
}
