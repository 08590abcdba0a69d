/**
 * The usage log writes each request line directly (logLine) instead of serialising a field object;
 * the migration report and every log reader rely on that line being exactly the JSON of the
 * record's fields, in the documented order, with pino's level, time and msg around them. Checked
 * over arbitrary records, hostile request ids and error texts included (quotes, backslashes,
 * control characters, lone surrogates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REQUEST_MESSAGE, logLine, toLogFields } from '../src/observability/log-fields.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { REQUEST_LINE_FIELDS } from '../src/observability/log-schema.js';

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u2028', '\ud800', '\u0000\n'));
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const origin = fc.record({ instance: text, config: text });

const record: fc.Arbitrary<RequestRecord> = fc.record({
  requestId: text,
  startedAt: fc.integer({ min: 0 }),
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD'),
  operation: fc.constantFrom('recipes.search', 'reviews.create', 'uncatalogued', null),
  pathTemplate: optional(text),
  form: optional(fc.constantFrom('canonical', 'malformed', 'regular')),
  versionPrefix: optional(fc.option(fc.constantFrom('v1', 'v2'), { nil: null })),
  absoluteForm: optional(fc.boolean()),
  scheme: optional(fc.constantFrom('http', 'https')),
  insecure: fc.boolean(),
  mode: optional(fc.constantFrom('legacy', 'api2', 'gateway')),
  routeMode: optional(fc.constantFrom('legacy', 'api2', 'canary', 'shadow')),
  fallback: optional(fc.boolean()),
  cache: optional(fc.constantFrom('HIT', 'MISS', 'STALE', 'BYPASS')),
  status: optional(fc.integer({ min: 100, max: 599 })),
  latencyMs: optional(fc.double({ min: 0, max: 1e6, noNaN: true })),
  upstreamMs: optional(fc.integer({ min: 0, max: 1e6 })),
  bytesIn: optional(fc.nat()),
  bytesOut: optional(fc.nat()),
  client: optional(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 })),
  clientLabel: optional(text),
  user: optional(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 })),
  error: optional(text),
}, { requiredKeys: ['requestId', 'startedAt', 'method', 'operation', 'insecure'] }) as fc.Arbitrary<RequestRecord>;

describe('the usage-log line', () => {
  it('is byte for byte the JSON of its fields, between level/time and msg', () => {
    fc.assert(
      fc.property(record, fc.constantFrom(30, 40), fc.integer({ min: 0 }), origin, (r, level, time, o) => {
        const expected = JSON.stringify({ level, time, ...toLogFields(r, o), msg: REQUEST_MESSAGE });
        expect(logLine(r, level, time, o)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('parses back to the record fields', () => {
    const r: RequestRecord = { requestId: 'a"b\\c\n', startedAt: 1, method: 'GET', operation: 'recipes.search', insecure: true, status: 200, error: '</script>' };
    const o = { instance: 'pod-1', config: 'abc' };
    expect(JSON.parse(logLine(r, 30, 5, o))).toEqual({ level: 30, time: 5, ...toLogFields(r, o), msg: 'request' });
  });

  it('writes its fields in the order of the log schema, the origin first', () => {
    fc.assert(
      fc.property(record, origin, (r, o) => {
        const written = Object.keys(JSON.parse(logLine(r, 30, 5, o)) as object);
        const order = REQUEST_LINE_FIELDS.map((f) => f.name).filter((name) => written.includes(name));
        expect(written).toEqual(order);
        expect(written.slice(0, 4)).toEqual(['level', 'time', 'instance', 'config']);
      }),
      { numRuns: 500 },
    );
  });
});
