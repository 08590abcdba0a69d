/**
 * The counts of one pass (aggregate.ts) → the report: shares, rates, percentiles, verdicts, the
 * per-client blockers and the timeline.
 */
import { OPERATION_IDS, isOperationId, operationById } from '../catalogue/operations.js';
import { flushMinute } from './aggregate.js';
import type { Aggregator, ClientAgg, ModeAgg, OperationAgg, ShadowAgg } from './aggregate.js';
import { LatencySketch } from './latency-sketch.js';
import { judge } from './readiness.js';
import type { Blocker, ClientReport, ClientUse, ModeReport, OperationReport, PathCount, Report, ShadowReport, Thresholds, TimelineBucket } from './types.js';

/** Entries of the top lists of a shadow report. */
const TOP = 10;

/** Timeline steps in minutes; the smallest that gives at most MAX_BUCKETS buckets is used. */
export const STEPS = [1, 5, 15, 60, 360, 1440, 10_080];
export const MAX_BUCKETS = 120;

export function buildReport(agg: Aggregator, inputs: readonly string[], thresholds: Thresholds, now = new Date()): Report {
  const cells = [...agg.unrouted.entries(), ...[...agg.operations.values()].flatMap((op) => [...op.modes.entries()])];
  const modeTotals = new Map<string, number>();
  for (const [mode, cell] of cells) {
    flushMinute(cell);
    modeTotals.set(mode, (modeTotals.get(mode) ?? 0) + cell.requests);
  }
  const operations = [...agg.operations.entries()]
    .map(([id, op]) => operationReport(id, op, thresholds))
    .sort((a, b) => b.requests - a.requests || a.operation.localeCompare(b.operation));
  const clients = [...agg.clients.entries()]
    .map(([id, client]) => clientReport(id, client))
    .sort((a, b) => b.legacyRequests - a.legacyRequests || b.requests - a.requests || a.client.localeCompare(b.client));
  const modes = sortedCounts(modeTotals);
  return {
    generatedAt: now.toISOString(),
    inputs,
    summary: {
      records: agg.records,
      brokenLines: agg.brokenCount,
      otherLines: agg.otherLines,
      shadowLines: agg.shadowLines,
      firstTime: agg.records > 0 ? new Date(agg.firstTime).toISOString() : null,
      lastTime: agg.records > 0 ? new Date(agg.lastTime).toISOString() : null,
      clients: agg.clients.size,
      anonymousRequests: agg.anonymous,
      unrouted: [...agg.unrouted.values()].reduce((sum, cell) => sum + cell.requests, 0),
      modes: Object.fromEntries(modes),
    },
    operations,
    unseenOperations: OPERATION_IDS.filter((id) => (agg.operations.get(id)?.requests ?? 0) === 0),
    uncatalogued: [...agg.uncatalogued.values()]
      .map((t) => ({ method: t.method, pathTemplate: t.pathTemplate, requests: t.requests, clients: t.clients.size }))
      .sort((a, b) => b.requests - a.requests || a.pathTemplate.localeCompare(b.pathTemplate) || a.method.localeCompare(b.method)),
    clients,
    timeline: timeline(agg, cells, modes.map(([mode]) => mode)),
    brokenLines: agg.broken,
    thresholds,
  };
}

function operationReport(operation: string, op: OperationAgg, thresholds: Thresholds): OperationReport {
  const share = (n: number): number => (op.requests === 0 ? 0 : n / op.requests);
  const modes: ModeReport[] = [...op.modes.entries()]
    .map(([mode, m]) => ({
      mode,
      requests: m.requests,
      share: share(m.requests),
      errorRate: m.requests === 0 ? 0 : m.errors / m.requests,
      p50Ms: m.latency.quantile(0.5),
      p95Ms: m.latency.quantile(0.95),
    }))
    .sort((a, b) => b.requests - a.requests || a.mode.localeCompare(b.mode));
  const { hit, miss, stale, bypass } = op.cache;
  const cached = hit + stale + miss;
  const latency = new LatencySketch();
  let serverErrors = 0;
  for (const mode of op.modes.values()) {
    latency.merge(mode.latency);
    serverErrors += mode.errors;
  }
  const forms = new Map<string, number>([
    ['canonical', op.canonical],
    ['malformed', op.malformed],
    ['regular', op.regular],
    ...op.otherForms,
  ]);
  return {
    operation,
    requests: op.requests,
    clients: op.clients.size,
    modes,
    errorRate: share(serverErrors),
    clientErrorRate: share(op.clientErrors),
    p50Ms: latency.quantile(0.5),
    p95Ms: latency.quantile(0.95),
    forms: Object.fromEntries(sortedCounts(forms).filter(([, n]) => n > 0)),
    malformed: { requests: op.malformed, share: share(op.malformed), clients: op.malformedClients.size },
    versionPrefixed: { requests: op.versionPrefixed, share: share(op.versionPrefixed) },
    plainHttp: { requests: op.plainHttp, share: share(op.plainHttp) },
    insecure: { requests: op.insecure, share: share(op.insecure), clients: op.insecureClients.size },
    cache: { hit, miss, stale, bypass, hitRate: cached === 0 ? null : (hit + stale) / cached },
    routeModes: Object.fromEntries(sortedCounts(op.routeModes)),
    fallbacks: { requests: op.fallbacks, share: share(op.fallbacks) },
    shadow: shadowReport(op.shadow),
    readiness: judge(operation, op, thresholds),
  };
}

