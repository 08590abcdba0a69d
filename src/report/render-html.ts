/**
 * The report as one self-contained HTML page: inline CSS and inline SVG charts, no script and no
 * external resource, so it opens offline. Table cells carry the raw numbers in `data-value`
 * (test/report-html-in-browser.test.ts compares them with `--json`).
 */
import { clientName, formatAgreement, formatAgreementRate, formatCount, formatMs, formatPercent, modeShares } from './format.js';
import { agreementBar, escapeHtml, modeColours, modeShareChart, timelineChart, topClientsChart } from './svg-charts.js';
import type { OperationReport, PathCount, Report, Thresholds } from './types.js';

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.ready { color: #2e7d32; font-weight: bold; } .not-ready { color: #c62828; font-weight: bold; }
.muted { color: #666; } ul { margin: 0; padding-left: 18px; }
figure { margin: 12px 0 24px; } figcaption { font-weight: bold; margin-bottom: 4px; }
svg.agreement-bar { vertical-align: middle; margin-right: 6px; } td[data-field="shadowAgreement"] { white-space: nowrap; }
`;

function cell(field: string, value: number | string | null, text: string, numeric = true): string {
  const raw = value === null ? '' : String(value);
  return `<td${numeric ? ' class="n"' : ''} data-field="${field}" data-value="${escapeHtml(raw)}">${escapeHtml(text)}</td>`;
}

/** The shadow agreement cell: a small bar (threshold marked) and `97.0% of 100`. */
function agreementCell(op: OperationReport, thresholds: Thresholds): string {
  const { agreement } = op.shadow;
  const bar = agreement === null ? '' : agreementBar(op.operation, op.shadow, thresholds);
  return (
    `<td class="n" data-field="shadowAgreement" data-value="${agreement === null ? '' : agreement}" data-compared="${op.shadow.compared}">` +
    `${bar}${escapeHtml(formatAgreement(op.shadow))}</td>`
  );
}

function pathList(paths: readonly PathCount[]): string {
  if (paths.length === 0) return '<td class="muted">-</td>';
  return `<td><ul>${paths.map((p) => `<li data-path="${escapeHtml(p.path)}" data-count="${p.count}">${escapeHtml(p.path)} (${formatCount(p.count)})</li>`).join('')}</ul></td>`;
}

function operationRow(op: OperationReport, thresholds: Thresholds): string {
  return (
    `<tr data-operation="${escapeHtml(op.operation)}">` +
    `<td>${escapeHtml(op.operation)}</td>` +
    cell('requests', op.requests, formatCount(op.requests)) +
    cell('clients', op.clients, formatCount(op.clients)) +
    cell('modes', modeShares(op.modes), modeShares(op.modes), false) +
    cell('errorRate', op.errorRate, formatPercent(op.errorRate)) +
    cell('p50Ms', op.p50Ms, formatMs(op.p50Ms)) +
    cell('p95Ms', op.p95Ms, formatMs(op.p95Ms)) +
    cell('malformed', op.malformed.requests, `${formatCount(op.malformed.requests)} (${formatPercent(op.malformed.share)})`) +
    cell('plainHttp', op.plainHttp.requests, `${formatCount(op.plainHttp.requests)} (${formatPercent(op.plainHttp.share)})`) +
    cell('cacheHitRate', op.cache.hitRate, formatPercent(op.cache.hitRate)) +
    cell('fallbacks', op.fallbacks.requests, op.fallbacks.requests ? formatCount(op.fallbacks.requests) : '-') +
    agreementCell(op, thresholds) +
    `</tr>`
  );
}

export function renderHtml(report: Report): string {
  const { summary } = report;
  const colours = modeColours(report.timeline.modes);
  const parts: string[] = [];
  parts.push(
    `<h1>Migration report</h1>`,
    `<p id="summary">` +
      `<span data-field="records" data-value="${summary.records}">${formatCount(summary.records)}</span> requests` +
      (summary.firstTime ? `, ${escapeHtml(summary.firstTime)} to ${escapeHtml(summary.lastTime ?? '')}` : '') +
      `, from ${escapeHtml(report.inputs.join(', '))}. Clients: <span data-field="clients" data-value="${summary.clients}">${formatCount(summary.clients)}</span>. ` +
      `Broken lines: <span data-field="brokenLines" data-value="${summary.brokenLines}">${formatCount(summary.brokenLines)}</span>. ` +
      `Refused before routing: ${formatCount(summary.unrouted)}. Without api_key: ${formatCount(summary.anonymousRequests)}. ` +
      `Shadow comparisons: <span data-field="shadowLines" data-value="${summary.shadowLines}">${formatCount(summary.shadowLines)}</span>.` +
      `</p>`,
    `<figure><figcaption>Share of traffic per mode, per operation</figcaption>${modeShareChart(report, colours)}</figure>`,
    `<figure><figcaption>Requests over time</figcaption>${timelineChart(report, colours)}</figure>`,
    `<figure><figcaption>Top clients by remaining legacy use (requests served by the legacy backend)</figcaption>${topClientsChart(report)}</figure>`,
  );

  parts.push(
    `<h2>Operations</h2><table id="operations"><thead><tr><th>operation</th><th>requests</th><th>clients</th><th>modes</th><th>errors (5xx)</th>` +
      `<th>p50 ms</th><th>p95 ms</th><th>malformed forms</th><th>plain http</th><th>cache hit</th><th>fallbacks to legacy</th><th>shadow agreement</th></tr></thead><tbody>` +
      report.operations.map((op) => operationRow(op, report.thresholds)).join('') +
      `</tbody></table>`,
  );
  if (report.unseenOperations.length > 0) parts.push(`<p class="muted">No traffic: ${escapeHtml(report.unseenOperations.join(', '))}</p>`);

  parts.push(
    `<h2>Readiness for api2</h2><table id="readiness"><thead><tr><th>operation</th><th>verdict</th><th>reasons</th></tr></thead><tbody>` +
      report.operations
        .map(
          (op) =>
            `<tr data-operation="${escapeHtml(op.operation)}"><td>${escapeHtml(op.operation)}</td>` +
            `<td class="${op.readiness.verdict}" data-field="verdict" data-value="${op.readiness.verdict}">${op.readiness.verdict === 'ready' ? 'ready' : 'not ready'}</td>` +
            `<td><ul>${op.readiness.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul></td></tr>`,
        )
        .join('') +
      `</tbody></table>`,
  );

  const shadowed = report.operations.filter((op) => op.shadow.compared + op.shadow.skipped > 0);
  if (shadowed.length > 0) {
    parts.push(
      `<h2>Shadow comparisons</h2><p class="muted">Legacy answered; api2 was called in the background and both answers compared field by field. ` +
        `Agreement needed: ${escapeHtml(formatPercent(report.thresholds.minAgreement))} over at least ${formatCount(report.thresholds.minShadowComparisons)} comparisons. ` +
        `Noise: fields legacy itself varied on, not blamed on the mapping.</p>` +
        `<table id="shadow"><thead><tr><th>operation</th><th>compared</th><th>equal</th><th>differ</th><th>skipped</th><th>agreement</th>` +
        `<th>top differing fields</th><th>noise (legacy varies)</th></tr></thead><tbody>` +
        shadowed
          .map(
            (op) =>
              `<tr data-operation="${escapeHtml(op.operation)}"><td>${escapeHtml(op.operation)}</td>` +
              cell('compared', op.shadow.compared, formatCount(op.shadow.compared)) +
              cell('equal', op.shadow.equal, formatCount(op.shadow.equal)) +
              cell('differing', op.shadow.differing, formatCount(op.shadow.differing)) +
              cell('skipped', op.shadow.skipped, formatCount(op.shadow.skipped)) +
              cell('agreement', op.shadow.agreement, formatAgreementRate(op.shadow.agreement)) +
              pathList(op.shadow.topFields) +
              pathList(op.shadow.noiseFields) +
              `</tr>`,
          )
          .join('') +
        `</tbody></table>`,
    );
  }

  parts.push(
    `<h2>Clients and what blocks their migration</h2><table id="clients"><thead><tr><th>client</th><th>requests</th><th>legacy mode</th><th>last seen</th><th>blockers</th></tr></thead><tbody>` +
      report.clients
        .map(
          (c) =>
            `<tr data-client="${escapeHtml(c.client)}"><td>${escapeHtml(clientName(c))}</td>` +
            cell('requests', c.requests, formatCount(c.requests)) +
            cell('legacyRequests', c.legacyRequests, formatCount(c.legacyRequests)) +
            `<td>${escapeHtml(c.lastSeen)}</td>` +
            `<td><ul>${c.blockers.map((b) => `<li data-kind="${b.kind}">${escapeHtml(`${b.operation}: ${b.detail} (${formatCount(b.requests)})`)}</li>`).join('')}</ul></td></tr>`,
        )
        .join('') +
      `</tbody></table>`,
  );

  if (report.uncatalogued.length > 0) {
    parts.push(
      `<h2>Uncatalogued paths</h2><table id="uncatalogued"><thead><tr><th>method</th><th>path template</th><th>requests</th><th>clients</th></tr></thead><tbody>` +
        report.uncatalogued
          .map((u) => `<tr><td>${escapeHtml(u.method)}</td><td>${escapeHtml(u.pathTemplate)}</td>${cell('requests', u.requests, formatCount(u.requests))}${cell('clients', u.clients, formatCount(u.clients))}</tr>`)
          .join('') +
        `</tbody></table>`,
    );
  }
  if (report.brokenLines.length > 0) {
    parts.push(
      `<h2>Broken lines (not counted)</h2><table id="broken"><tbody>` +
        report.brokenLines.map((b) => `<tr><td>${escapeHtml(b.input)}:${b.line}</td><td>${escapeHtml(b.reason)}</td></tr>`).join('') +
        `</tbody></table>`,
    );
  }
  parts.push(`<p class="muted">Generated ${escapeHtml(report.generatedAt)} by recipe-gateway report.</p>`);

  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Migration report</title>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>` +
    `<body>${parts.join('\n')}</body></html>\n`
  );
}
