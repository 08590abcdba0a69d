/**
 * The counts of one pass (aggregate.ts) → the report: shares, rates, percentiles, verdicts, the
 * per-client blockers and the timeline.
 */
import { stepSections } from './step-sections.js';
import { OPERATION_IDS, isOperationId, operationById } from '../catalogue/operations.js';
import { flushMinute } from './aggregate.js';
import type { Aggregator, ClientAgg, ModeAgg, OperationAgg, ShadowAgg } from './aggregate.js';
import { blockerKinds, BLOCKER_TEXT } from '../migration/blockers.js';
import { toldClients } from './told.js';
import { clientSections } from './client-sections.js';
import type { BlockerGroup, BlockerKind } from '../migration/blockers.js';
import type { Evidence } from '../migration/readiness.js';
import { judgeOperation } from '../migration/judgement/judge.js';
import { headline, stateCounts } from '../migration/judgement/headline.js';
import type { Judgement } from '../migration/judgement/types.js';
import { gatesUsed, judgeReport } from './judge-report.js';
import { withPositions } from '../migration/rollout/client-standing.js';
import { EXAMPLES_PER_PATH } from '../traffic/diff-examples.js';
import { LatencySketch } from './latency-sketch.js';
import { rolloutReports } from './rollout-lines.js';
import type { PathExample } from './types.js';
import type { Blocker, ClientReport, ClientUse, ModeReport, OperationReport, PathCount, Report, ReportOptions, ShadowReport, TimelineBucket } from './types.js';

/** Entries of the top lists of a shadow report. */
const TOP = 10;

/** Timeline steps in minutes; the smallest that gives at most MAX_BUCKETS buckets is used. */
export const STEPS = [1, 5, 15, 60, 360, 1440, 10_080];
export const MAX_BUCKETS = 120;

export function buildReport(agg: Aggregator, inputs: readonly string[], options: ReportOptions = {}, now = new Date()): Report {
  const cells = [...agg.unrouted.entries(), ...[...agg.operations.values()].flatMap((op) => [...op.modes.entries()])];
  const modeTotals = new Map<string, number>();
  for (const [mode, cell] of cells) {
    flushMinute(cell);
    modeTotals.set(mode, (modeTotals.get(mode) ?? 0) + cell.requests);
  }
  const rollouts = rolloutReports(agg.rollouts);
  const config = options.configVersion ?? agg.scoped.latestConfig;
  const judged = judgeReport(agg.scoped, rollouts, config, agg.breakerOpens, agg.operations.has('uncatalogued'), options.plans);
  const judgements = new Map(judged.map((j) => [j.judgement.operation, j.judgement]));
  const operations = [...agg.operations.entries()]
    .map(([id, op]) => operationReport(id, op, judgements.get(id) ?? cannotMove(id)))
    .sort((a, b) => b.requests - a.requests || a.operation.localeCompare(b.operation));
  const clients = [...agg.clients.entries()]
    .map(([id, client]) => clientReport(id, client))
    .sort((a, b) => b.legacyRequests - a.legacyRequests || b.requests - a.requests || a.client.localeCompare(b.client));
  const modes = sortedCounts(modeTotals);
  const heldBack = blockersByOperation(agg);
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
    readiness: {
      headline: headline(judged.map((j) => j.judgement)),
      states: stateCounts(judged.map((j) => j.judgement).filter((j) => j.operation !== 'uncatalogued')),
      configVersion: config ?? null,
      gates: gatesUsed(options.plans),
      configVersions: [...agg.scoped.configs.keys()].filter((c) => c !== '').sort(),
      api2BreakerOpens: agg.breakerOpens,
      operations: judged.map(({ judgement, evidence, step }) => {
        const steps = stepSections(agg.scoped, config, judgement.operation, step);
        return {
          operation: judgement.operation,
          judgement,
          evidence: withFields(evidence, agg.operations.get(judgement.operation)),
          heldBackBy: heldBack.get(judgement.operation) ?? [],
          ...(steps.length > 0 ? { steps } : {}),
        };
      }),
    },
    operations,
    unseenOperations: OPERATION_IDS.filter((id) => (agg.operations.get(id)?.requests ?? 0) === 0),
    uncatalogued: [...agg.uncatalogued.values()]
      .map((t) => ({ method: t.method, pathTemplate: t.pathTemplate, requests: t.requests, clients: t.clients.size }))
      .sort((a, b) => b.requests - a.requests || a.pathTemplate.localeCompare(b.pathTemplate) || a.method.localeCompare(b.method)),
    clients,
    policy: {
      redirect: clients
        .filter((c) => c.redirectBreaks > 0)
        .map((c) => ({ client: c.client, label: c.label, requests: c.redirectBreaks }))
        .sort((a, b) => b.requests - a.requests || a.client.localeCompare(b.client)),
    },
    rollouts,
    // Where each rollout is: the step its judgement names (from the log's last decision).
    clientSections: clientSections(agg.clients, options.plans && withPositions(options.plans, (operation) => judgements.get(operation)?.step ?? undefined)),
    told: toldClients(agg),
    timeline: timeline(agg, cells, modes.map(([mode]) => mode)),
    trends: { days: days(agg) },
    brokenLines: agg.broken,
  };
}

/** An operation the catalogue does not hold (another writer's line): it cannot move. */
function cannotMove(operation: string): Judgement {
  const nothing = { requests: 0, status5xx: 0, p95Ms: null };
  return judgeOperation({ operation, mode: 'legacy', write: false, plan: undefined, rollout: undefined, evidence: { counts: { legacy: nothing, api2: nothing, fallbacks: 0, shadow: { compared: 0, agreed: 0 } }, api2BreakerOpens: 0 } });
}

