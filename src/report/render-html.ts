/**
 * The report as one self-contained HTML page: inline CSS and inline SVG charts, no script and no
 * external resource, so it opens offline. Table cells carry the raw numbers in `data-value`
 * (test/report-html-in-browser.test.ts compares them with `--json`). Built with hono/html
 * (html.ts): values from client traffic (path templates, client labels) are escaped where written.
 */
import { clientName, operationList, formatAgreement, formatAgreementRate, formatCount, formatMs, formatPercent, modeShares } from '../display/format.js';
import { html, joinHtml, raw } from '../display/html.js';
import type { Html } from '../display/html.js';
import { agreementBar, modeColours, modeShareChart, timelineChart, topClientsChart } from './svg-charts.js';
import { READINESS_HTML_HEADERS, heldBackText, readinessHtmlCells } from '../migration/readiness-table.js';
import { rolloutHtml } from './render-rollouts.js';
import { stepsHtml } from './step-sections.js';
import { toldHtml } from './told.js';
import { clientSectionsHtml } from './client-sections.js';
import type { OperationReport, PathCount, Report } from './types.js';
import type { Thresholds } from './svg-charts.js';
import { defaultPlan } from '../migration/judgement/default-plan.js';

/** The default agreement gate: what the bars and the shadow section measure against. */
const AGREEMENT = defaultPlan(false).gates.shadowAgreement;
const THRESHOLDS: Thresholds = { minAgreement: 1 - (AGREEMENT?.maxDisagreement ?? 0.01), minShadowComparisons: AGREEMENT?.minComparisons ?? 0 };

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.ready { color: #2e7d32; font-weight: bold; } .not-ready { color: #c62828; font-weight: bold; } .cannot-move { color: #666; font-weight: bold; }
.muted { color: #666; } ul { margin: 0; padding-left: 18px; }
figure { margin: 12px 0 24px; } figcaption { font-weight: bold; margin-bottom: 4px; }
svg.agreement-bar { vertical-align: middle; margin-right: 6px; } td[data-field="shadowAgreement"] { white-space: nowrap; }
`;

function cell(field: string, value: number | string | null, text: string, numeric = true): Html {
  const rawValue = value === null ? "" : String(value);
  return numeric
    ? html`<td class="n" data-field="${field}" data-value="${rawValue}">${text}</td>`
    : html`<td data-field="${field}" data-value="${rawValue}">${text}</td>`;
}

/** The shadow agreement cell: a small bar (threshold marked) and `97.0% of 100`. */
function agreementCell(op: OperationReport, thresholds: Thresholds): Html {
  const { agreement } = op.shadow;
  const bar = agreement === null ? '' : agreementBar(op.operation, op.shadow, thresholds);
  return html`<td class="n" data-field="shadowAgreement" data-value="${agreement === null ? '' : agreement}" data-compared="${op.shadow.compared}">${bar}${formatAgreement(op.shadow)}</td>`;
}

function pathList(paths: readonly PathCount[]): Html {
  if (paths.length === 0) return html`<td class="muted">-</td>`;
  return html`<td><ul>${paths.map((p) => html`<li data-path="${p.path}" data-count="${p.count}">${p.path} (${formatCount(p.count)})</li>`)}</ul></td>`;
}

function operationRow(op: OperationReport, thresholds: Thresholds): Html {
  return html`<tr data-operation="${op.operation}"><td>${op.operation}</td>${[
    cell('requests', op.requests, formatCount(op.requests)),
    cell('clients', op.clients, formatCount(op.clients)),
    cell('modes', modeShares(op.modes), modeShares(op.modes), false),
    cell('errorRate', op.errorRate, formatPercent(op.errorRate)),
    cell('p50Ms', op.p50Ms, formatMs(op.p50Ms)),
    cell('p95Ms', op.p95Ms, formatMs(op.p95Ms)),
    cell('malformed', op.malformed.requests, `${formatCount(op.malformed.requests)} (${formatPercent(op.malformed.share)})`),
    cell('plainHttp', op.plainHttp.requests, `${formatCount(op.plainHttp.requests)} (${formatPercent(op.plainHttp.share)})`),
    cell('cacheHitRate', op.cache.hitRate, formatPercent(op.cache.hitRate)),
    cell('fallbacks', op.fallbacks.requests, op.fallbacks.requests ? formatCount(op.fallbacks.requests) : '-'),
    agreementCell(op, thresholds),
  ]}</tr>`;
}

function summaryParagraph(report: Report): Html {
  const { summary } = report;
  const period = summary.firstTime ? html`, ${summary.firstTime} to ${summary.lastTime ?? ''}` : '';
  return html`<p id="summary"><span data-field="records" data-value="${summary.records}">${formatCount(summary.records)}</span> requests${period}, from ${report.inputs.join(', ')}. Clients: <span data-field="clients" data-value="${summary.clients}">${formatCount(summary.clients)}</span>. Broken lines: <span data-field="brokenLines" data-value="${summary.brokenLines}">${formatCount(summary.brokenLines)}</span>. Refused before routing: ${formatCount(summary.unrouted)}. Without api_key: ${formatCount(summary.anonymousRequests)}. Shadow comparisons: <span data-field="shadowLines" data-value="${summary.shadowLines}">${formatCount(summary.shadowLines)}</span>.</p>`;
}

function readinessTable(report: Report): Html {
  const rows = report.readiness.operations.map(
    (op) => html`<tr data-operation="${op.operation}"><td>${op.operation}</td>${readinessHtmlCells(op)}<td>${heldBackText(op.heldBackBy) || '-'}</td></tr>`,
  );
  const opens = report.readiness.api2BreakerOpens;
  const version = report.readiness.configVersion;
  return html`<h2>State per operation</h2><p id="headline"><strong>${report.readiness.headline}</strong></p><p class="muted" id="config-version" data-value="${version ?? ''}">Judged on the evidence of config version ${version ?? '(not named by the log)'} and, for a rolled-out route, of its step in force (${report.readiness.configVersions.length} config versions in the log; --config-version picks another).</p><p class="muted" id="gates-used">Gates: ${report.readiness.gates}.</p><p class="muted">api2 circuit breaker opens: <span data-field="api2BreakerOpens" data-value="${opens === null ? '' : opens}">${opens === null ? 'not known from this source' : formatCount(opens)}</span>. Latencies are fixed-bucket bounds (≤).</p><table id="readiness"><thead><tr><th>operation</th>${READINESS_HTML_HEADERS}<th>clients holding it back</th></tr></thead><tbody>${rows}</tbody></table>${stepsHtml(report.readiness.operations)}`;
}

function trendsTable(report: Report): Html | '' {
  if (report.trends.days.length < 2) return '';
  const rows = report.trends.days.map(
    (d) => html`<tr data-day="${d.day}"><td>${d.day}</td>${cell('legacy', d.legacy, formatCount(d.legacy))}${cell('api2', d.api2, formatCount(d.api2))}${cell('api2Share', d.legacy + d.api2 === 0 ? null : d.api2 / (d.legacy + d.api2), formatPercent(d.legacy + d.api2 === 0 ? null : d.api2 / (d.legacy + d.api2)))}</tr>`,
  );
  return html`<h2>Trends per day</h2><table id="trends"><thead><tr><th>day (UTC)</th><th>legacy</th><th>api2</th><th>api2 share</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function shadowTable(report: Report): Html | '' {
  const shadowed = report.operations.filter((op) => op.shadow.compared + op.shadow.skipped > 0);
  if (shadowed.length === 0) return '';
  const rows = shadowed.map(
    (op) =>
      html`<tr data-operation="${op.operation}"><td>${op.operation}</td>${[
        cell('compared', op.shadow.compared, formatCount(op.shadow.compared)),
        cell('equal', op.shadow.equal, formatCount(op.shadow.equal)),
        cell('differing', op.shadow.differing, formatCount(op.shadow.differing)),
        cell('skipped', op.shadow.skipped, formatCount(op.shadow.skipped)),
        cell('agreement', op.shadow.agreement, formatAgreementRate(op.shadow.agreement)),
        pathList(op.shadow.topFields),
        pathList(op.shadow.noiseFields),
      ]}</tr>`,
  );
  return html`<h2>Shadow comparisons</h2><p class="muted">Legacy answered; api2 was called in the background and both answers compared field by field. Agreement needed: ${formatPercent(THRESHOLDS.minAgreement)} over at least ${formatCount(THRESHOLDS.minShadowComparisons)} comparisons. Noise: fields legacy itself varied on, not blamed on the mapping.</p><table id="shadow"><thead><tr><th>operation</th><th>compared</th><th>equal</th><th>differ</th><th>skipped</th><th>agreement</th><th>top differing fields</th><th>noise (legacy varies)</th></tr></thead><tbody>${rows}</tbody></table>${examplesTable(shadowed)}`;
}

/** The differences you can read: per operation and path, recent pairs of the legacy value beside the api2 value. */
function examplesTable(shadowed: readonly OperationReport[]): Html | '' {
  const rows = shadowed.flatMap((op) =>
    op.shadow.examples.map((e) => html`<tr data-operation="${op.operation}" data-path="${e.path}"><td>${op.operation}</td><td>${e.path}</td><td data-field="legacy"><code>${e.legacy}</code></td><td data-field="api2"><code>${e.api2}</code></td><td>${e.time}</td></tr>`),
  );
  if (rows.length === 0) return '';
  return html`<h3>Differences: example pairs</h3><p class="muted">The latest comparisons' values at each differing path (cut to 80 characters; user names and secrets never shown).</p><table id="diff-examples"><thead><tr><th>operation</th><th>path</th><th>legacy</th><th>api2</th><th>when</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function clientsTable(report: Report): Html {
  const rows = report.clients.map(
    (c) =>
      html`<tr data-client="${c.client}"><td>${clientName(c)}</td>${cell('requests', c.requests, formatCount(c.requests))}${cell('legacyRequests', c.legacyRequests, formatCount(c.legacyRequests))}<td>${c.lastSeen}</td><td><ul>${c.blockers.map((b) => html`<li data-kind="${b.kind}">${`${b.detail}: ${operationList(b.operations)} (${formatCount(b.requests)})`}</li>`)}</ul></td></tr>`,
  );
  return html`<h2>Clients and what blocks their migration</h2><table id="clients"><thead><tr><th>client</th><th>requests</th><th>legacy mode</th><th>last seen</th><th>blockers</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function redirectSection(report: Report): Html {
  const broken = report.policy.redirect;
  const rows = broken.map((c) => html`<tr data-client="${c.client}"><td>${clientName(c)}</td>${cell('requests', c.requests, formatCount(c.requests))}</tr>`);
  return html`<h2>plainHttpCredentials: redirect would break <span data-field="redirectBreaks" data-value="${broken.length}">${formatCount(broken.length)}</span> clients</h2><p class="muted">Their GET requests send credentials over plain http and ask for JSON by Content-Type alone, a header HTTP libraries drop when they follow the 308: they would get XML.</p>${broken.length === 0 ? '' : html`<table id="redirect-breaks"><thead><tr><th>client</th><th>requests</th></tr></thead><tbody>${rows}</tbody></table>`}`;
}

function uncataloguedTable(report: Report): Html | '' {
  if (report.uncatalogued.length === 0) return '';
  const rows = report.uncatalogued.map(
    (u) => html`<tr data-path-template="${u.pathTemplate}"><td>${u.method}</td><td data-field="pathTemplate">${u.pathTemplate}</td>${cell('requests', u.requests, formatCount(u.requests))}${cell('clients', u.clients, formatCount(u.clients))}</tr>`,
  );
  return html`<h2>Uncatalogued paths</h2><table id="uncatalogued"><thead><tr><th>method</th><th>path template</th><th>requests</th><th>clients</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function brokenLinesTable(report: Report): Html | '' {
  if (report.brokenLines.length === 0) return '';
  const rows = report.brokenLines.map((b) => html`<tr><td>${b.input}:${b.line}</td><td>${b.reason}</td></tr>`);
  return html`<h2>Broken lines (not counted)</h2><table id="broken"><tbody>${rows}</tbody></table>`;
}

export function renderHtml(report: Report): string {
  const colours = modeColours(report.timeline.modes);
  const unseen = report.unseenOperations.length > 0 ? html`<p class="muted">No traffic: ${report.unseenOperations.join(', ')}</p>` : '';
  const operations = html`<h2>Operations</h2><table id="operations"><thead><tr><th>operation</th><th>requests</th><th>clients</th><th>modes</th><th>errors (5xx)</th><th>p50 ms</th><th>p95 ms</th><th>malformed forms</th><th>plain http</th><th>cache hit</th><th>fallbacks to legacy</th><th>shadow agreement</th></tr></thead><tbody>${report.operations.map((op) => operationRow(op, THRESHOLDS))}</tbody></table>`;
  const parts: Array<Html | ''> = [
    html`<h1>Migration report</h1>`,
    summaryParagraph(report),
    html`<figure><figcaption>Share of traffic per mode, per operation</figcaption>${modeShareChart(report, colours)}</figure>`,
    html`<figure><figcaption>Requests over time</figcaption>${timelineChart(report, colours)}</figure>`,
    html`<figure><figcaption>Top clients by remaining legacy use (requests served by the legacy backend)</figcaption>${topClientsChart(report)}</figure>`,
    operations,
    unseen,
    readinessTable(report),
    trendsTable(report),
    shadowTable(report),
    rolloutHtml(report),
    toldHtml(report),
    redirectSection(report),
    clientsTable(report),
    clientSectionsHtml(report),
    uncataloguedTable(report),
    brokenLinesTable(report),
    html`<p class="muted">Generated ${report.generatedAt} by recipe-gateway report.</p>`,
  ];
  const body = joinHtml(parts.filter((part): part is Html => part !== ''), '\n');
  // STYLE is a constant of this file, never data: written as it is.
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Migration report</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${raw(STYLE)}</style></head><body>${body}</body></html>
`;
  return page.toString();
}
