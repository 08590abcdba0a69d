/**
 * The HTML report's charts as inline SVG (no script, no network): share of traffic per mode per
 * operation, requests over time by mode, top clients by remaining legacy use. Every drawn mark
 * carries its numbers in `data-*` attributes and a `<title>` tooltip. Built with hono/html
 * (html.ts): every value is escaped where it is written.
 */
import { clientName, formatAgreement, formatCount, formatPercent } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { Report, ShadowReport } from './types.js';

/** The agreement an operation's bar is measured against (the default plan's agreement gate: src/migration/judgement/default-plan.ts). */
export interface Thresholds {
  readonly minAgreement: number;
  readonly minShadowComparisons: number;
}

const KNOWN_COLOURS: Readonly<Record<string, string>> = {
  legacy: '#a0522d',
  api2: '#2e8b57',
  canary: '#e69f00',
  shadow: '#7b68ee',
  gateway: '#9e9e9e',
};
const OTHER_COLOURS = ['#1f77b4', '#d62728', '#17becf', '#bcbd22', '#e377c2', '#8c564b'];

export function modeColours(modes: readonly string[]): Map<string, string> {
  const colours = new Map<string, string>();
  let next = 0;
  for (const mode of modes) colours.set(mode, KNOWN_COLOURS[mode] ?? OTHER_COLOURS[next++ % OTHER_COLOURS.length]!);
  return colours;
}

const WIDTH = 760;

function legend(colours: ReadonlyMap<string, string>, y: number): Html {
  let x = 0;
  const items: Html[] = [];
  for (const [mode, colour] of colours) {
    items.push(html`<rect x="${x}" y="${y}" width="12" height="12" fill="${colour}"/><text x="${x + 16}" y="${y + 10}">${mode}</text>`);
    x += 24 + mode.length * 8;
  }
  return html`<g class="legend">${items}</g>`;
}

export function modeShareChart(report: Report, colours: ReadonlyMap<string, string>): Html {
  const labelWidth = 170;
  const barWidth = WIDTH - labelWidth - 80;
  const row = 22;
  const rows = report.operations.map((op, i) => {
    const y = 24 + i * row;
    let x = labelWidth;
    const segments = op.modes.map((m) => {
      const width = m.share * barWidth;
      const rect = html`<rect class="share-segment" data-operation="${op.operation}" data-mode="${m.mode}" data-requests="${m.requests}" data-share="${m.share}" x="${x.toFixed(2)}" y="${y}" width="${width.toFixed(2)}" height="${row - 6}" fill="${colours.get(m.mode) ?? '#000'}"><title>${op.operation}, ${m.mode}: ${formatCount(m.requests)} (${formatPercent(m.share)})</title></rect>`;
      x += width;
      return rect;
    });
    return html`<text x="${labelWidth - 6}" y="${y + 12}" text-anchor="end">${op.operation}</text>${segments}<text x="${labelWidth + barWidth + 6}" y="${y + 12}">${formatCount(op.requests)}</text>`;
  });
  const height = 24 + report.operations.length * row + 8;
  return svg('chart-mode-share', 'Share of traffic per mode, per operation', height, html`${legend(colours, 0)}${rows}`);
}

