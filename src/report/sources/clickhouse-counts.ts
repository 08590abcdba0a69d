/**
 * Node-only: the report's counts from ClickHouse. The queries (clickhouse-queries.ts) count in
 * SQL; their small answers fill the same structure the file reader fills line by line
 * (src/report/aggregate.ts), and the same code turns it into the report (build-report.ts): rates,
 * percentiles, verdicts and the order of every list are computed once for both sources.
 */
import { Aggregator } from '../aggregate.js';
import { timelineStep } from '../build-report.js';
import { EXACT_LIMIT } from '../latency-sketch.js';
import { select } from './clickhouse-http.js';
import type { ClickHouseTarget } from './clickhouse-http.js';
import * as sql from './clickhouse-queries.js';
import type { Cell } from './clickhouse-queries.js';

type Row = readonly unknown[];

const num = (value: unknown): number => (value === null ? 0 : Number(value));
const opt = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));

export async function countsFromClickHouse(target: ClickHouseTarget, name: string, final: boolean): Promise<Aggregator> {
  const agg = new Aggregator();
  const table = final ? `${name} FINAL` : name;
  const [summary] = await select(target, sql.summarySql(table));
  const [records, shadowLines, first, last, anonymous] = (summary ?? []).map(num);
  agg.records = records ?? 0;
  agg.shadowLines = shadowLines ?? 0;
  agg.anonymous = anonymous ?? 0;
  if (agg.records > 0) {
    agg.firstTime = first!;
    agg.lastTime = last!;
  }
  const step = agg.records > 0 ? timelineStep(agg.firstTime, agg.lastTime) : 1;

  const [cells, otherForms, routeModes, minutes, uses, labels, uncatalogued, outcomes, skipReasons, diffs, noise] = await Promise.all([
    select(target, sql.cellsSql(table)),
    select(target, sql.otherFormsSql(table)),
    select(target, sql.routeModesSql(table)),
    select(target, sql.minutesSql(table, step)),
    select(target, sql.usesSql(table)),
    select(target, sql.labelsSql(table)),
    select(target, sql.uncataloguedSql(table)),
    select(target, sql.shadowOutcomesSql(table)),
    select(target, sql.skipReasonsSql(table)),
    select(target, sql.shadowPathsSql(table, 'diffs')),
    select(target, sql.shadowPathsSql(table, 'noise')),
  ]);
  const { small, large } = fillCells(agg, cells);
  await fillLatencies(agg, target, table, small, large);
  for (const [operation, form, n] of otherForms as Row[]) agg.operation(String(operation)).otherForms.set(String(form), num(n));
  for (const [operation, routeMode, n] of routeModes as Row[]) agg.operation(String(operation)).routeModes.set(String(routeMode), num(n));
  for (const [operation, mode, minute, n] of minutes as Row[]) agg.modeCell(String(operation), String(mode)).minutes.set(num(minute), num(n));
  fillClients(agg, uses, labels);
  for (const [method, template, n] of uncatalogued as Row[]) {
    const found = agg.uncatalogued.get(`${String(method)} ${String(template)}`);
    if (found) found.requests = num(n);
    else agg.uncatalogued.set(`${String(method)} ${String(template)}`, { method: String(method), pathTemplate: String(template), requests: num(n), clients: new Set() });
  }
  fillShadows(agg, outcomes, skipReasons, diffs, noise);
  return agg;
}

function fillCells(agg: Aggregator, rows: readonly Row[]): { small: Cell[]; large: Cell[] } {
  const small: Cell[] = [];
  const large: Cell[] = [];
  for (const row of rows) {
    const [operation, mode] = [String(row[0]), String(row[1])];
    const [n, errors, clientErrors, canonical, regular, malformed, versioned, plain, insecure, hit, miss, stale, bypass, fallbacks, latencies] = row.slice(2).map(num) as number[] & { length: 15 };
    const cell = agg.modeCell(operation, mode);
    cell.requests = n!;
    if (operation === 'unrouted') continue;
    cell.errors = errors!;
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
    if (latencies! > EXACT_LIMIT) large.push({ operation, mode });
    else if (latencies! > 0) small.push({ operation, mode });
  }
  return { small, large };
}

async function fillLatencies(agg: Aggregator, target: ClickHouseTarget, table: string, small: readonly Cell[], large: readonly Cell[]): Promise<void> {
  const [exact, bucketed] = await Promise.all([
    small.length > 0 ? select(target, sql.exactLatencySql(table, small)) : [],
    large.length > 0 ? select(target, sql.bucketLatencySql(table, large)) : [],
  ]);
  for (const [operation, mode, ms, n] of exact as Row[]) agg.modeCell(String(operation), String(mode)).latency.addCount(Number(ms), num(n));
  for (const [operation, mode, bucket, n] of bucketed as Row[]) agg.modeCell(String(operation), String(mode)).latency.addToBucket(num(bucket), num(n));
}

function fillClients(agg: Aggregator, uses: readonly Row[], labels: readonly Row[]): void {
  for (const [id, operation, method, template, mode, form, versionPrefix, scheme, insecure, n, first, last] of uses as Row[]) {
    const client = agg.client(String(id), num(first), num(last));
    const requests = num(n);
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
  for (const [id, label] of labels as Row[]) {
    const client = agg.clients.get(String(id));
    if (client) client.label = opt(label);
  }
}

function fillShadows(agg: Aggregator, outcomes: readonly Row[], skipReasons: readonly Row[], diffs: readonly Row[], noise: readonly Row[]): void {
  for (const [operation, equal, differing, skipped] of outcomes as Row[]) {
    const shadow = agg.operation(String(operation)).shadow;
    shadow.equal = num(equal);
    shadow.differing = num(differing);
    shadow.skipped = num(skipped);
  }
  for (const [operation, reason, n] of skipReasons as Row[]) agg.operation(String(operation)).shadow.skipReasons.set(String(reason), num(n));
  for (const [operation, path, n] of diffs as Row[]) agg.operation(String(operation)).shadow.fields.set(String(path), num(n));
  for (const [operation, path, n] of noise as Row[]) agg.operation(String(operation)).shadow.noise.set(String(path), num(n));
}
