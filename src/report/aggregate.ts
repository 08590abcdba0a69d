/**
 * Counts the request records and shadow comparisons in one pass, in memory bounded by the number
 * of operations, modes, clients, path templates, minutes and shadow field paths seen (never by the
 * number of records; distinct shadow paths and skip reasons are capped per operation).
 *
 * Hot path (it runs once per record, hundreds of thousands of times a second): a record costs a
 * handful of map lookups. Per-operation totals, the per-mode totals and the timeline are summed
 * from the (operation, mode) cells at the end; clients get a number so that per-operation client
 * sets and per-client uses are keyed by numbers, not by long strings.
 */
import { countAnswers, countProgram, newClientFacts, sideOf } from './client-facts.js';
import type { ClientFacts } from './client-facts.js';
import { LatencySketch } from './latency-sketch.js';
import { parseLine } from './parse-record.js';
import { ScopedEvidence, stepKey } from './scoped-evidence.js';
import type { RolloutLine } from './rollout-lines.js';
import type { BrokenLine, ClientUse, LogRecord, PathExample, ShadowLine } from './types.js';

const KEEP_BROKEN = 100;
/** Distinct shadow field paths (or skip reasons) kept per operation; the rest are counted under OTHER_KEY. */
const MAX_DISTINCT = 1000;
export const OTHER_KEY = '(other)';

/** Shadow comparisons of one operation. */
export interface ShadowAgg {
  equal: number;
  differing: number;
  skipped: number;
  /** Comparisons a write of their scope overlapped (neither equal nor differing). */
  raced: number;
  /** Comparisons api2 answered 5xx, timed out or refused. */
  unavailable: number;
  /** Field path → comparisons that blamed it on the mapping. */
  readonly fields: Map<string, number>;
  /** Field path → comparisons where legacy itself varied on it. */
  readonly noise: Map<string, number>;
  /** Skip reason → comparisons skipped for it. */
  readonly skipReasons: Map<string, number>;
  /** The EXAMPLE_LINES latest comparisons that gave values (by time, then id, newest first). */
  readonly examples: ExampleLine[];
}

/** A comparison's values of its differing paths. */
export interface ExampleLine {
  readonly time: number;
  readonly id: string;
  readonly examples: readonly PathExample[];
}

/** Comparisons with values kept per operation for the report's example pairs (every source keeps the same ones). */
export const EXAMPLE_LINES = 10;

/** Keeps `line` among the EXAMPLE_LINES latest (time, then id, descending). */
export function keepExampleLine(kept: ExampleLine[], line: ExampleLine): void {
  const after = (a: ExampleLine, b: ExampleLine): boolean => a.time > b.time || (a.time === b.time && a.id > b.id);
  if (kept.length >= EXAMPLE_LINES && !after(line, kept[kept.length - 1]!)) return;
  let at = kept.findIndex((k) => after(line, k));
  if (at < 0) at = kept.length;
  kept.splice(at, 0, line);
  if (kept.length > EXAMPLE_LINES) kept.pop();
}

/** One (operation, mode) cell. */
export interface ModeAgg {
  readonly index: number;
  requests: number;
  /** 5xx answers. */
  errors: number;
  /** 4xx answers. */
  clientErrors: number;
  readonly latency: LatencySketch;
  /** Epoch minute → requests; the current minute is counted in `minute`/`minuteCount` first. */
  readonly minutes: Map<number, number>;
  minute: number;
  minuteCount: number;
}

export interface OperationAgg {
  readonly index: number;
  requests: number;
  clientErrors: number;
  readonly modes: Map<string, ModeAgg>;
  /** Client numbers. */
  readonly clients: Set<number>;
  canonical: number;
  regular: number;
  malformed: number;
  /** Other form names. */
  readonly otherForms: Map<string, number>;
  readonly malformedClients: Set<number>;
  versionPrefixed: number;
  plainHttp: number;
  insecure: number;
  readonly insecureClients: Set<number>;
  readonly cache: { hit: number; miss: number; stale: number; bypass: number };
  /** Requests per configured route mode (records that name it). */
  readonly routeModes: Map<string, number>;
  /** api2 failed, legacy answered. */
  fallbacks: number;
  readonly shadow: ShadowAgg;
}

