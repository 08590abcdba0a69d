/**
 * The printed report: machine and settings, one row per scenario, the targets with PASS/MISS
 * (reported, never a failure), latency, RSS and cache memory; and the summary of `--runs N`.
 */
import { median } from './report.js';
import type { Ratio } from './report.js';
import type { BenchReport } from './runner.js';

const fixed = (value: number, digits: number): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const mb = (bytes: number): string => `${fixed(bytes / 1_000_000, 1)} MB`;
const UNITS: Readonly<Record<Ratio['unit'], [digits: number, suffix: string]>> = { ratio: [2, 'x'], ms: [2, ' ms'], MB: [1, ' MB'], KB: [2, ' KB'] };
const show = (unit: Ratio['unit'], value: number): string => `${fixed(value, UNITS[unit][0])}${UNITS[unit][1]}`;
/** The cells of a row: the first left-aligned to its width, the others right-aligned. */
const row = (cells: ReadonlyArray<[string, number]>): string => cells.map(([text, width], i) => (i === 0 ? text.padEnd(width) : text.padStart(width))).join(' ');
const verdict = (ratio: Ratio, value: number): string => `  ${`≤ ${show(ratio.unit, ratio.target.value)}`.padEnd(10)} ${value <= ratio.target.value ? 'PASS' : 'MISS'}`;

export function renderText(report: BenchReport): string {
  const { machine: m, settings: s, pages, cacheFill: f, unqueued: one, cacheMemory: cm } = report;
  const header = row([['scenario', 40], ['CPU µs/req', 11], ['min-max', 10], ['promoted B/req', 15], ['req/s', 8], ['p50 ms', 7], ['p99 ms', 7], ['errors', 7]]);
  return [
    `recipe-gateway benchmark — ${report.startedAt}`,
    `command:  ${report.command}`,
    `machine:  ${m.cpuModel}, ${m.cores} cores, node ${m.node}, ${m.os}, ${m.memoryGiB} GiB, load ${fixed(m.loadAverage1m, 2)} at start`,
    `settings: ${s.durationS} s per scenario per round, ${s.connections} connections, ${s.rounds} round(s), ${s.warmupS} s warm-up each${s.smoke ? ' (smoke)' : ''}`,
    `request:  GET ${s.request} (Accept: application/json)`,
    `pages:    legacy ${pages.legacyBytes} B (${pages.entries} recipes), api2 ${pages.api2Bytes} B, mapped legacy page ${pages.mappedBytes} B`,
    ...report.notes.map((note) => `note:     ${note}`),
    '',
    header,
    '-'.repeat(header.length),
    ...report.scenarios.map((sc) =>
      row([[`${sc.anchor ? '  ' : ''}${sc.label}`, 40], [fixed(sc.cpuUsPerRequest, 1), 11], [`${fixed(sc.cpuMinUs, 0)}-${fixed(sc.cpuMaxUs, 0)}`, 10], [fixed(sc.promotedBytesPerRequest, 0), 15],
        [fixed(sc.reqPerSec, 0), 8], [fixed(sc.p50Ms, 2), 7], [fixed(sc.p99Ms, 2), 7], [String(sc.errors), 7]]),
    ),
    '(indented: anchors; CPU of the process under test and its children, from /proc, per request answered)',
    '',
    `${row([['target', 62], ['value', 10]])}  ${'target'.padEnd(10)} result`,
    ...report.ratios.map((r) => `${row([[r.label, 62], [show(r.unit, r.value), 10]])}${verdict(r, r.value)}${r.note ? `  (${r.note})` : ''}`),
    '',
    f ? `cache fill: ${f.pages}/${f.planned} distinct pages in ${fixed(f.seconds, 1)} s, ${f.failed} failed, ${f.full ? 'full (first page evicted)' : 'NOT full'}` : 'cache fill: not measured (--scenarios without cache-hit)',
    `one connection (no queue): direct p50 ${fixed(one.direct.p50Ms, 3)} / p99 ${fixed(one.direct.p99Ms, 3)} ms, pass-through p50 ${fixed(one.passthrough.p50Ms, 3)} / p99 ${fixed(one.passthrough.p99Ms, 3)} ms`,
    `RSS after the bench: ${report.rss.map((r) => `${r.target} ${mb(r.bytes)}`).join(', ')}`,
    cm
      ? `cache memory: ${cm.pages} distinct pages into a ${mb(cm.capBytes)} cap: ${cm.entries} kept (${mb(cm.storedBytes)} counted), ${cm.evicted} evicted; heap + external grew ${mb(cm.grewBytes)} (cap + ${mb(cm.grewBytes - cm.capBytes)} overhead)`
      : 'cache memory: not measured (--scenarios)',
    '(scenario rows: medians over rounds; CPU ratios: medians of per-round ratios; errors = connection errors + non-2xx, summed; PASS/MISS is reported, never a failure)',
    `total ${fixed(report.seconds, 1)} s`,
  ].join('\n');
}

/**
 * `--runs N`: each ratio of every run and the median over the runs, the figure a target is judged
 * by (a target is met when the median of its ratio over three runs in a row meets it).
 */
export function renderRunsSummary(reports: readonly BenchReport[]): string {
  const first = reports[0]!;
  const lines = [`summary of ${reports.length} runs in a row (${first.command}; ${first.machine.cpuModel}, ${first.machine.cores} cores, node ${first.machine.node})`];
  lines.push(`${row([['target', 62], ...reports.map((_, i): [string, number] => [`run ${i + 1}`, 9]), ['median', 9]])}  ${'target'.padEnd(10)} result`);
  for (const ratio of first.ratios) {
    const values = reports.map((report) => report.ratios.find((r) => r.id === ratio.id)?.value ?? Number.NaN);
    lines.push(`${row([[ratio.label, 62], ...[...values, median(values)].map((value): [string, number] => [show(ratio.unit, value), 9])])}${verdict(ratio, median(values))}`);
  }
  return lines.join('\n');
}
