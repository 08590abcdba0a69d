/**
 * The live counters' one flat encoding: what a request record, a shadow comparison or a breaker
 * transition adds (field → increment), and how summed fields read back as per-operation counts.
 * Flat so that Redis can add them with HINCRBY and any number of replicas' buckets sum by field.
 *
 * Fields: `<operation>:<side>:n` (answers by that side), `:4xx`, `:5xx`, `:lat:<i>` (latency in the
 * i-th fixed bucket), `<operation>:fallback`, `<operation>:shadow:<agreed|differed|raced|unavailable|skipped>`,
 * `breaker:<upstream>:open`, `client:<hash>:<blocker kind>` (requests of a client held back by it;
 * at most MAX_CLIENT_FIELDS_PER_BUCKET per bucket, the clients past them summed as OTHER_CLIENTS).
 */
import { OPERATION_IDS } from '../catalogue/operations.js';
import type { OperationId } from '../catalogue/operations.js';
import type { RequestRecord } from '../gateway/request-record.js';
import type { ShadowRecord } from '../traffic/shadow.js';
import { kindsOf } from './blockers.js';
import { remembered } from '../hot-path.js';
import type { BlockerKind } from './blockers.js';
import { LATENCY_BUCKETS, bucketQuantile, latencyIndex } from './latency-buckets.js';

export type Side = 'legacy' | 'api2';

export interface SideCounts {
  /** Answers given by this side (the record's `mode`). */
  readonly requests: number;
  readonly status4xx: number;
  readonly status5xx: number;
  /** The upper bound of the latency bucket holding the median (src/migration/latency-buckets.ts); null without requests. */
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
}

export interface ShadowCounts {
  /** agreed + differed: both answers were read and compared. */
  readonly compared: number;
  readonly agreed: number;
  readonly differed: number;
  /** Races: a write of the comparison's scope overlapped it (docs/rollout.md "Races"); neither agreed nor differed. */
  readonly raced: number;
  /** api2 answered 5xx, timed out or refused (legacy answered): against api2's availability, neither agreed nor differed. */
  readonly unavailable: number;
  /** Sampled but not compared (over the concurrency cap, not JSON, api2 failed, ...). */
  readonly skipped: number;
}

export interface OperationCounts {
  readonly operation: OperationId;
  readonly legacy: SideCounts;
  readonly api2: SideCounts;
  /** api2 failed, legacy answered. */
  readonly fallbacks: number;
  readonly shadow: ShadowCounts;
}

export type Tally = Map<string, number>;

export function add(tally: Tally, field: string, by = 1): void {
  tally.set(field, (tally.get(field) ?? 0) + by);
}

/** Adds every field of `from` into `into`. */
export function merge(into: Tally, from: ReadonlyMap<string, number> | Readonly<Record<string, string | number>>): void {
  const entries = from instanceof Map ? from.entries() : Object.entries(from);
  for (const [field, value] of entries) {
    const n = Number(value);
    if (Number.isFinite(n) && n !== 0) add(into, field, n);
  }
}

const KNOWN = new Set<string>(OPERATION_IDS);
const isOperation = (value: unknown): value is OperationId => typeof value === 'string' && KNOWN.has(value);

/** The fields an answer of one operation by one side adds to, named once (a request adds to them on every answer). */
interface AnswerFields {
  readonly n: string;
  readonly status4xx: string;
  readonly status5xx: string;
  readonly latency: readonly string[];
  readonly fallback: string;
}

const SIDES: readonly Side[] = ['legacy', 'api2'];
const ANSWER_FIELDS = new Map<string, ReadonlyMap<string, AnswerFields>>(
  OPERATION_IDS.map((operation) => [
    operation,
    new Map(
      SIDES.map((side) => {
        const prefix = `${operation}:${side}`;
        const latency = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `${prefix}:lat:${i}`);
        return [side, { n: `${prefix}:n`, status4xx: `${prefix}:4xx`, status5xx: `${prefix}:5xx`, latency, fallback: `${operation}:fallback` }];
      }),
    ),
  ]),
);