/** The evidence with the paths blamed on the mapping, most first (over the whole log: the lines name them). */
function withFields(evidence: Evidence, op: OperationAgg | undefined): Evidence {
  const fields = op ? sortedCounts(op.shadow.fields).map(([path, count]) => ({ path, count })) : [];
  return { ...evidence, shadow: { ...evidence.shadow, fields } };
}

/** Per operation, the clients holding it back, one group per blocker kind (how many clients, how many requests). */
function blockersByOperation(agg: Aggregator): Map<string, BlockerGroup[]> {
  const groups = new Map<string, Map<BlockerKind, { clients: Set<number>; requests: number }>>();
  for (const client of agg.clients.values()) {
    for (const use of client.uses.values()) {
      for (const kind of blockerKinds(use)) {
        let byKind = groups.get(use.operation);
        if (!byKind) groups.set(use.operation, (byKind = new Map()));
        let group = byKind.get(kind);
        if (!group) byKind.set(kind, (group = { clients: new Set(), requests: 0 }));
        group.clients.add(client.index);
        group.requests += use.requests;
      }
    }
  }
  return new Map(
    [...groups].map(([operation, byKind]) => [
      operation,
      [...byKind]
        .map(([kind, g]) => ({ kind, detail: BLOCKER_TEXT[kind], clients: g.clients.size, requests: g.requests }))
        .sort((a, b) => b.requests - a.requests || a.kind.localeCompare(b.kind)),
    ]),
  );
}

function operationReport(operation: string, op: OperationAgg, judgement: Judgement): OperationReport {
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
    readiness: judgement,
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
    raced: shadow.raced,
    unavailable: shadow.unavailable,
    agreement: compared === 0 ? null : shadow.equal / compared,
    topFields: top(shadow.fields),
    noiseFields: top(shadow.noise),
    examples: examplesOf(shadow),
    skipReasons: sortedCounts(shadow.skipReasons)
      .slice(0, TOP)
      .map(([reason, count]) => ({ reason, count })),
  };
}

/** At most EXAMPLES_PER_PATH pairs per path, from the latest comparisons first. */
function examplesOf(shadow: ShadowAgg): Array<PathExample & { time: string }> {
  const perPath = new Map<string, number>();
  const out: Array<PathExample & { time: string }> = [];
  for (const line of shadow.examples) {
    for (const example of line.examples) {
      const n = perPath.get(example.path) ?? 0;
      if (n >= EXAMPLES_PER_PATH) continue;
      perPath.set(example.path, n + 1);
      out.push({ ...example, time: new Date(line.time).toISOString() });
    }
  }
  return out;
}

function clientReport(id: string, client: ClientAgg): ClientReport {
  const uses = [...client.uses.values()].sort(compareUses);
  const blockers = new Map<BlockerKind, { operations: Map<string, number>; requests: number; which: Set<string> }>();
  for (const use of uses) {
    const operation = use.operation === 'uncatalogued' ? `${use.method} ${use.pathTemplate ?? '(unknown)'}` : use.operation;
    for (const kind of blockerKinds(use)) {
      let found = blockers.get(kind);
      if (!found) blockers.set(kind, (found = { operations: new Map(), requests: 0, which: new Set() }));
      found.requests += use.requests;
      found.operations.set(operation, (found.operations.get(operation) ?? 0) + use.requests);
      if (kind === 'malformed-form') found.which.add(malformedForm(use.operation));
      if (kind === 'version-prefix') found.which.add(`/${use.versionPrefix}/`);
    }
  }
  return {
    client: id,
    label: client.label,
    requests: client.requests,
    legacyRequests: client.legacy,
    firstSeen: new Date(client.first).toISOString(),
    lastSeen: new Date(client.last).toISOString(),
    uses,
    redirectBreaks: client.redirectBreaks,
    blockers: [...blockers]
      .map(([kind, b]): Blocker => ({ kind, detail: blockerDetail(kind, b.which), operations: sortedCounts(b.operations).map(([operation]) => operation), requests: b.requests }))
      .sort((a, b) => b.requests - a.requests || a.kind.localeCompare(b.kind)),
  };
}

/** What a kind means for this client, naming the malformed forms or the prefixes: `malformed path forms (POST /grocerylist/{id})`. */
function blockerDetail(kind: BlockerKind, which: ReadonlySet<string>): string {
  const named = [...which].filter((w) => w !== '').sort();
  return named.length > 0 ? `${BLOCKER_TEXT[kind]} (${named.join(', ')})` : BLOCKER_TEXT[kind];
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

const DAY_MINUTES = 1440;

/** Requests per UTC day and side, from the cells' minutes (step-aligned from ClickHouse: usable while a step divides a day). */
function days(agg: Aggregator): Array<{ day: string; legacy: number; api2: number }> {
  if (agg.records === 0 || DAY_MINUTES % timelineStep(agg.firstTime, agg.lastTime) !== 0) return [];
  const first = Math.floor(agg.firstTime / 60_000 / DAY_MINUTES);
  const last = Math.floor(agg.lastTime / 60_000 / DAY_MINUTES);
  const out = Array.from({ length: last - first + 1 }, (_, i) => ({ day: new Date((first + i) * DAY_MINUTES * 60_000).toISOString().slice(0, 10), legacy: 0, api2: 0 }));
  for (const op of agg.operations.values()) {
    for (const side of ['legacy', 'api2'] as const) {
      for (const [minute, n] of op.modes.get(side)?.minutes ?? []) {
        const day = out[Math.floor(minute / DAY_MINUTES) - first];
        if (day) day[side] += n;
      }
    }
  }
  return out;
}

function sortedCounts(map: ReadonlyMap<string, number>): Array<[string, number]> {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
