/**
 * The usage-log line, defined once: every field a request line (`"msg":"request"`) can carry, in
 * the order the writers put them, and the fields a shadow comparison line (`"msg":"shadow"`) adds.
 * Derived from it: the record's fields (log-fields.ts `toLogFields`, which the Node writer's
 * hand-built line is held to byte for byte and the edge logger writes), and the ClickHouse table
 * (src/report/sources/clickhouse-ddl.ts). A field added here without a value in log-fields.ts or a
 * column type is a type error.
 */

/**
 * - `string`: text; `true`: written only when true; `boolean`: always written;
 * - `status`, `count`: non-negative integers; `ms`: milliseconds, 0.01 ms resolution;
 * - `epoch-ms`, `level`: pino's `time` and `level`;
 * - `paths`: a list of field paths (shadow comparisons).
 */
export type LogFieldType = 'string' | 'true' | 'boolean' | 'status' | 'count' | 'ms' | 'epoch-ms' | 'level' | 'paths';

export interface LogFieldSpec {
  readonly name: string;
  readonly type: LogFieldType;
  /** Absent from some lines. */
  readonly optional: boolean;
  readonly description: string;
}

const field = <N extends string>(name: N, type: LogFieldType, optional: boolean, description: string) => ({ name, type, optional, description }) as const;

/** Written around the record's fields by pino (and by the edge logger alike). */
export const ENVELOPE_FIELDS = [
  field('level', 'level', false, "pino's numeric level: 30 info, 40 warn (answers 5xx)"),
  field('time', 'epoch-ms', false, 'epoch milliseconds when the line was written'),
] as const;

/** Who wrote the line: set on every request line. */
export const ORIGIN_FIELDS = [
  field('instance', 'string', false, 'stable id of the process or pod (observability.instance, else HOSTNAME / POD_NAME, else hostname:pid; on the edge one id per isolate)'),
  field('config', 'string', false, 'version (content hash) of the config in force'),
] as const;

/** A request record's fields, in the order they are written. */
export const RECORD_FIELDS = [
  field('requestId', 'string', false, 'X-Request-Id when acceptable, else a UUID'),
  field('traceId', 'string', true, "W3C trace id (32 hex digits) every upstream call carried in traceparent: the client's when valid, else new; absent when refused before the app"),
  field('method', 'string', false, 'HTTP method'),
  field('operation', 'string', false, 'operation id, `uncatalogued`, or `unrouted` (refused before routing)'),
  field('mode', 'string', false, 'side that answered: legacy, api2, or gateway (answered by the gateway itself)'),
  field('insecure', 'boolean', false, 'credentials sent over plain http'),
  field('status', 'status', false, 'HTTP status of the answer'),
  field('routeMode', 'string', true, "the configured mode of the operation's route, on every catalogued request: legacy, api2, canary, shadow"),
  field('fallback', 'true', true, 'api2 failed and legacy answered'),
  field('pathTemplate', 'string', true, 'path template of an uncatalogued call, such as /recipe/{n}'),
  field('form', 'string', true, 'path form: canonical, malformed, regular'),
  field('versionPrefix', 'string', true, 'version prefix of the path, such as v1'),
  field('absoluteForm', 'true', true, 'the request target was in absolute form'),
  field('scheme', 'string', true, 'http or https'),
  field('client', 'string', true, 'keyed hash of the api_key (16 hex digits)'),
  field('clientLabel', 'string', true, "the client hash's label from observability.clientLabels"),
  field('user', 'string', true, 'keyed hash of the HTTP Basic user name'),
  field('latencyMs', 'ms', true, 'arrival to answer ready, ms'),
  field('upstreamMs', 'ms', true, 'time spent waiting on upstreams, ms'),
  field('cache', 'string', true, 'cache outcome: HIT, MISS, STALE, BYPASS'),
  field('bytesIn', 'count', true, 'request body bytes'),
  field('bytesOut', 'count', true, 'response body bytes'),
  field('error', 'string', true, 'short reason code'),
] as const;

/** Closes every line: `request` or `shadow` (other values: operator notes, not records). */
export const MESSAGE_FIELD = field('msg', 'string', false, 'kind of line: request, shadow, or another note');

/** What a shadow comparison line adds (src/traffic/shadow.ts `ShadowRecord`; `requestId` and `operation` are shared). */
export const SHADOW_FIELDS = [
  field('outcome', 'string', true, 'shadow comparison: equal, differ, skipped'),
  field('reason', 'string', true, 'why the comparison was skipped'),
  field('diffs', 'paths', true, 'field paths blamed on the mapping'),
  field('noise', 'paths', true, 'field paths legacy itself varied on'),
] as const;

export type RecordFieldName = (typeof RECORD_FIELDS)[number]['name'];
export type OriginFieldName = (typeof ORIGIN_FIELDS)[number]['name'];

/** Every field of a request line, in order. */
export const REQUEST_LINE_FIELDS: readonly LogFieldSpec[] = [...ENVELOPE_FIELDS, ...ORIGIN_FIELDS, ...RECORD_FIELDS, MESSAGE_FIELD];

/** Every field stored for analytics: the request line's and the shadow line's. */
export const STORED_FIELDS: readonly LogFieldSpec[] = [...REQUEST_LINE_FIELDS, ...SHADOW_FIELDS];
