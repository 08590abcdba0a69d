/**
 * The usage-log field tables of the docs, generated from the declaration
 * (src/observability/log-schema.ts): the request line's fields in the order they are written, the
 * shadow line's own fields, and the ClickHouse table made from the same declaration.
 */
import { columnType, createTableSql } from '../../src/report/sources/clickhouse-ddl.js';
import { BREAKER_FIELDS, REQUEST_LINE_FIELDS, SHADOW_FIELDS } from '../../src/observability/log-schema.js';
import type { LogFieldSpec, LogFieldType, Presence } from '../../src/observability/log-schema.js';

const TYPES: Readonly<Record<LogFieldType, string>> = {
  string: 'text',
  true: '`true` (absent otherwise)',
  boolean: '`true` or `false`',
  status: 'integer 0 to 65535',
  count: 'integer ≥ 0',
  ms: 'ms ≥ 0, 0.01 ms resolution, below 1e10',
  'epoch-ms': 'epoch ms, 1970 to 2106',
  level: 'integer 0 to 255',
  paths: 'list of field paths',
};

const PRESENCE: Readonly<Record<Presence, string>> = {
  required: 'always (a line without it is broken)',
  always: 'always',
  optional: 'when known',
};

/** Table cells: `|` escaped. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

function table(fields: readonly LogFieldSpec[]): string {
  const rows = fields.map((f) => `| \`${f.name}\` | ${TYPES[f.type]} | ${PRESENCE[f.presence]} | \`${columnType(f)}\` | ${cell(f.description)} |`);
  return ['| field | value | written | ClickHouse column | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

export function requestLineFieldsMarkdown(): string {
  return table(REQUEST_LINE_FIELDS);
}

export function shadowLineFieldsMarkdown(): string {
  return table(SHADOW_FIELDS);
}

export function breakerLineFieldsMarkdown(): string {
  return table(BREAKER_FIELDS);
}

export function clickHouseTableMarkdown(): string {
  return `\`\`\`sql\n${createTableSql('usage_log')};\n\`\`\``;
}