/** A client's use as it is counted (the report shows it as a `ClientUse`). */
export type UseAgg = Omit<ClientUse, 'requests'> & { requests: number };

export interface ClientAgg {
  readonly index: number;
  label: string | undefined;
  /** The time of the record the label comes from. */
  labelTime: number;
  requests: number;
  legacy: number;
  /** GET, credentials over plain http, JSON by Content-Type alone: broken by `plainHttpCredentials: redirect`. */
  redirectBreaks: number;
  first: number;
  last: number;
  /** Keyed by `useKey`. */
  readonly uses: Map<number | string, UseAgg>;
  /** The deprecation signal: its first answer with it (Infinity: never told), the signals, how many answers. */
  readonly told: ToldAgg;
  /** Its answers per operation and side, and its programs (the client section: client-sections.ts). */
  readonly facts: ClientFacts;
}

export interface ToldAgg {
  since: number;
  readonly signals: Set<string>;
  requests: number;
}

/** A client told `count` times of `signal`, first at `since` (a source that counts elsewhere passes its sums). */
export function addTold(told: ToldAgg, signal: string, since: number, count = 1): void {
  if (since < told.since) told.since = since;
  told.signals.add(signal);
  told.requests += count;
}

const newTold = (): ToldAgg => ({ since: Infinity, signals: new Set(), requests: 0 });

/**
 * DECISION: a client's label is the one on its latest labelled record; among records of one
 * millisecond, the greatest label in code point order (ClickHouse's byte order of UTF-8), so the
 * file reader and ClickHouse pick the same label whatever order the lines come in.
 */
export function takeLabel(client: ClientAgg, label: string, time: number): void {
  if (time < client.labelTime || (time === client.labelTime && client.label !== undefined && !codePointsAfter(label, client.label))) return;
  client.label = label;
  client.labelTime = time;
}

/** `a` after `b` in code point order. */
function codePointsAfter(a: string, b: string): boolean {
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x > y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length > b.length;
}

export interface TemplateAgg {
  readonly method: string;
  readonly pathTemplate: string;
  requests: number;
  readonly clients: Set<number>;
}

/** Small numbers (from 1; 0 for undefined) for the strings of a use key. */
class Interner {
  private readonly ids = new Map<string, number>();
  id(text: string | undefined): number {
    if (text === undefined) return 0;
    let found = this.ids.get(text);
    if (found === undefined) this.ids.set(text, (found = this.ids.size + 1));
    return found;
  }
}

export class Aggregator {
  records = 0;
  brokenCount = 0;
  otherLines = 0;
  shadowLines = 0;
  readonly broken: BrokenLine[] = [];
  firstTime = Infinity;
  lastTime = -Infinity;
  anonymous = 0;
  /** api2 circuit breaker transitions to open (`"msg":"breaker"` lines); null when the source does not know. */
  breakerOpens: number | null = 0;
  /** Rollout decisions (`"msg":"rollout"` lines), as read; few (at most one per operation and evaluation). */
  readonly rollouts: RolloutLine[] = [];
  /** Refused before routing, by mode, and their minutes. */
  readonly unrouted = new Map<string, ModeAgg>();
  readonly operations = new Map<string, OperationAgg>();
  readonly clients = new Map<string, ClientAgg>();
  readonly uncatalogued = new Map<string, TemplateAgg>();
  /** The evidence per config version and mode in force, which the judgement reads (scoped-evidence.ts). */
  readonly scoped: ScopedEvidence;
  private readonly modeIds = new Interner();
  private readonly versionIds = new Interner();
  private readonly methodIds = new Interner();
  private readonly templateIds = new Interner();

