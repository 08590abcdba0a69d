/**
 * A request record as the fields of its usage-log line (one JSON object per request; the Node
 * logger adds `level`, `time` and `msg: "request"`). The fields, their order and their types are
 * defined once in log-schema.ts, the contract with the migration report (src/report/parse-record.ts)
 * and the ClickHouse table. Only fields that are known are written.
 */
import type { RequestRecord } from '../gateway/request-record.js';
import { RECORD_FIELDS } from './log-schema.js';
import type { RecordFieldName } from './log-schema.js';

export const REQUEST_MESSAGE = 'request';

/** Operation value when the target was refused before routing (bad target, foreign host). */
export const UNROUTED = 'unrouted';

export interface LogFields {
  instance: string;
  config: string;
  requestId: string;
  traceId?: string;
  method: string;
  operation: string;
  pathTemplate?: string;
  mode: string;
  /** The route's configured mode (legacy, api2, canary, shadow). */
  routeMode?: string;
  /** api2 failed and legacy answered. */
  fallback?: true;
  form?: string;
  versionPrefix?: string;
  absoluteForm?: true;
  scheme?: string;
  insecure: boolean;
  client?: string;
  clientLabel?: string;
  user?: string;
  status: number;
  latencyMs?: number;
  upstreamMs?: number;
  cache?: string;
  bytesIn?: number;
  bytesOut?: number;
  error?: string;
}

/** The mode a record is counted under: the upstream that answered, else `gateway` (answered by the gateway itself). */
export function modeOf(record: Readonly<RequestRecord>): string {
  return record.mode ?? 'gateway';
}

/** Who wrote a line: the process (or pod, or isolate) and the version of the config in force. */
export interface LogOrigin {
  readonly instance: string;
  readonly config: string;
}

type FieldValue = string | number | boolean | undefined;

/** The value of each record field of the schema (src/observability/log-schema.ts); undefined is not written. */
const RECORD_VALUES: { readonly [name in RecordFieldName]: (record: Readonly<RequestRecord>) => FieldValue } = {
  requestId: (r) => r.requestId,
  traceId: (r) => r.traceId,
  method: (r) => r.method,
  operation: (r) => r.operation ?? UNROUTED,
  mode: modeOf,
  insecure: (r) => r.insecure,
  status: (r) => r.status ?? 0,
  routeMode: (r) => r.routeMode,
  fallback: (r) => (r.fallback ? true : undefined),
  pathTemplate: (r) => r.pathTemplate,
  form: (r) => r.form,
  versionPrefix: (r) => r.versionPrefix || undefined,
  absoluteForm: (r) => (r.absoluteForm ? true : undefined),
  scheme: (r) => r.scheme,
  client: (r) => r.client,
  clientLabel: (r) => r.clientLabel,
  user: (r) => r.user,
  latencyMs: (r) => r.latencyMs,
  upstreamMs: (r) => r.upstreamMs,
  cache: (r) => r.cache,
  bytesIn: (r) => r.bytesIn,
  bytesOut: (r) => r.bytesOut,
  error: (r) => r.error,
};

/** The line's fields between `time` and `msg`, in the schema's order: the origin, then the record's known fields. */
export function toLogFields(record: Readonly<RequestRecord>, origin: LogOrigin): LogFields {
  const fields: Record<string, FieldValue> = { instance: origin.instance, config: origin.config };
  for (const { name } of RECORD_FIELDS) {
    const value = RECORD_VALUES[name](record);
    if (value !== undefined) fields[name] = value;
  }
  return fields as unknown as LogFields;
}

const str = JSON.stringify;

/**
 * The whole usage-log line of a record, `{"level":…,"time":…,<fields>,"msg":"request"}` with the
 * fields exactly as `JSON.stringify(toLogFields(record, origin))` writes them, in the same order, built
 * without the intermediate object (the line is written once per request; test/usage-log-line-is-
 * the-json-of-its-fields.test.ts holds the two to the same bytes). No trailing newline.
 */
export function logLine(record: Readonly<RequestRecord>, level: number, time: number, origin: LogOrigin): string {
  let line = `{"level":${level},"time":${time},"instance":${str(origin.instance)},"config":${str(origin.config)},"requestId":${str(record.requestId)}`;
  if (record.traceId !== undefined) line += `,"traceId":${str(record.traceId)}`;
  line += `,"method":${str(record.method)},"operation":${str(record.operation ?? UNROUTED)},"mode":${str(modeOf(record))},"insecure":${record.insecure},"status":${str(record.status ?? 0)}`;
  if (record.routeMode !== undefined) line += `,"routeMode":${str(record.routeMode)}`;
  if (record.fallback) line += ',"fallback":true';
  if (record.pathTemplate !== undefined) line += `,"pathTemplate":${str(record.pathTemplate)}`;
  if (record.form !== undefined) line += `,"form":${str(record.form)}`;
  if (record.versionPrefix) line += `,"versionPrefix":${str(record.versionPrefix)}`;
  if (record.absoluteForm) line += ',"absoluteForm":true';
  if (record.scheme !== undefined) line += `,"scheme":${str(record.scheme)}`;
  if (record.client !== undefined) line += `,"client":${str(record.client)}`;
  if (record.clientLabel !== undefined) line += `,"clientLabel":${str(record.clientLabel)}`;
  if (record.user !== undefined) line += `,"user":${str(record.user)}`;
  if (record.latencyMs !== undefined) line += `,"latencyMs":${str(record.latencyMs)}`;
  if (record.upstreamMs !== undefined) line += `,"upstreamMs":${str(record.upstreamMs)}`;
  if (record.cache !== undefined) line += `,"cache":${str(record.cache)}`;
  if (record.bytesIn !== undefined) line += `,"bytesIn":${str(record.bytesIn)}`;
  if (record.bytesOut !== undefined) line += `,"bytesOut":${str(record.bytesOut)}`;
  if (record.error !== undefined) line += `,"error":${str(record.error)}`;
  return `${line},"msg":"${REQUEST_MESSAGE}"}`;
}
