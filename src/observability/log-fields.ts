/**
 * A request record as its usage-log line (one JSON object per request): pino's `level` and `time`,
 * then the fields declared in log-schema.ts in their order (the origin's, then the record's known
 * ones), then `msg: "request"`. Written by this one function on Node (src/observability/node/
 * usage-log.ts) and on the edge (src/edge/log.ts); the field list lives only in the declaration.
 */
import type { RequestRecord } from '../gateway/request-record.js';
import { ORIGIN_FIELDS, RECORD_FIELDS, REQUEST_MESSAGE } from './log-schema.js';
import type { LogFieldType, LogFields, LogOrigin } from './log-schema.js';
import { rememberedLast } from '../hot-path.js';

export { REQUEST_MESSAGE, UNROUTED, modeOf } from './log-schema.js';
export type { LogFields, LogOrigin } from './log-schema.js';

const str = JSON.stringify;

/** Text JSON writes as it is, between quotes: printable ASCII but `"` and `\\`. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * How a value of each declared type is written: exactly as JSON.stringify writes it, without its
 * general walk for the types whose text is known (numbers, booleans, plain text).
 */
const WRITE: Readonly<Record<LogFieldType, (value: never) => string>> = {
  string: (text: string) => (PLAIN_TEXT.test(text) ? `"${text}"` : str(text)),
  true: writeFlag,
  boolean: writeFlag,
  status: writeNumber,
  count: writeNumber,
  ms: writeNumber,
  'epoch-ms': writeNumber,
  level: writeNumber,
  paths: (paths: readonly string[]) => str(paths),
};

function writeFlag(flag: boolean): string {
  return flag ? 'true' : 'false';
}

function writeNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** A type's writer for one field: a text field's remembers its last value's text (most repeat line after line). */
const writerOf = (type: LogFieldType): ((value: unknown) => string) => {
  const write = WRITE[type] as (value: unknown) => string;
  return type === 'string' ? (rememberedLast(write as (value: string) => string) as (value: unknown) => string) : write;
};

/** Each declared field with the text that opens it on the line (`,"name":`) and its writer, made once. */
const ORIGIN = ORIGIN_FIELDS.map((spec) => ({ key: `,${str(spec.name)}:`, value: spec.value, write: writerOf(spec.type) }));
const RECORD = RECORD_FIELDS.map((spec) => ({
  key: `,${str(spec.name)}:`,
  value: spec.value as (record: Readonly<RequestRecord>) => unknown,
  write: writerOf(spec.type),
}));
const CLOSE = `,"msg":${str(REQUEST_MESSAGE)}}`;

/**
 * The whole usage-log line of a record, no trailing newline: exactly
 * `JSON.stringify({ level, time, ...toLogFields(record, origin), msg: "request" })`, built as text
 * without the intermediate object (it runs once per request).
 */
export function logLine(record: Readonly<RequestRecord>, level: number, time: number, origin: LogOrigin): string {
  let line = `{"level":${level},"time":${time}`;
  for (const field of ORIGIN) line += field.key + field.write(field.value(origin));
  for (const field of RECORD) {
    const value = field.value(record);
    if (value !== undefined) line += field.key + field.write(value);
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