  /** `--since`: lines written before this epoch ms are left out, but rollout decisions (a route's state needs its whole history). */
  /** `stepBucketMs`: the config's live counter bucket (`--config`): a step is judged on whole buckets, as the runner does. */
  constructor(
    private readonly since = -Infinity,
    stepBucketMs?: number,
  ) {
    this.scoped = new ScopedEvidence(stepBucketMs);
  }

  addLine(input: string, line: string, lineNumber: number): void {
    const parsed = parseLine(line);
    if ((parsed.kind === 'record' || parsed.kind === 'shadow' || parsed.kind === 'breaker') && (parsed.fields['time'] as number) < this.since) return;
    if (parsed.kind === 'record') this.add(parsed.record);
    else if (parsed.kind === 'shadow') this.addShadow(parsed.shadow);
    else if (parsed.kind === 'breaker') this.addBreaker(parsed.upstream, parsed.to);
    else if (parsed.kind === 'rollout') {
      this.otherLines++; // not a request: counted apart, as before
      this.rollouts.push(parsed.rollout);
    }
    else if (parsed.kind === 'broken') this.addBroken(input, lineNumber, parsed.reason);
    else this.otherLines++;
  }

  addBroken(input: string, line: number, reason: string): void {
    this.brokenCount++;
    if (this.broken.length < KEEP_BROKEN) this.broken.push({ input, line, reason });
  }

  add(record: LogRecord): void {
    this.records++;
    const time = record.time;
    if (time < this.firstTime) this.firstTime = time;
    if (time > this.lastTime) this.lastTime = time;
    const minute = Math.floor(time / 60_000);

    if (record.operation === 'unrouted') {
      countMinute(this.cell(this.unrouted, record.mode), minute);
      return;
    }
    let op = this.operations.get(record.operation);
    if (!op) this.operations.set(record.operation, (op = newOperation(this.operations.size)));
    const mode = this.cell(op.modes, record.mode);
    countMinute(mode, minute);
    const status = record.status;
    this.scoped.addRecord(record.config ?? '', record.operation, stepKey(record.routeMode, record.stepSince), record.mode, time, status, record.latencyMs, record.fallback);
    if (status >= 500) mode.errors++;
    else if (status >= 400) {
      op.clientErrors++;
      mode.clientErrors++;
    }
    if (record.latencyMs !== undefined) mode.latency.add(record.latencyMs);

    let client: ClientAgg | undefined;
    if (record.client !== undefined) {
      client = this.clients.get(record.client);
      if (!client) this.clients.set(record.client, (client = { index: this.clients.size, label: undefined, labelTime: -Infinity, requests: 0, legacy: 0, redirectBreaks: 0, first: time, last: time, uses: new Map(), told: newTold(), facts: newClientFacts() }));
      op.clients.add(client.index);
    } else {
      this.anonymous++;
    }

    op.requests++;
    switch (record.form) {
      case undefined: break;
      case 'canonical': op.canonical++; break;
      case 'regular': op.regular++; break;
      case 'malformed':
        op.malformed++;
        if (client) op.malformedClients.add(client.index);
        break;
      default: op.otherForms.set(record.form, (op.otherForms.get(record.form) ?? 0) + 1);
    }
    if (record.versionPrefix !== undefined) op.versionPrefixed++;
    if (record.scheme === 'http') op.plainHttp++;
    if (record.insecure) {
      op.insecure++;
      if (client) op.insecureClients.add(client.index);
    }
    switch (record.cache) {
      case 'HIT': op.cache.hit++; break;
      case 'MISS': op.cache.miss++; break;
      case 'STALE': op.cache.stale++; break;
      case 'BYPASS': op.cache.bypass++; break;
    }
    if (record.routeMode !== undefined) op.routeModes.set(record.routeMode, (op.routeModes.get(record.routeMode) ?? 0) + 1);
    if (record.fallback) op.fallbacks++;
    if (record.operation === 'uncatalogued') this.addToTemplate(record, client);
    if (client) this.addToClient(record, client, op, mode);
  }

