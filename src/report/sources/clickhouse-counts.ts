/**
 * Node-only: the report's counts from ClickHouse. The queries (clickhouse-queries.ts) count in
 * SQL; their small answers fill the same structure the file reader fills line by line
 * (src/report/aggregate.ts), and the same code turns it into the report (build-report.ts): rates,
 * percentiles, verdicts and the order of every list are computed once for both sources.
 */
import { Aggregator, EXAMPLE_LINES, addTold, keepExampleLine, takeLabel } from '../aggregate.js';
import type { PathExample } from '../types.js';
import { countAnswers, countProgram } from '../client-facts.js';
import { timelineStep } from '../build-report.js';
import { EXACT_LIMIT } from '../latency-sketch.js';
import { fixedIndexOfSketch } from '../../migration/latency-buckets.js';
import { select } from './clickhouse-http.js';
import type { ClickHouseTarget } from './clickhouse-http.js';
import * as sql from './clickhouse-queries.js';
import { stepKey } from '../scoped-evidence.js';
import type { RolloutLine } from '../rollout-lines.js';
import type { Cell } from './clickhouse-queries.js';

type Row = readonly unknown[];

const num = (value: unknown): number => (value === null ? 0 : Number(value));
const opt = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));

/**
 * Two round trips: every grouped query at once (the cells come with their latency buckets, the
 * timeline picks its own step), then, only for cells small enough for the sketch's exact values,
 * their latency values.
 */
export async function countsFromClickHouse(target: ClickHouseTarget, name: string, final: boolean, since?: number, stepBucketMs?: number): Promise<Aggregator> {
  // stepBucketMs (--config): a step judged on its whole live counter buckets, as the files source and the runner judge it.
  const agg = new Aggregator(undefined, stepBucketMs);
  const whole = final ? `${name} FINAL` : name;
  // --since: the rows written from then on, and every rollout decision (as the file reader keeps them).
  const table = since === undefined ? whole : `(SELECT * FROM ${whole} WHERE time >= ${Math.floor(since)} OR msg = 'rollout')`;
  const [cells, otherForms, routeModes, minutes, uses, uncatalogued, outcomes, skipReasons, diffs, noise, breakerOpens, rollouts, scopedAnswers, scopedShadows, exampleLines, clientSides, clientPrograms] = await Promise.all([
    select(target, sql.cellsSql(table)),
    select(target, sql.otherFormsSql(table)),
    select(target, sql.routeModesSql(table)),
    select(target, sql.minutesSql(table)),
    select(target, sql.usesSql(table)),
    select(target, sql.uncataloguedSql(table)),
    select(target, sql.shadowOutcomesSql(table)),
    select(target, sql.skipReasonsSql(table)),
    select(target, sql.shadowPathsSql(table, 'diffs')),
    select(target, sql.shadowPathsSql(table, 'noise')),
    select(target, sql.breakerOpensSql(table)),
    select(target, sql.rolloutsSql(table)),
    select(target, sql.scopedAnswersSql(table, stepBucketMs)),
    select(target, sql.scopedShadowsSql(table, stepBucketMs)),
    select(target, sql.exampleLinesSql(table, EXAMPLE_LINES)),
    select(target, sql.clientSidesSql(table)),
    select(target, sql.clientProgramsSql(table)),
  ]);
  for (const [operation, time, id, examples] of exampleLines as Row[]) keepExampleLine(agg.operation(String(operation)).shadow.examples, { time: num(time), id: String(id), examples: JSON.parse(String(examples)) as PathExample[] });
  fillScoped(agg, scopedAnswers, scopedShadows);
  for (const [line] of rollouts as Row[]) agg.rollouts.push(JSON.parse(String(line)) as RolloutLine);
  agg.breakerOpens = num((breakerOpens as Row[])[0]?.[0] ?? 0);
  const { small, routed } = fillCells(agg, cells);
  const exact = small.length > 0 ? select(target, sql.exactLatencySql(table, small)) : Promise.resolve([]);
  await fillMinutes(agg, target, table, minutes);
  for (const [operation, mode, ms, n] of (await exact) as Row[]) agg.modeCell(String(operation), String(mode)).latency.addCount(Number(ms), num(n));
  for (const [operation, form, n] of otherForms as Row[]) agg.operation(String(operation)).otherForms.set(String(form), num(n));
  for (const [operation, routeMode, n] of routeModes as Row[]) agg.operation(String(operation)).routeModes.set(String(routeMode), num(n));
  agg.anonymous = routed - fillClients(agg, uses);
  fillClientFacts(agg, clientSides, clientPrograms);
  for (const [method, template, n] of uncatalogued as Row[]) {
    const found = agg.uncatalogued.get(`${String(method)} ${String(template)}`);
    if (found) found.requests = num(n);
    else agg.uncatalogued.set(`${String(method)} ${String(template)}`, { method: String(method), pathTemplate: String(template), requests: num(n), clients: new Set() });
  }
  fillShadows(agg, outcomes, skipReasons, diffs, noise);
  return agg;
}

