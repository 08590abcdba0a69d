/**
 * The printed form of a benchmark report: the machine and settings, one row per scenario (CPU µs
 * per request, median and min-max over the rounds, promoted bytes, req/s, p50/p99), the targets of
 * the performance issue with PASS/MISS (reported, never a failure), then latency, RSS and cache memory.
 */
import { median } from './report.js';
import type { BenchReport, Ratio } from './report.js';

const MB = 1_000_000;

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function showValue(unit: Ratio['unit'], value: number): string {
  if (unit === 'ms') return `${fixed(value, 2)} ms`;
  if (unit === 'MB') return `${fixed(value, 1)} MB`;
  if (unit === 'KB') return `${fixed(value, 2)} KB`;
  return `${fixed(value, 2)}x`;
}

export function renderText(report: BenchReport): string {
  const m = report.machine;
  const s = report.settings;
  const lines: string[] = [];
  lines.push(`recipe-gateway benchmark — ${report.startedAt}`);
  lines.push(`command:  ${report.command}`);
  lines.push(`machine:  ${m.cpuModel}, ${m.cores} cores, node ${m.node}, ${m.os}, ${m.memoryGiB} GiB, load ${fixed(m.loadAverage1m, 2)} at start`);
  lines.push(`settings: ${s.durationS} s per scenario per round, ${s.connections} connections, ${s.rounds} round(s), ${s.warmupS} s warm-up each${s.smoke ? ' (smoke)' : ''}`);
  lines.push(`request:  GET ${s.request} (Accept: application/json)`);
  lines.push(`pages:    legacy ${report.pages.legacyBytes} B (${report.pages.entries} recipes), api2 ${report.pages.api2Bytes} B, mapped legacy page ${report.pages.mappedBytes} B`);
  for (const note of report.notes) lines.push(`note:     ${note}`);
  lines.push('');
  const header = [
    pad('scenario', 40),
    pad('CPU µs/req', 11, true),
    pad('min-max', 10, true),
    pad('promoted B/req', 15, true),
    pad('req/s', 8, true),
    pad('p50 ms', 7, true),
    pad('p99 ms', 7, true),
    pad('errors', 7, true),
  ].join(' ');
  lines.push(header);
  lines.push('-'.repeat(header.length));
  for (const sc of report.scenarios) {
    lines.push(
      [
        pad(`${sc.anchor ? '  ' : ''}${sc.label}`, 40),
        pad(fixed(sc.cpuUsPerRequest, 1), 11, true),
        pad(`${fixed(sc.cpuMinUs, 0)}-${fixed(sc.cpuMaxUs, 0)}`, 10, true),
        pad(fixed(sc.promotedBytesPerRequest, 0), 15, true),
        pad(fixed(sc.reqPerSec, 0), 8, true),
        pad(fixed(sc.p50Ms, 2), 7, true),
        pad(fixed(sc.p99Ms, 2), 7, true),
        pad(String(sc.errors), 7, true),
      ].join(' '),
    );
  }
  lines.push('(indented: anchors; CPU of the process under test and its children, from /proc, per request answered)');
  lines.push('');
  lines.push(`${pad('target', 62)} ${pad('value', 10, true)}  ${pad('target', 10)} result`);
  for (const r of report.ratios) {
    lines.push(`${pad(r.label, 62)} ${pad(showValue(r.unit, r.value), 10, true)}  ${pad(`≤ ${showValue(r.unit, r.target.value)}`, 10)} ${r.pass ? 'PASS' : 'MISS'}${r.note ? `  (${r.note})` : ''}`);
  }
  lines.push('');
  const f = report.cacheFill;
  lines.push(`cache fill: ${f.pages}/${f.planned} distinct pages in ${fixed(f.seconds, 1)} s, ${f.failed} failed, ${f.full ? 'full (first page evicted)' : 'NOT full'}`);
  const one = report.unqueued;
  lines.push(
    `one connection (no queue): direct p50 ${fixed(one.direct.p50Ms, 3)} / p99 ${fixed(one.direct.p99Ms, 3)} ms, ` +
      `pass-through p50 ${fixed(one.passthrough.p50Ms, 3)} / p99 ${fixed(one.passthrough.p99Ms, 3)} ms`,
  );
  lines.push(`RSS after the bench: ${report.rss.map((r) => `${r.target} ${fixed(r.bytes / MB, 1)} MB`).join(', ')}`);
  const cm = report.cacheMemory;
  lines.push(
    `cache memory: ${cm.pages} distinct pages into a ${fixed(cm.capBytes / MB, 1)} MB cap: ${cm.entries} kept (${fixed(cm.storedBytes / MB, 1)} MB counted), ${cm.evicted} evicted; heap + external grew ${fixed(cm.grewBytes / MB, 1)} MB (cap + ${fixed((cm.grewBytes - cm.capBytes) / MB, 1)} MB overhead)`,
  );
  lines.push('(scenario rows: medians over rounds; CPU ratios: medians of per-round ratios; errors = connection errors + non-2xx, summed; PASS/MISS is reported, never a failure)');
  lines.push(`total ${fixed(report.seconds, 1)} s`);
  return lines.join('\n');
}

/**
 * `--runs N`: each ratio of every run and the median over the runs, the figure a target is judged
 * by (a target is met when the median of its ratio over three runs in a row meets it).
 */
export function renderRunsSummary(reports: readonly BenchReport[]): string {
  const first = reports[0];
  if (!first) return '';
  const lines = [`summary of ${reports.length} runs in a row (${first.command}; ${first.machine.cpuModel}, ${first.machine.cores} cores, node ${first.machine.node})`];
  const runHeads = reports.map((_, i) => pad(`run ${i + 1}`, 9, true)).join(' ');
  lines.push(`${pad('target', 62)} ${runHeads} ${pad('median', 9, true)}  ${pad('target', 10)} result`);
  for (const ratio of first.ratios) {
    const values = reports.map((report) => report.ratios.find((r) => r.id === ratio.id)?.value ?? Number.NaN);
    const mid = median(values);
    const cells = values.map((value) => pad(showValue(ratio.unit, value), 9, true)).join(' ');
    lines.push(`${pad(ratio.label, 62)} ${cells} ${pad(showValue(ratio.unit, mid), 9, true)}  ${pad(`≤ ${showValue(ratio.unit, ratio.target.value)}`, 10)} ${mid <= ratio.target.value ? 'PASS' : 'MISS'}`);
  }
  return lines.join('\n');
}