export function shadowReport(shadow: ShadowAgg): ShadowReport {
  const compared = shadow.equal + shadow.differing;
  const top = (counts: ReadonlyMap<string, number>): PathCount[] =>
    sortedCounts(counts)
      .slice(0, TOP)
      .map(([path, count]) => ({ path, count }));
  return {
    compared,
    equal: shadow.equal,
    differing: shadow.differing,
    skipped: shadow.skipped,
    agreement: compared === 0 ? null : shadow.equal / compared,
    topFields: top(shadow.fields),
    noiseFields: top(shadow.noise),
    skipReasons: sortedCounts(shadow.skipReasons)
      .slice(0, TOP)
      .map(([reason, count]) => ({ reason, count })),
  };
}

function clientReport(id: string, client: ClientAgg): ClientReport {
  const uses = [...client.uses.values()].sort(compareUses);
  const blockers = new Map<string, Blocker>();
  const add = (kind: Blocker['kind'], operation: string, detail: string, requests: number): void => {
    const key = `${kind}|${operation}|${detail}`;
    const found = blockers.get(key);
    blockers.set(key, { kind, operation, detail, requests: (found?.requests ?? 0) + requests });
  };
  for (const use of uses) {
    if (use.operation === 'uncatalogued') {
      add('uncatalogued', `${use.method} ${use.pathTemplate ?? '(unknown)'}`, 'uncatalogued call, only the legacy backend answers it', use.requests);
      continue;
    }
    if (use.mode === 'legacy') add('legacy-mode', use.operation, 'served by the legacy backend', use.requests);
    if (use.form === 'malformed') add('malformed-form', use.operation, `malformed form ${malformedForm(use.operation)}`.trim(), use.requests);
    if (use.versionPrefix !== undefined) add('version-prefix', use.operation, `/${use.versionPrefix}/ path prefix`, use.requests);
    if (use.insecure) add('plain-http', use.operation, 'credentials over plain http', use.requests);
  }
  return {
    client: id,
    label: client.label,
    requests: client.requests,
    legacyRequests: client.legacy,
    firstSeen: new Date(client.first).toISOString(),
    lastSeen: new Date(client.last).toISOString(),
    uses,
    blockers: [...blockers.values()].sort((a, b) => b.requests - a.requests || a.operation.localeCompare(b.operation) || a.kind.localeCompare(b.kind)),
  };
}

/**
 * Most requests first, then by every field that tells uses apart: the order never depends on the
 * order records were read in, so every source (files, ClickHouse) lists a client's uses alike.
 */
function compareUses(a: ClientUse, b: ClientUse): number {
  return (
    b.requests - a.requests ||
    a.operation.localeCompare(b.operation) ||
    a.mode.localeCompare(b.mode) ||
    a.method.localeCompare(b.method) ||
    text(a.pathTemplate).localeCompare(text(b.pathTemplate)) ||
    text(a.form).localeCompare(text(b.form)) ||
    text(a.versionPrefix).localeCompare(text(b.versionPrefix)) ||
    text(a.scheme).localeCompare(text(b.scheme)) ||
    Number(a.insecure) - Number(b.insecure)
  );
}

const text = (value: string | undefined): string => value ?? '';

/** `POST /grocerylist/{id}` for grocery.update, as the catalogue writes it. */
function malformedForm(operation: string): string {
  if (!isOperationId(operation)) return '';
  const form = operationById(operation).forms.find((f) => f.kind === 'malformed');
  return form ? `${form.method} ${form.template}` : '';
}

/** The timeline's step in minutes for records from `firstTime` to `lastTime` (epoch ms); a minute's counts may be given in any minute of its step. */
export function timelineStep(firstTime: number, lastTime: number): number {
  const span = Math.floor(lastTime / 60_000) - Math.floor(firstTime / 60_000) + 1;
  return STEPS.find((s) => Math.ceil(span / s) <= MAX_BUCKETS) ?? STEPS[STEPS.length - 1]!;
}

function timeline(agg: Aggregator, cells: ReadonlyArray<readonly [string, ModeAgg]>, modes: readonly string[]): Report['timeline'] {
  if (agg.records === 0) return { stepSeconds: 60, modes, buckets: [] };
  const firstMinute = Math.floor(agg.firstTime / 60_000);
  const lastMinute = Math.floor(agg.lastTime / 60_000);
  const step = timelineStep(agg.firstTime, agg.lastTime);
  const firstBucket = Math.floor(firstMinute / step);
  const lastBucket = Math.floor(lastMinute / step);
  const counts: Array<Record<string, number>> = [];
  for (let b = firstBucket; b <= lastBucket; b++) counts.push(Object.fromEntries(modes.map((m) => [m, 0])));
  for (const [mode, cell] of cells) {
    for (const [minute, n] of cell.minutes) {
      const bucket = counts[Math.floor(minute / step) - firstBucket]!;
      bucket[mode] = (bucket[mode] ?? 0) + n;
    }
  }
  const buckets: TimelineBucket[] = counts.map((bucketModes, i) => ({
    start: new Date((firstBucket + i) * step * 60_000).toISOString(),
    total: Object.values(bucketModes).reduce((sum, n) => sum + n, 0),
    modes: bucketModes,
  }));
  return { stepSeconds: step * 60, modes, buckets };
}

function sortedCounts(map: ReadonlyMap<string, number>): Array<[string, number]> {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
