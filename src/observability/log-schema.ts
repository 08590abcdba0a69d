/**
 * The usage-log line, declared once: every field a request line (`"msg":"request"`) can carry, in
 * the order the writers put them, with its type, its meaning and, for a record's field, where its
 * value comes from; and the fields a shadow comparison line (`"msg":"shadow"`) adds.
 *
 * Derived from it, and from nothing else: the line writer of Node and of the edge (log-fields.ts
 * `logLine`), the type of a line's fields (`LogFields`), the report's reading and checking of a
 * line (src/report/parse-record.ts, through `readField` below), the row ingested into ClickHouse
 * (src/report/sources/clickhouse-rows.ts), the ClickHouse table (clickhouse-ddl.ts) and the field
 * tables of the docs (scripts/docs/log-fields.ts). Adding a field: one entry in RECORD_FIELDS and
 * the value in the record (src/gateway/request-record.ts), docs/usage-log-and-report.md shows how.
 */
import type { RequestRecord } from '../gateway/request-record.js';

/**
 * - `string`: text; `true`: written only when true; `boolean`: always written;
 * - `status`: an integer 0 to 65535; `count`: a non-negative integer (at most 2^53 - 1);
 * - `ms`: milliseconds at 0.01 ms resolution, 0 to 9999999999.99;
 * - `epoch-ms`: epoch milliseconds (pino's `time`), up to 2106 (ClickHouse's DateTime);
 * - `level`: pino's numeric level, 0 to 255;
 * - `paths`: a list of field paths (shadow comparisons).
 */
export type LogFieldType = 'string' | 'true' | 'boolean' | 'status' | 'count' | 'ms' | 'epoch-ms' | 'level' | 'paths';

/** The value a field of a type holds on a line. */
export type ValueOf<T extends LogFieldType> = T extends 'string' ? string : T extends 'true' ? true : T extends 'boolean' ? boolean : T extends 'paths' ? readonly string[] : number;

/**
 * - `required`: always written; a line without it (or with an empty string) is not read;
 * - `always`: always written; a line of an older writer without it is still read;
 * - `optional`: written when known.
 */
export type Presence = 'required' | 'always' | 'optional';

export interface LogFieldSpec<N extends string = string, T extends LogFieldType = LogFieldType, P extends Presence = Presence> {
  readonly name: N;
  readonly type: T;
  readonly presence: P;
  /** Absent from some lines (`presence` is `optional`). */
  readonly optional: P extends 'optional' ? true : false;
  readonly description: string;
}

/** Who wrote a line: the process (or pod, or isolate) and the version of the config in force. */
export interface LogOrigin {
  readonly instance: string;
  readonly config: string;
}

/** A field whose value the origin of the line gives. */
export interface OriginFieldSpec<N extends string = string, T extends LogFieldType = LogFieldType, P extends Presence = Presence> extends LogFieldSpec<N, T, P> {
  readonly value: (origin: LogOrigin) => ValueOf<T>;
}

/** A field whose value the request record gives; undefined is not written. */
export interface RecordFieldSpec<N extends string = string, T extends LogFieldType = LogFieldType, P extends Presence = Presence> extends LogFieldSpec<N, T, P> {
  readonly value: (record: Readonly<RequestRecord>) => ValueOf<T> | undefined;
}

const field = <N extends string, T extends LogFieldType, P extends Presence>(name: N, type: T, presence: P, description: string): LogFieldSpec<N, T, P> =>
  ({ name, type, presence, optional: (presence === 'optional') as P extends 'optional' ? true : false, description });

const originField = <N extends string, T extends LogFieldType, P extends Presence>(name: N, type: T, presence: P, description: string, value: (origin: LogOrigin) => ValueOf<T>): OriginFieldSpec<N, T, P> =>
  ({ ...field(name, type, presence, description), value });

const recordField = <N extends string, T extends LogFieldType, P extends Presence>(
  name: N,
  type: T,
  presence: P,
  description: string,
  value: (record: Readonly<RequestRecord>) => ValueOf<T> | undefined,
): RecordFieldSpec<N, T, P> => ({ ...field(name, type, presence, description), value });

/** Operation value when the target was refused before routing (bad target, foreign host). */
export const UNROUTED = 'unrouted';

/** The mode a record is counted under: the upstream that answered, else `gateway` (answered by the gateway itself). */
export function modeOf(record: Readonly<RequestRecord>): string {
  return record.mode ?? 'gateway';
}

/** Written around the other fields by the writer (pino's, and the edge logger alike). */
export const ENVELOPE_FIELDS = [
  field('level', 'level', 'always', "pino's numeric level: 30 info, 40 warn (answers 5xx)"),
  field('time', 'epoch-ms', 'required', 'epoch milliseconds when the answer was made (a shadow line: when the comparison ended; the live counters count both at that instant), else when the line was written'),
] as const;

/** Who wrote the line: set on every request line. */
export const ORIGIN_FIELDS = [
  originField('instance', 'string', 'always', 'stable id of the process or pod (observability.instance, else HOSTNAME / POD_NAME, else hostname:pid; on the edge one id per isolate)', (o) => o.instance),
  originField('config', 'string', 'always', 'content hash of the config in force (not a version number: the same file and environment give the same hash on every replica)', (o) => o.config),
] as const;

