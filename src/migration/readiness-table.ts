/**
 * The readiness model's table (src/migration/readiness.ts), as text and as HTML: the verdict of
 * every operation with the evidence per side beside it. The report and the live console render
 * the same rows, so the same verdict reads the same in both.
 */
import type { Evidence, Verdict } from './readiness.js';
import type { SideCounts } from './live-tally.js';
import type { BlockerGroup } from './blockers.js';
import { formatAgreementRate, formatCount } from '../render/format.js';
import { html } from '../render/html.js';
import type { Html } from '../render/html.js';

export interface ReadinessRow extends Verdict {
  readonly evidence: Evidence;
  readonly heldBackBy?: readonly BlockerGroup[];
}

export const VERDICT_TEXT: Readonly<Record<Verdict['verdict'], string>> = { ready: 'READY', 'not-ready': 'NOT READY', 'cannot-move': 'CANNOT MOVE' };

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

export const READINESS_HEADERS = ['operation', 'verdict', 'legacy requests', 'legacy p50/p95', 'api2 requests', 'api2 p50/p95', 'shadow agreement', 'fallbacks', 'reasons'] as const;

export function readinessCells(row: ReadinessRow): string[] {
  const { evidence } = row;
  return [
    row.operation,
    VERDICT_TEXT[row.verdict],
    sideText(evidence.legacy),
    latencyText(evidence.legacy),
    sideText(evidence.api2),
    latencyText(evidence.api2),
    shadowText(evidence.shadow),
    evidence.fallbacks ? formatCount(evidence.fallbacks) : '-',
    row.reasons.join('; '),
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

/** The HTML cells of one operation's evidence and verdict (a row's tail: the caller writes the first cells). */
export function readinessHtmlCells(row: ReadinessRow): Html {
  const { evidence } = row;
  const agreement = evidence.shadow.compared === 0 ? null : evidence.shadow.agreed / evidence.shadow.compared;
  return html`${[
    ...sideCells('legacy', evidence.legacy),
    ...sideCells('api2', evidence.api2),
    html`<td class="n" data-field="shadowAgreement" data-value="${agreement === null ? '' : agreement}" data-compared="${evidence.shadow.compared}">${shadowText(evidence.shadow)}</td>`,
    numberCell('fallbacks', evidence.fallbacks, evidence.fallbacks ? formatCount(evidence.fallbacks) : '-'),
  ]}<td class="${row.verdict}" data-field="verdict" data-value="${row.verdict}" data-can-move="${String(row.canMove)}">${VERDICT_TEXT[row.verdict].toLowerCase()}</td><td><ul>${row.reasons.map((r) => html`<li>${r}</li>`)}</ul></td>`;
}

export const READINESS_HTML_HEADERS = html`<th>legacy requests</th><th>legacy 4xx</th><th>legacy 5xx</th><th>legacy p95 ms</th><th>api2 requests</th><th>api2 4xx</th><th>api2 5xx</th><th>api2 p95 ms</th><th>shadow agreement</th><th>fallbacks</th><th>verdict</th><th>reasons</th>`;

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