/**
 * DECISION: a bucket keeps at most 200 client blocker fields (the first clients seen in it); the
 * requests of the clients past them are counted under OTHER_CLIENTS. The console shows the top 25
 * clients; a hundred thousand distinct clients then cost a bucket no more than a few hundred.
 */
export const MAX_CLIENT_FIELDS_PER_BUCKET = 200;
export const OTHER_CLIENTS = '(other clients)';
/** How many client fields each bucket's tally holds. */
const clientFields = new WeakMap<Tally, number>();

/** A client's field of each kind, made once per client (the same strings every request: no text built per count). */
const clientFieldsOf = remembered(1024, (client: string): Readonly<Record<BlockerKind, string>> => ({
  'legacy-mode': `client:${client}:legacy-mode`,
  'malformed-form': `client:${client}:malformed-form`,
  'version-prefix': `client:${client}:version-prefix`,
  'plain-http': `client:${client}:plain-http`,
  uncatalogued: `client:${client}:uncatalogued`,
}));

function addClientBlocker(tally: Tally, client: string, kind: BlockerKind): void {
  const field = clientFieldsOf(client)[kind];
  const found = tally.get(field);
  if (found !== undefined) {
    tally.set(field, found + 1);
    return;
  }
  const fields = clientFields.get(tally) ?? 0;
  if (fields >= MAX_CLIENT_FIELDS_PER_BUCKET) {
    add(tally, `client:${OTHER_CLIENTS}:${kind}`);
    return;
  }
  clientFields.set(tally, fields + 1);
  tally.set(field, 1);
}

/** What a request record adds: only catalogued requests answered by a side (not the gateway's own refusals). */
export function tallyRequest(tally: Tally, record: RequestRecord): void {
  const { operation, mode, status } = record;
  if (record.client !== undefined && operation !== null && mode !== undefined) {
    for (const kind of kindsOf(operation, mode, record.form, record.versionPrefix, record.insecure)) addClientBlocker(tally, record.client, kind);
  }
  const fields = operation === null || mode === undefined ? undefined : ANSWER_FIELDS.get(operation)?.get(mode);
  if (fields === undefined) return;
  add(tally, fields.n);
  if (status !== undefined && status >= 400 && status < 500) add(tally, fields.status4xx);
  if (status !== undefined && status >= 500) add(tally, fields.status5xx);
  if (record.latencyMs !== undefined) add(tally, fields.latency[latencyIndex(record.latencyMs)]!);
  if (record.fallback) add(tally, fields.fallback);
}

export function tallyShadow(tally: Tally, record: ShadowRecord): void {
  if (!isOperation(record.operation)) return;
  tallyShadowOutcome(tally, record.operation, record.outcome);
}

const SHADOW_FIELD: Readonly<Record<string, string>> = { equal: 'agreed', differ: 'differed', race: 'raced', unavailable: 'unavailable' };

/** `count` comparisons of one outcome (equal, differ, race, unavailable, skipped). */
export function tallyShadowOutcome(tally: Tally, operation: OperationId, outcome: string, count = 1): void {
  add(tally, `${operation}:shadow:${SHADOW_FIELD[outcome] ?? 'skipped'}`, count);
}

/** One answer of one side, as a usage-log line gives it (the report's lines). */
export function tallyOneAnswer(tally: Tally, operation: OperationId, side: string, status: number, latencyMs: number | undefined, fallback: boolean): void {
  const fields = ANSWER_FIELDS.get(operation)?.get(side);
  if (fields === undefined) return;
  add(tally, fields.n);
  if (status >= 400 && status < 500) add(tally, fields.status4xx);
  if (status >= 500) add(tally, fields.status5xx);
  if (latencyMs !== undefined) add(tally, fields.latency[latencyIndex(latencyMs)]!);
  if (fallback) add(tally, fields.fallback);
}