/** A cell's figures, summed over its rows (one per latency bucket). */
interface CellSums {
  readonly operation: string;
  readonly mode: string;
  readonly sums: number[];
  /** [bucket, requests] for the requests with a latency. */
  readonly buckets: Array<readonly [number, number]>;
  latencies: number;
}

/**
 * The cells' figures and, for cells past the sketch's exact values, their latency buckets.
 * Returns the cells that need exact values, and the number of routed requests.
 */
function fillCells(agg: Aggregator, rows: readonly Row[]): { small: Cell[]; routed: number } {
  const cells = new Map<string, CellSums>();
  for (const row of rows) {
    const [operation, mode] = [String(row[0]), String(row[1])];
    const bucket = num(row[2]);
    const figures = row.slice(3).map(num);
    const key = JSON.stringify([operation, mode]);
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { operation, mode, sums: figures.map((_, i) => (i === figures.length - 2 ? Infinity : i === figures.length - 1 ? -Infinity : 0)), buckets: [], latencies: 0 }));
    // The last two figures are min(time) and max(time); the others are counts.
    for (let i = 0; i < figures.length - 2; i++) cell.sums[i]! += figures[i]!;
    cell.sums[figures.length - 2] = Math.min(cell.sums[figures.length - 2]!, figures[figures.length - 2]!);
    cell.sums[figures.length - 1] = Math.max(cell.sums[figures.length - 1]!, figures[figures.length - 1]!);
    if (bucket !== -2) {
      cell.buckets.push([bucket, figures[0]!]);
      cell.latencies += figures[0]!;
    }
  }
  const small: Cell[] = [];
  let routed = 0;
  for (const { operation, mode, sums, buckets, latencies } of cells.values()) {
    const [n, errors, clientErrors, canonical, regular, malformed, versioned, plain, insecure, hit, miss, stale, bypass, fallbacks, first, last] = sums as number[] & { length: 16 };
    agg.records += n!;
    agg.firstTime = Math.min(agg.firstTime, first!);
    agg.lastTime = Math.max(agg.lastTime, last!);
    const cell = agg.modeCell(operation, mode);
    cell.requests = n!;
    if (operation === 'unrouted') continue;
    routed += n!;
    cell.errors = errors!;
    cell.clientErrors = clientErrors!;
    const op = agg.operation(operation);
    op.requests += n!;
    op.clientErrors += clientErrors!;
    op.canonical += canonical!;
    op.regular += regular!;
    op.malformed += malformed!;
    op.versionPrefixed += versioned!;
    op.plainHttp += plain!;
    op.insecure += insecure!;
    op.cache.hit += hit!;
    op.cache.miss += miss!;
    op.cache.stale += stale!;
    op.cache.bypass += bypass!;
    op.fallbacks += fallbacks!;
    if (latencies > EXACT_LIMIT) for (const [bucket, count] of buckets) cell.latency.addToBucket(bucket, count);
    else if (latencies > 0) small.push({ operation, mode });
  }
  return { small, routed };
}

/** The timeline; asked again at the report's own step in the (unexpected) case that the query chose another. */
async function fillMinutes(agg: Aggregator, target: ClickHouseTarget, table: string, rows: readonly Row[]): Promise<void> {
  if (agg.records === 0) return;
  const step = timelineStep(agg.firstTime, agg.lastTime);
  const minutes = rows.every((row) => num(row[2]) === step) ? rows : await select(target, sql.minutesAtStepSql(table, step));
  for (const [operation, mode, , minute, n] of minutes as Row[]) agg.modeCell(String(operation), String(mode)).minutes.set(num(minute), num(n));
}