  /** A shadow comparison; it is not a request (the request has its own record) and does not move the time span. */
  addShadow(line: ShadowLine): void {
    this.shadowLines++;
    let op = this.operations.get(line.operation);
    if (!op) this.operations.set(line.operation, (op = newOperation(this.operations.size)));
    const shadow = op.shadow;
    switch (line.outcome) {
      case 'equal': shadow.equal++; break;
      case 'differ': shadow.differing++; break;
      case 'race': shadow.raced++; break;
      case 'unavailable': shadow.unavailable++; break;
      case 'skipped': bump(shadow.skipReasons, line.reason ?? '(no reason given)'); shadow.skipped++; break;
    }
    this.scoped.addShadow(line.config ?? '', line.operation, stepKey(line.routeMode, line.stepSince), line.outcome, line.time);
    if (line.examples && line.examples.length > 0) keepExampleLine(shadow.examples, { time: line.time, id: line.id ?? '', examples: line.examples });
    countPaths(shadow.fields, line.diffs);
    countPaths(shadow.noise, line.noise);
  }

  /** A breaker transition: not a request, counted apart (`otherLines` as before). */
  addBreaker(upstream: string, to: string): void {
    this.otherLines++;
    if (upstream === 'api2' && to === 'open' && this.breakerOpens !== null) this.breakerOpens++;
  }

  private cell(modes: Map<string, ModeAgg>, name: string): ModeAgg {
    const mode = this.emptyCell(modes, name);
    mode.requests++;
    return mode;
  }

  private emptyCell(modes: Map<string, ModeAgg>, name: string): ModeAgg {
    let mode = modes.get(name);
    if (!mode) {
      modes.set(name, (mode = { index: this.modeIds.id(name), requests: 0, errors: 0, clientErrors: 0, latency: new LatencySketch(), minutes: new Map(), minute: -1, minuteCount: 0 }));
    }
    return mode;
  }

  /** An operation's counts, created empty when new: for a source that counts elsewhere (ClickHouse). */
  operation(name: string): OperationAgg {
    let op = this.operations.get(name);
    if (!op) this.operations.set(name, (op = newOperation(this.operations.size)));
    return op;
  }

  /** An (operation, mode) cell, or an unrouted mode's, created empty when new. */
  modeCell(operation: string, mode: string): ModeAgg {
    return this.emptyCell(operation === 'unrouted' ? this.unrouted : this.operation(operation).modes, mode);
  }

  /** A client's counts, created empty when new. */
  client(id: string, first: number, last: number): ClientAgg {
    let client = this.clients.get(id);
    if (!client) this.clients.set(id, (client = { index: this.clients.size, label: undefined, labelTime: -Infinity, requests: 0, legacy: 0, redirectBreaks: 0, first, last, uses: new Map(), told: newTold(), facts: newClientFacts() }));
    return client;
  }

  private addToTemplate(record: LogRecord, client: ClientAgg | undefined): void {
    const template = record.pathTemplate ?? '(unknown)';
    const key = `${record.method} ${template}`;
    let found = this.uncatalogued.get(key);
    if (!found) this.uncatalogued.set(key, (found = { method: record.method, pathTemplate: template, requests: 0, clients: new Set() }));
    found.requests++;
    if (client) found.clients.add(client.index);
  }