/** A request record's fields, in the order they are written. */
export const RECORD_FIELDS = [
  recordField('id', 'string', 'always', "the line's own identity, a UUID the gateway makes for each record (a shadow line has its own): the row key in ClickHouse", (r) => r.id),
  recordField('requestId', 'string', 'always', 'X-Request-Id when acceptable, else a UUID (for correlation: clients may reuse one)', (r) => r.requestId),
  recordField('traceId', 'string', 'optional', "W3C trace id (32 hex digits) every upstream call carried in traceparent: the client's when valid, else new; absent when refused before the app", (r) => r.traceId),
  recordField('method', 'string', 'always', 'HTTP method', (r) => r.method),
  recordField('operation', 'string', 'required', 'operation id, `uncatalogued`, or `unrouted` (refused before routing)', (r) => r.operation ?? UNROUTED),
  recordField('mode', 'string', 'required', 'side that answered: legacy, api2, or gateway (answered by the gateway itself)', modeOf),
  recordField('insecure', 'boolean', 'always', 'credentials sent over plain http', (r) => r.insecure),
  recordField('jsonBy', 'string', 'optional', 'what made the answer JSON: accept, or content-type alone (a header HTTP libraries drop following a redirect); absent: XML', (r) => r.jsonBy),
  recordField('status', 'status', 'required', 'HTTP status of the answer', (r) => r.status ?? 0),
  recordField('routeMode', 'string', 'optional', "the mode in force of the operation's route (a rollout's step, else the configured mode), on every catalogued request and shadow comparison: legacy, api2, canary, shadow", (r) => r.routeMode),
  recordField('stepSince', 'count', 'optional', "on a rolled-out route, the epoch ms its step in force began (the rollout state's `since`): with `config` it names the step whose evidence the line is, as the rollout runner judges it", (r) => r.stepSince),
  recordField('fallback', 'true', 'optional', 'api2 failed and legacy answered', (r) => (r.fallback ? true : undefined)),
  recordField('pathTemplate', 'string', 'optional', 'path template of an uncatalogued call, such as /recipe/{n}', (r) => r.pathTemplate),
  recordField('form', 'string', 'optional', 'path form: canonical, malformed, regular', (r) => r.form),
  recordField('versionPrefix', 'string', 'optional', 'version prefix of the path, such as v1', (r) => r.versionPrefix || undefined),
  recordField('absoluteForm', 'true', 'optional', 'the request target was in absolute form', (r) => (r.absoluteForm ? true : undefined)),
  recordField('scheme', 'string', 'optional', 'http or https', (r) => r.scheme),
  recordField('client', 'string', 'optional', 'keyed hash of the api_key (16 hex digits)', (r) => r.client),
  recordField('clientLabel', 'string', 'optional', "the client hash's label from observability.clientLabels", (r) => r.clientLabel),
  recordField('clientProgram', 'string', 'optional', "the client program's family: its User-Agent's product name (src/http/client-program.ts; at most 32 token characters, never the whole header)", (r) => r.clientProgram),
  recordField('user', 'string', 'optional', 'keyed hash of the HTTP Basic user name', (r) => r.user),
  recordField('params', 'string', 'optional', "a catalogued request's parameters the operation declares, as its URL gave them (path and query string, never the body), in catalogue order, form-encoded: `title_kw=chicken&pg=2`; never api_key, nor a value holding a secret of the request (api key, Basic user name or password); at most 256 characters, cut at a pair; empty when none (src/request/logged-params.ts)", (r) => r.params),
  recordField('latencyMs', 'ms', 'optional', 'arrival to answer ready, ms', (r) => r.latencyMs),
  recordField('upstreamMs', 'ms', 'optional', 'time spent waiting on upstreams, ms', (r) => r.upstreamMs),
  recordField('cache', 'string', 'optional', 'cache outcome: HIT, MISS, STALE, BYPASS', (r) => r.cache),
  recordField('bytesIn', 'count', 'optional', 'request body bytes', (r) => r.bytesIn),
  recordField('bytesOut', 'count', 'optional', 'response body bytes', (r) => r.bytesOut),
  recordField('deprecation', 'string', 'optional', 'deprecation signal the answer carried (docs/deprecation.md): deprecation, sunset, or deprecation+sunset', (r) => r.deprecation),
  recordField('error', 'string', 'optional', 'short reason code', (r) => r.error),
  recordField('traced', 'string', 'optional', "with traces exported (docs/tracing.md), why this request's trace went to the OTLP receiver: sampled (head ratio), failed, fallback, refused, moving, if-shadow-differs (exported exactly when its shadow line says differ), or dropped (kept, but the export queue was full); absent: not exported", (r) => r.traced),
] as const;

/** Closes every line: `request` or `shadow` (other values: operator notes, not records). */
export const MESSAGE_FIELD = field('msg', 'string', 'required', 'kind of line: request, shadow, or another note');

export const REQUEST_MESSAGE = 'request';