export function timelineChart(report: Report, colours: ReadonlyMap<string, string>): Html {
  const { buckets, modes, stepSeconds } = report.timeline;
  const left = 56;
  const top = 24;
  const plotWidth = WIDTH - left - 10;
  const plotHeight = 200;
  const max = Math.max(1, ...buckets.map((b) => b.total));
  const scale = niceMax(max);
  const barWidth = buckets.length === 0 ? 0 : plotWidth / buckets.length;
  const marks: Html[] = [];
  buckets.forEach((bucket, i) => {
    let y = top + plotHeight;
    for (const mode of modes) {
      const count = bucket.modes[mode] ?? 0;
      if (count === 0) continue;
      const height = (count / scale) * plotHeight;
      y -= height;
      marks.push(
        html`<rect class="timeline-segment" data-start="${bucket.start}" data-mode="${mode}" data-count="${count}" x="${(left + i * barWidth).toFixed(2)}" y="${y.toFixed(2)}" width="${Math.max(0.5, barWidth - 1).toFixed(2)}" height="${height.toFixed(2)}" fill="${colours.get(mode) ?? '#000'}"><title>${bucket.start}, ${mode}: ${formatCount(count)}</title></rect>`,
      );
    }
  });
  const axis: Html[] = [html`<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${top + plotHeight}" stroke="#555"/>`];
  for (let t = 0; t <= 4; t++) {
    const value = (scale * t) / 4;
    const y = top + plotHeight - (plotHeight * t) / 4;
    axis.push(html`<line x1="${left - 4}" y1="${y}" x2="${left + plotWidth}" y2="${y}" stroke="#ddd"/><text x="${left - 6}" y="${y + 4}" text-anchor="end">${formatCount(value)}</text>`);
  }
  const labelled = buckets.length <= 1 ? [0] : [0, Math.floor((buckets.length - 1) / 2), buckets.length - 1];
  for (const i of labelled) {
    const bucket = buckets[i];
    if (!bucket) continue;
    const anchor = i === 0 ? 'start' : i === buckets.length - 1 ? 'end' : 'middle';
    const x = anchor === 'start' ? left + i * barWidth : anchor === 'end' ? left + (i + 1) * barWidth : left + i * barWidth + barWidth / 2;
    axis.push(html`<text x="${x.toFixed(2)}" y="${top + plotHeight + 16}" text-anchor="${anchor}">${bucket.start.slice(0, 16).replace('T', ' ')}</text>`);
  }
  axis.push(html`<text x="${left + plotWidth}" y="${top + plotHeight + 32}" text-anchor="end">requests per ${stepLabel(stepSeconds)} (UTC)</text>`);
  return svg('chart-timeline', 'Requests over time, by mode', top + plotHeight + 40, html`${legend(colours, 0)}${axis}${marks}`);
}

export function topClientsChart(report: Report, limit = 15): Html {
  const clients = report.clients.filter((c) => c.legacyRequests > 0).slice(0, limit);
  const labelWidth = 260;
  const barWidth = WIDTH - labelWidth - 80;
  const row = 22;
  const max = Math.max(1, ...clients.map((c) => c.legacyRequests));
  const rows = clients.map((client, i) => {
    const y = 4 + i * row;
    const width = (client.legacyRequests / max) * barWidth;
    return html`<text x="${labelWidth - 6}" y="${y + 12}" text-anchor="end">${clientName(client)}</text><rect class="client-bar" data-client="${client.client}" data-legacy="${client.legacyRequests}" x="${labelWidth}" y="${y}" width="${width.toFixed(2)}" height="${row - 6}" fill="${KNOWN_COLOURS['legacy']}"><title>${clientName(client)}: ${formatCount(client.legacyRequests)} of ${formatCount(client.requests)} requests in legacy mode</title></rect><text x="${(labelWidth + width + 6).toFixed(2)}" y="${y + 12}">${formatCount(client.legacyRequests)}</text>`;
  });
  const body = rows.length > 0 ? html`${rows}` : html`<text x="0" y="16">No client uses the legacy backend any more.</text>`;
  return svg('chart-top-clients', 'Top clients by remaining legacy use', Math.max(28, 8 + clients.length * row), body);
}

/**
 * The shadow agreement of one operation as a small inline bar (0 to 100 %), the threshold marked:
 * green at or above it, red below, grey with too few comparisons to judge.
 */
export function agreementBar(operation: string, shadow: ShadowReport, thresholds: Thresholds): Html {
  const width = 64;
  const height = 10;
  const agreement = shadow.agreement ?? 0;
  const colour =
    shadow.compared === 0 || shadow.compared < thresholds.minShadowComparisons ? '#9e9e9e' : agreement >= thresholds.minAgreement ? '#2e7d32' : '#c62828';
  const tick = Math.min(1, Math.max(0, thresholds.minAgreement)) * width;
  const label = `${operation}: shadow agreement ${formatAgreement(shadow)} comparisons (needed ${formatPercent(thresholds.minAgreement)})`;
  return html`<svg class="agreement-bar" role="img" aria-label="${label}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title>${label}</title><rect width="${width}" height="${height}" fill="#eee"/><rect class="agreement-fill" data-operation="${operation}" data-agreement="${agreement}" width="${(agreement * width).toFixed(2)}" height="${height}" fill="${colour}"/><line x1="${tick.toFixed(2)}" y1="0" x2="${tick.toFixed(2)}" y2="${height}" stroke="#222" stroke-width="1"/></svg>`;
}

function svg(id: string, title: string, height: number, body: Html): Html {
  return html`<svg id="${id}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12"><title>${title}</title>${body}</svg>`;
}

/** 1, 2 or 5 times a power of ten, at least `max`. */
function niceMax(max: number): number {
  const power = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= max) return factor * power;
  return 10 * power;
}

function stepLabel(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'day' : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
}