  private addToClient(record: LogRecord, client: ClientAgg, op: OperationAgg, mode: ModeAgg): void {
    client.requests++;
    if (record.clientLabel !== undefined) takeLabel(client, record.clientLabel, record.time);
    if (record.mode === 'legacy') client.legacy++;
    if (record.deprecation !== undefined) addTold(client.told, record.deprecation, record.time);
    countAnswers(client.facts, record.operation, sideOf(record.mode, record.fallback), 1, record.status >= 400 && record.status < 500 ? 1 : 0, record.status >= 500 ? 1 : 0);
    if (record.clientProgram !== undefined) countProgram(client.facts, record.clientProgram, 1);
    if (record.insecure && record.method === 'GET' && record.jsonBy === 'content-type') client.redirectBreaks++;
    if (record.time < client.first) client.first = record.time;
    if (record.time > client.last) client.last = record.time;
    const template = record.operation === 'uncatalogued' ? record.pathTemplate : undefined;
    const key = this.useKey(record, op, mode, template);
    let use = client.uses.get(key);
    if (!use) {
      use = {
        operation: record.operation,
        method: record.method,
        pathTemplate: template,
        mode: record.mode,
        form: record.form,
        versionPrefix: record.versionPrefix,
        scheme: record.scheme,
        insecure: record.insecure,
        requests: 0,
      };
      client.uses.set(key, use);
    }
    use.requests++;
  }

  /** One safe integer per (operation, mode, form, prefix, scheme, insecure, method, template); a string past the limits. */
  private useKey(record: LogRecord, op: OperationAgg, mode: ModeAgg, template: string | undefined): number | string {
    const form = record.form === undefined ? 0 : record.form === 'canonical' ? 1 : record.form === 'malformed' ? 2 : record.form === 'regular' ? 3 : 4;
    const version = this.versionIds.id(record.versionPrefix);
    const scheme = record.scheme === 'https' ? 1 : record.scheme === 'http' ? 2 : 0;
    const method = this.methodIds.id(record.method);
    const path = template === undefined ? 0 : this.templateIds.id(template);
    if (op.index >= 4096 || mode.index >= 64 || version >= 64 || method >= 32 || path >= 65_536 || form === 4) {
      return `${record.operation}|${record.mode}|${record.form}|${record.versionPrefix}|${record.scheme}|${record.insecure}|${record.method}|${template}`;
    }
    // 12 + 6 + 3 + 6 + 2 + 1 + 5 + 16 = 51 bits.
    return ((((((op.index * 64 + mode.index) * 8 + form) * 64 + version) * 4 + scheme) * 2 + (record.insecure ? 1 : 0)) * 32 + method) * 65_536 + path;
  }
}

function newOperation(index: number): OperationAgg {
  return {
    index,
    requests: 0,
    clientErrors: 0,
    modes: new Map(),
    clients: new Set(),
    canonical: 0,
    regular: 0,
    malformed: 0,
    otherForms: new Map(),
    malformedClients: new Set(),
    versionPrefixed: 0,
    plainHttp: 0,
    insecure: 0,
    insecureClients: new Set(),
    cache: { hit: 0, miss: 0, stale: 0, bypass: 0 },
    routeModes: new Map(),
    fallbacks: 0,
    shadow: { equal: 0, differing: 0, skipped: 0, raced: 0, unavailable: 0, fields: new Map(), noise: new Map(), skipReasons: new Map(), examples: [] },
  };
}

/** Counts each path once per comparison. */
function countPaths(counts: Map<string, number>, paths: readonly string[]): void {
  if (paths.length === 1) bump(counts, paths[0]!);
  else if (paths.length > 1) for (const path of new Set(paths)) bump(counts, path);
}

function bump(counts: Map<string, number>, key: string): void {
  const found = counts.get(key);
  if (found !== undefined) counts.set(key, found + 1);
  else if (counts.size < MAX_DISTINCT) counts.set(key, 1);
  else counts.set(OTHER_KEY, (counts.get(OTHER_KEY) ?? 0) + 1);
}

/** Records of one cell arrive in time order mostly: count the current minute, store on change. */
function countMinute(mode: ModeAgg, minute: number): void {
  if (minute === mode.minute) {
    mode.minuteCount++;
    return;
  }
  flushMinute(mode);
  mode.minute = minute;
  mode.minuteCount = 1;
}

export function flushMinute(mode: ModeAgg): void {
  if (mode.minuteCount > 0) mode.minutes.set(mode.minute, (mode.minutes.get(mode.minute) ?? 0) + mode.minuteCount);
  mode.minuteCount = 0;
  mode.minute = -1;
}
