/**
 * A request record as its usage-log line (one JSON object per request): pino's `level` and `time`,
 * then the fields declared in log-schema.ts in their order (the origin's, then the record's known
 * ones), then `msg: "request"`. Written by this one function on Node (src/observability/node/
 * usage-log.ts) and on the edge (src/edge/log.ts); the field list lives only in the declaration.
 */
import type { RequestRecord } from '../gateway/request-record.js';
import { ORIGIN_FIELDS, RECORD_FIELDS, REQUEST_MESSAGE } from './log-schema.js';
import type { LogFields, LogOrigin } from './log-schema.js';

export { REQUEST_MESSAGE, UNROUTED, modeOf } from './log-schema.js';
export type { LogFields, LogOrigin } from './log-schema.js';

const str = JSON.stringify;

/** Each declared field with the text that opens it on the line (`,"name":`), computed once. */
const ORIGIN = ORIGIN_FIELDS.map((spec) => ({ key: `,${str(spec.name)}:`, value: spec.value }));
const RECORD = RECORD_FIELDS.map((spec) => ({ key: `,${str(spec.name)}:`, value: spec.value as (record: Readonly<RequestRecord>) => unknown }));
const CLOSE = `,"msg":${str(REQUEST_MESSAGE)}}`;

/**
 * The whole usage-log line of a record, no trailing newline: exactly
 * `JSON.stringify({ level, time, ...toLogFields(record, origin), msg: "request" })`, built as text
 * without the intermediate object (it runs once per request).
 */
export function logLine(record: Readonly<RequestRecord>, level: number, time: number, origin: LogOrigin): string {
  let line = `{"level":${level},"time":${time}`;
  for (let i = 0; i < ORIGIN.length; i++) line += ORIGIN[i]!.key + str(ORIGIN[i]!.value(origin));
  for (let i = 0; i < RECORD.length; i++) {
    const value = RECORD[i]!.value(record);
    if (value !== undefined) line += RECORD[i]!.key + str(value);
  }
  return line + CLOSE;
}

/** The line's fields between `time` and `msg`, in the declaration's order: the origin, then the record's known fields. */
export function toLogFields(record: Readonly<RequestRecord>, origin: LogOrigin): LogFields {
  const fields: Record<string, unknown> = {};
  for (const spec of ORIGIN_FIELDS) fields[spec.name] = spec.value(origin);
  for (const spec of RECORD_FIELDS) {
    const value = (spec.value as (record: Readonly<RequestRecord>) => unknown)(record);
    if (value !== undefined) fields[spec.name] = value;
  }
  return fields as LogFields;
}