/** Answers of one side already counted elsewhere (the report's lines or ClickHouse rows): `latency` maps a fixed bucket to its answers. */
export function tallyAnswer(tally: Tally, operation: OperationId, side: string, counts: { readonly n: number; readonly status4xx: number; readonly status5xx: number; readonly fallbacks: number; readonly latency: ReadonlyMap<number, number> }): void {
  const fields = ANSWER_FIELDS.get(operation)?.get(side);
  if (fields === undefined) return;
  add(tally, fields.n, counts.n);
  if (counts.status4xx) add(tally, fields.status4xx, counts.status4xx);
  if (counts.status5xx) add(tally, fields.status5xx, counts.status5xx);
  if (counts.fallbacks) add(tally, fields.fallback, counts.fallbacks);
  for (const [index, n] of counts.latency) add(tally, fields.latency[index]!, n);
}

export function tallyBreakerOpen(tally: Tally, upstream: string): void {
  add(tally, `breaker:${upstream}:open`);
}

function sideOf(tally: ReadonlyMap<string, number>, operation: OperationId, side: Side): SideCounts {
  const fields = ANSWER_FIELDS.get(operation)!.get(side)!;
  const get = (field: string) => tally.get(field) ?? 0;
  const latency = fields.latency.map(get);
  return { requests: get(fields.n), status4xx: get(fields.status4xx), status5xx: get(fields.status5xx), p50Ms: bucketQuantile(latency, 0.5), p95Ms: bucketQuantile(latency, 0.95) };
}

export function countsOf(tally: ReadonlyMap<string, number>, operation: OperationId): OperationCounts {
  const shadow = (outcome: string) => tally.get(`${operation}:shadow:${outcome}`) ?? 0;
  const agreed = shadow('agreed');
  const differed = shadow('differed');
  return {
    operation,
    legacy: sideOf(tally, operation, 'legacy'),
    api2: sideOf(tally, operation, 'api2'),
    fallbacks: tally.get(`${operation}:fallback`) ?? 0,
    shadow: { compared: agreed + differed, agreed, differed, raced: shadow('raced'), unavailable: shadow('unavailable'), skipped: shadow('skipped') },
  };
}

/** Every catalogued operation, with zeros where nothing was counted (a console lists them all). */
export function operationsOf(tally: ReadonlyMap<string, number>): ReadonlyMap<OperationId, OperationCounts> {
  return new Map(OPERATION_IDS.map((operation) => [operation, countsOf(tally, operation)]));
}

export function breakerOpensOf(tally: ReadonlyMap<string, number>, upstream: string): number {
  return tally.get(`breaker:${upstream}:open`) ?? 0;
}

export interface ClientBlockers {
  /** The client's keyed hash (present only with the usage log on). */
  readonly client: string;
  /** Requests held back per blocker kind, most first. */
  readonly blockers: ReadonlyArray<{ readonly kind: BlockerKind; readonly requests: number }>;
}

/** Clients with their blockers, the most held back first. */
export function clientsOf(tally: ReadonlyMap<string, number>): ClientBlockers[] {
  const clients = new Map<string, Array<{ kind: BlockerKind; requests: number }>>();
  for (const [field, requests] of tally) {
    if (!field.startsWith('client:')) continue;
    const [, client, kind] = field.split(':');
    if (client === undefined || kind === undefined) continue;
    let list = clients.get(client);
    if (!list) clients.set(client, (list = []));
    list.push({ kind: kind as BlockerKind, requests });
  }
  const total = (list: ReadonlyArray<{ requests: number }>) => list.reduce((sum, b) => sum + b.requests, 0);
  return [...clients]
    .map(([client, blockers]) => ({ client, blockers: blockers.sort((a, b) => b.requests - a.requests || a.kind.localeCompare(b.kind)) }))
    .sort((a, b) => total(b.blockers) - total(a.blockers) || a.client.localeCompare(b.client));
}