/** The clients and their uses; returns the requests counted in them (the routed requests with a client). */
function fillClients(agg: Aggregator, uses: readonly Row[]): number {
  let counted = 0;
  for (const [id, operation, method, template, mode, form, versionPrefix, scheme, insecure, n, first, last, label, labelTime, redirectBreaks, told, toldSince, signals] of uses as Row[]) {
    const client = agg.client(String(id), num(first), num(last));
    if (labelTime !== null) takeLabel(client, String(label), num(labelTime));
    const requests = num(n);
    counted += requests;
    const use = {
      operation: String(operation),
      method: String(method),
      pathTemplate: opt(template),
      mode: String(mode),
      form: opt(form),
      versionPrefix: opt(versionPrefix),
      scheme: opt(scheme),
      insecure: num(insecure) === 1,
      requests,
    };
    client.uses.set(`${client.uses.size}`, use);
    client.requests += requests;
    if (use.mode === 'legacy') client.legacy += requests;
    client.redirectBreaks += num(redirectBreaks);
    // A use's told answers: how many, the first, and the signals (counted as the file reader counts them: aggregate.ts addTold).
    for (const [i, signal] of (signals as string[]).entries()) addTold(client.told, signal, num(toldSince), i === 0 ? num(told) : 0);
    client.first = Math.min(client.first, num(first));
    client.last = Math.max(client.last, num(last));
    const op = agg.operation(use.operation);
    op.clients.add(client.index);
    if (use.form === 'malformed') op.malformedClients.add(client.index);
    if (use.insecure) op.insecureClients.add(client.index);
    if (use.operation === 'uncatalogued') {
      const template = use.pathTemplate ?? '(unknown)';
      const key = `${use.method} ${template}`;
      let found = agg.uncatalogued.get(key);
      if (!found) agg.uncatalogued.set(key, (found = { method: use.method, pathTemplate: template, requests: 0, clients: new Set() }));
      found.clients.add(client.index);
    }
  }
  return counted;
}

/** The client sections' counts (every client is known from its uses by now). */
function fillClientFacts(agg: Aggregator, sides: readonly Row[], programs: readonly Row[]): void {
  for (const [id, operation, side, n, status4xx, status5xx] of sides as Row[]) {
    const client = agg.clients.get(String(id));
    if (client) countAnswers(client.facts, String(operation), String(side), num(n), num(status4xx), num(status5xx));
  }
  for (const [id, program, n] of programs as Row[]) {
    const client = agg.clients.get(String(id));
    if (client) countProgram(client.facts, String(program), num(n));
  }
}

/** The judgement's evidence per config version and mode in force, as the file reader counts it line by line. */
function fillScoped(agg: Aggregator, answers: readonly Row[], shadows: readonly Row[]): void {
  for (const [config, operation, routeMode, step, side, bucket, n, status4xx, status5xx, fallbacks, time] of answers as Row[]) {
    const latency = new Map<number, number>();
    if (num(bucket) !== -2) latency.set(fixedIndexOfSketch(num(bucket)), num(n));
    agg.scoped.addAnswers(String(config), String(operation), stepKey(String(routeMode), num(step) || undefined), String(side), num(time), { n: num(n), status4xx: num(status4xx), status5xx: num(status5xx), fallbacks: num(fallbacks), latency });
  }
  for (const [config, operation, routeMode, step, outcome, n, time] of shadows as Row[]) agg.scoped.addShadow(String(config), String(operation), stepKey(String(routeMode), num(step) || undefined), String(outcome), num(time), num(n));
}

function fillShadows(agg: Aggregator, outcomes: readonly Row[], skipReasons: readonly Row[], diffs: readonly Row[], noise: readonly Row[]): void {
  for (const [operation, lines, equal, differing, skipped, raced, unavailable] of outcomes as Row[]) {
    agg.shadowLines += num(lines);
    const shadow = agg.operation(String(operation)).shadow;
    shadow.equal = num(equal);
    shadow.differing = num(differing);
    shadow.skipped = num(skipped);
    shadow.raced = num(raced);
    shadow.unavailable = num(unavailable);
  }
  for (const [operation, reason, n] of skipReasons as Row[]) agg.operation(String(operation)).shadow.skipReasons.set(String(reason), num(n));
  for (const [operation, path, n] of diffs as Row[]) agg.operation(String(operation)).shadow.fields.set(String(path), num(n));
  for (const [operation, path, n] of noise as Row[]) agg.operation(String(operation)).shadow.noise.set(String(path), num(n));
}
