/**
 * The report as terminal text (the default output).
 */
import { stepsText } from './step-sections.js';
import { clientName, operationList, formatAgreement, formatAgreementRate, formatCount, formatMs, formatPercent, modeShares, pathCounts } from '../display/format.js';
import { READINESS_HEADERS, heldBackText, readinessCells } from '../migration/readiness-table.js';
import { rolloutText } from './render-rollouts.js';
import { toldText } from './told.js';
import { clientSectionsText } from './client-sections.js';
import type { Report } from './types.js';

const MAX_CLIENTS = 25;
const MAX_BLOCKERS = 10;

export function renderText(report: Report): string {
  const { summary } = report;
  const out: string[] = [];
  const total = summary.records;
  out.push(
    `Migration report: ${formatCount(total)} requests` +
      (summary.firstTime ? `, ${summary.firstTime} to ${summary.lastTime}` : '') +
      `, from ${report.inputs.join(', ')}`,
  );
  out.push(`State: ${report.readiness.headline}`);
  out.push(`Modes: ${Object.entries(summary.modes).map(([mode, n]) => `${mode} ${formatCount(n)} (${formatPercent(total ? n / total : 0)})`).join(', ') || '-'}`);
  out.push(
    `Clients: ${formatCount(summary.clients)}; requests without api_key: ${formatCount(summary.anonymousRequests)}; ` +
      `refused before routing: ${formatCount(summary.unrouted)}; shadow comparisons: ${formatCount(summary.shadowLines)}; ` +
      `broken lines: ${formatCount(summary.brokenLines)}; other lines ignored: ${formatCount(summary.otherLines)}`,
  );

  out.push('', 'OPERATIONS');
  out.push(
    table(
      ['operation', 'requests', 'clients', 'modes', 'errors', 'p50 ms', 'p95 ms', 'malformed', 'plain http', 'cache hit', 'fallbacks', 'shadow agreement'],
      report.operations.map((op) => [
        op.operation,
        formatCount(op.requests),
        formatCount(op.clients),
        modeShares(op.modes),
        formatPercent(op.errorRate),
        formatMs(op.p50Ms),
        formatMs(op.p95Ms),
        op.malformed.requests ? `${formatCount(op.malformed.requests)} (${formatPercent(op.malformed.share)})` : '-',
        op.plainHttp.requests ? `${formatCount(op.plainHttp.requests)} (${formatPercent(op.plainHttp.share)})` : '-',
        formatPercent(op.cache.hitRate),
        op.fallbacks.requests ? formatCount(op.fallbacks.requests) : '-',
        formatAgreement(op.shadow),
      ]),
      new Set([1, 2, 4, 5, 6, 7, 8, 9, 10, 11]),
    ),
  );
  if (report.unseenOperations.length > 0) out.push(`No traffic: ${report.unseenOperations.join(', ')}`);

  out.push('', `STATE PER OPERATION (judged by the rollout gates on config version ${report.readiness.configVersion ?? '(unnamed)'}; a rolled-out route on its step in force): ${report.readiness.headline}`, `Gates: ${report.readiness.gates}.`);
  const opens = report.readiness.api2BreakerOpens;
  out.push(`api2 circuit breaker opens: ${opens === null ? 'not known from this source' : formatCount(opens)}; latency from fixed buckets (≤ bound)`);
  out.push(table([...READINESS_HEADERS], report.readiness.operations.map(readinessCells), new Set([7])));
  out.push(...stepsText(report.readiness.operations));
  const heldBack = report.readiness.operations.filter((op) => (op.heldBackBy?.length ?? 0) > 0);
  if (heldBack.length > 0) {
    out.push('', 'CLIENTS HOLDING EACH OPERATION BACK (by blocker kind)');
    out.push(table(['operation', 'held back by'], heldBack.map((op) => [op.operation, heldBackText(op.heldBackBy)])));
  }
  if (report.trends.days.length > 1) {
    out.push('', 'TRENDS PER DAY (requests per side; api2 share of legacy + api2)');
    out.push(
      table(
        ['day', 'legacy', 'api2', 'api2 share'],
        report.trends.days.map((d) => [d.day, formatCount(d.legacy), formatCount(d.api2), formatPercent(d.legacy + d.api2 === 0 ? null : d.api2 / (d.legacy + d.api2))]),
        new Set([1, 2, 3]),
      ),
    );
  }

  const shadowed = report.operations.filter((op) => op.shadow.compared + op.shadow.skipped > 0);
  if (shadowed.length > 0) {
    out.push('', 'SHADOW COMPARISONS (legacy answered; api2 compared in the background, field by field)');
    out.push(
      table(
        ['operation', 'compared', 'equal', 'differ', 'skipped', 'agreement', 'top differing fields', 'noise (legacy varies)'],
        shadowed.map((op) => [
          op.operation,
          formatCount(op.shadow.compared),
          formatCount(op.shadow.equal),
          formatCount(op.shadow.differing),
          formatCount(op.shadow.skipped),
          formatAgreementRate(op.shadow.agreement),
          pathCounts(op.shadow.topFields, 5) || '-',
          pathCounts(op.shadow.noiseFields, 5) || '-',
        ]),
        new Set([1, 2, 3, 4, 5]),
      ),
    );
    const withExamples = shadowed.filter((op) => op.shadow.examples.length > 0);
    if (withExamples.length > 0) {
      out.push('', 'DIFFERENCES, EXAMPLE PAIRS (legacy value | api2 value; the latest comparisons)');
      out.push(table(['operation', 'path', 'legacy', 'api2', 'when'], withExamples.flatMap((op) => op.shadow.examples.map((e) => [op.operation, e.path, e.legacy, e.api2, e.time]))));
    }
  }

  out.push('', `PLAINHTTPCREDENTIALS: REDIRECT WOULD BREAK ${report.policy.redirect.length} CLIENT${report.policy.redirect.length === 1 ? '' : 'S'} (GET with credentials over plain http, JSON asked by Content-Type alone: a header dropped following the 308)`);
  for (const c of report.policy.redirect.slice(0, MAX_CLIENTS)) out.push(`${clientName(c)}: ${formatCount(c.requests)} requests`);
  if (report.policy.redirect.length === 0) out.push('(none)');

  out.push('', 'CLIENTS (by remaining legacy use: requests served by the legacy backend)');
  for (const client of report.clients.slice(0, MAX_CLIENTS)) {
    out.push(`${clientName(client)}: ${formatCount(client.requests)} requests, ${formatCount(client.legacyRequests)} in legacy mode, last seen ${client.lastSeen}`);
    if (client.blockers.length === 0) out.push('    nothing blocks its migration');
    for (const blocker of client.blockers.slice(0, MAX_BLOCKERS)) {
      out.push(`    ${blocker.detail}: ${operationList(blocker.operations)} (${formatCount(blocker.requests)})`);
    }
    if (client.blockers.length > MAX_BLOCKERS) out.push(`    … ${client.blockers.length - MAX_BLOCKERS} more (see --json)`);
  }
  if (report.clients.length > MAX_CLIENTS) out.push(`… ${report.clients.length - MAX_CLIENTS} more clients (see --json)`);
  if (report.clients.length === 0) out.push('(none)');

  if (report.uncatalogued.length > 0) {
    out.push('', 'UNCATALOGUED PATHS (passed to legacy; no api2 mapping)');
    out.push(
      table(
        ['method', 'path template', 'requests', 'clients'],
        report.uncatalogued.map((u) => [u.method, u.pathTemplate, formatCount(u.requests), formatCount(u.clients)]),
        new Set([2, 3]),
      ),
    );
  }

  out.push(...rolloutText(report));
  out.push(...toldText(report));
  out.push(...clientSectionsText(report));

  if (summary.brokenLines > 0) {
    out.push('', `BROKEN LINES (${formatCount(summary.brokenLines)}; not counted)`);
    for (const broken of report.brokenLines) out.push(`${broken.input}:${broken.line}: ${broken.reason}`);
    if (summary.brokenLines > report.brokenLines.length) out.push(`… ${summary.brokenLines - report.brokenLines.length} more`);
  }
  return `${out.join('\n')}\n`;
}

function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, right: ReadonlySet<number> = new Set()): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
