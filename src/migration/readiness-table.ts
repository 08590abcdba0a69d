/**
 * The operations table of the one judgement (src/migration/judgement/), as text and as HTML: each
 * operation's state, what it means, the next action, and the evidence per side beside it. The
 * report and the live console render the same rows, so a state reads the same in both.
 */
import type { Judgement } from './judgement/types.js';
import { STATE_TEXT } from './judgement/headline.js';
import type { Evidence } from './readiness.js';
import type { SideCounts } from './live-tally.js';
import type { BlockerGroup } from './blockers.js';
import { formatAgreementRate, formatCount } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';

export interface JudgedRow {
  readonly judgement: Judgement;
  readonly evidence: Evidence;
  readonly heldBackBy?: readonly BlockerGroup[];
}

/** `12 (4xx 1, 5xx 0)`, or `-` without requests. */
export function sideText(side: SideCounts): string {
  return side.requests === 0 ? '-' : `${formatCount(side.requests)} (4xx ${formatCount(side.status4xx)}, 5xx ${formatCount(side.status5xx)})`;
}

/** `p50 ≤5 / p95 ≤10 ms`, or `-`. */
export function latencyText(side: SideCounts): string {
  return side.p95Ms === null ? '-' : `≤${side.p50Ms ?? '-'} / ≤${side.p95Ms} ms`;
}

/** `97.0% of 100 (4 skipped)`, or `-` when nothing was compared or skipped. */
export function shadowText(shadow: Evidence['shadow']): string {
  if (shadow.compared + shadow.skipped === 0) return '-';
  const rate = shadow.compared === 0 ? '-' : `${formatAgreementRate(shadow.agreed / shadow.compared)} of ${formatCount(shadow.compared)}`;
  return shadow.skipped > 0 ? `${rate} (${formatCount(shadow.skipped)} skipped)` : rate;
}

export function heldBackText(groups: readonly BlockerGroup[] | undefined): string {
  return (groups ?? []).map((g) => `${g.detail}: ${plural(g.clients, 'client')} (${formatCount(g.requests)})`).join('; ');
}

export const READINESS_HEADERS = ['operation', 'state', 'legacy requests', 'legacy p50/p95', 'api2 requests', 'api2 p50/p95', 'shadow agreement', 'fallbacks', 'why', 'next'] as const;

export function readinessCells(row: JudgedRow): string[] {
  const { evidence, judgement } = row;
  return [
    judgement.operation,
    STATE_TEXT[judgement.state].toUpperCase(),
    sideText(evidence.legacy),
    latencyText(evidence.legacy),
    sideText(evidence.api2),
    latencyText(evidence.api2),
    shadowText(evidence.shadow),
    evidence.fallbacks ? formatCount(evidence.fallbacks) : '-',
    judgement.detail,
    judgement.next,
  ];
}

function numberCell(field: string, value: number | null, text: string): Html {
  return html`<td class="n" data-field="${field}" data-value="${value === null ? '' : value}">${text}</td>`;
}

function sideCells(name: string, side: SideCounts): Html[] {
  return [
    numberCell(`${name}Requests`, side.requests, formatCount(side.requests)),
    numberCell(`${name}4xx`, side.status4xx, formatCount(side.status4xx)),
    numberCell(`${name}5xx`, side.status5xx, formatCount(side.status5xx)),
    numberCell(`${name}P95Ms`, side.p95Ms, side.p95Ms === null ? '-' : `≤${side.p95Ms}`),
  ];
}

/** The HTML cells of one operation's evidence and state (a row's tail: the caller writes the first cells). */
export function readinessHtmlCells(row: JudgedRow): Html {
  const { evidence, judgement } = row;
  const agreement = evidence.shadow.compared === 0 ? null : evidence.shadow.agreed / evidence.shadow.compared;
  return html`${[
    ...sideCells('legacy', evidence.legacy),
    ...sideCells('api2', evidence.api2),
    html`<td class="n" data-field="shadowAgreement" data-value="${agreement === null ? '' : agreement}" data-compared="${evidence.shadow.compared}">${shadowText(evidence.shadow)}</td>`,
    numberCell('fallbacks', evidence.fallbacks, evidence.fallbacks ? formatCount(evidence.fallbacks) : '-'),
  ]}<td class="${judgement.state}" data-field="state" data-value="${judgement.state}" data-can-move="${String(judgement.canMove)}">${STATE_TEXT[judgement.state]}</td><td data-field="detail">${judgement.detail}</td><td data-field="next">${judgement.next}</td>`;
}

export const READINESS_HTML_HEADERS = html`<th>legacy requests</th><th>legacy 4xx</th><th>legacy 5xx</th><th>legacy p95 ms</th><th>api2 requests</th><th>api2 4xx</th><th>api2 5xx</th><th>api2 p95 ms</th><th>shadow agreement</th><th>fallbacks</th><th>state</th><th>why</th><th>next</th>`;

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