/** What a shadow comparison line adds (src/traffic/shadow.ts `ShadowRecord`; `id`, `requestId` and `operation` are shared). */
export const SHADOW_FIELDS = [
  field('outcome', 'string', 'optional', 'shadow comparison: equal, differ, race (a write of its scope overlapped it: left out of agreement), unavailable (api2 answered 5xx, timed out or refused: against its availability), skipped'),
  field('reason', 'string', 'optional', 'why the comparison was skipped, raced, or api2 unavailable'),
  field('diffs', 'paths', 'optional', 'field paths blamed on the mapping'),
  field('noise', 'paths', 'optional', 'field paths legacy itself varied on'),
  field('examples', 'string', 'optional', 'the values of each differing path (the line has them in `diffs[].legacy` / `diffs[].api2`: cut to 80 characters, user names and secrets `[redacted]`), stored as JSON text `[{"path","legacy","api2"}]`'),
] as const;

/** What a circuit breaker's transition line (`"msg":"breaker"`, src/node/server.ts onBreaker) adds. */
export const BREAKER_FIELDS = [
  field('upstream', 'string', 'optional', 'breaker transition: the upstream whose breaker moved (legacy, api2)'),
  field('from', 'string', 'optional', 'breaker transition: the state it left (closed, open, half-open)'),
  field('to', 'string', 'optional', 'breaker transition: the state it entered (closed, open, half-open)'),
] as const;

/** What a rollout decision line (`"msg":"rollout"`, docs/rollout.md) is stored as: the decision whole (src/report/rollout-lines.ts). */
export const ROLLOUT_FIELDS = [
  field('rollout', 'string', 'optional', 'rollout decision (stored from a `msg: "rollout"` line): time, operation, kind, from, to, status, by, reason, gates and evidence, as JSON text'),
] as const;

export type RecordFieldName = (typeof RECORD_FIELDS)[number]['name'];

type Declared = { readonly name: string; readonly type: LogFieldType; readonly optional: boolean };

/** The fields of a line as their declarations type them; optional ones may be absent. */
export type FieldsOf<S extends Declared> = { -readonly [F in S as F['optional'] extends true ? never : F['name']]: ValueOf<F['type']> } & {
  -readonly [F in S as F['optional'] extends true ? F['name'] : never]?: ValueOf<F['type']>;
};

/** A request line's fields between `time` and `msg`: the origin's, then the record's. */
export type LogFields = FieldsOf<(typeof ORIGIN_FIELDS)[number] | (typeof RECORD_FIELDS)[number]>;

/** Every field of a request line, in order. */
export const REQUEST_LINE_FIELDS: readonly LogFieldSpec[] = [...ENVELOPE_FIELDS, ...ORIGIN_FIELDS, ...RECORD_FIELDS, MESSAGE_FIELD];

/** Every field stored for analytics: the request line's, the shadow line's, the breaker line's and the rollout line's. */
export const STORED_FIELDS: readonly LogFieldSpec[] = [...REQUEST_LINE_FIELDS, ...SHADOW_FIELDS, ...BREAKER_FIELDS, ...ROLLOUT_FIELDS];

/** Largest epoch ms whose second fits ClickHouse's DateTime (UInt32 seconds: 2106-02-07). */
export const MAX_EPOCH_MS = 2 ** 32 * 1000 - 1;
/** Largest millisecond value of Decimal(12, 2). */
export const MAX_MS = 9_999_999_999.99;

/** Returned by `readField` for a value that is not of its field's type. */
export const INVALID: unique symbol = Symbol('invalid');

/**
 * The one check of a field's value on a line, for every reader (the file report and the
 * ClickHouse ingest): the value as it is stored and counted, undefined when it is absent, or
 * INVALID when it is not of the type or outside its column's range.
 *
 * DECISION: values are made exact for their columns when read: milliseconds rounded to 0.01 ms
 * (the gateway writes that resolution; a finer value from another writer is rounded), epoch ms
 * floored (an ISO string is read as a date), text made well-formed Unicode (a lone surrogate
 * becomes U+FFFD, as ClickHouse would store it).
 */
export function readField(type: LogFieldType, value: unknown): unknown {
  if (value === undefined) return undefined;
  switch (type) {
    case 'string':
      return typeof value !== 'string' ? INVALID : wellFormed(value);
    case 'true':
    case 'boolean':
      return typeof value === 'boolean' ? value : INVALID;
    case 'status':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535 ? value : INVALID;
    case 'level':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255 ? value : INVALID;
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 0 ? value : INVALID;
    case 'ms':
      return typeof value === 'number' && value >= 0 && value <= MAX_MS ? Math.round(value * 100) / 100 : INVALID;
    case 'epoch-ms': {
      const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
      return ms >= 0 && ms <= MAX_EPOCH_MS ? Math.floor(ms) : INVALID;
    }
    case 'paths':
      return Array.isArray(value) && value.every((path) => typeof path === 'string' && path !== '') ? value.map(wellFormed) : INVALID;
  }
}

function wellFormed(text: string): string {
  const checked = text as string & { isWellFormed(): boolean; toWellFormed(): string };
  return checked.isWellFormed() ? text : checked.toWellFormed();
}
