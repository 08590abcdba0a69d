/**
 * An api2 date-time is valid when Date.parse reads it (mappings/api2-schemas.ts). The check
 * recognises api2's own form by a pattern before it asks Date.parse (src/hot-path.ts isDateText):
 * it must say yes exactly where Date.parse gives a date, or an answer with a date the mapping
 * cannot read (`/Date(NaN)/`) would pass, or a good answer get a 502.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateText } from '../src/hot-path.js';

const readByDateParse = (text: string) => !Number.isNaN(Date.parse(text));
const digits = (count: number, max: number) => fc.integer({ min: 0, max }).map((value) => String(value).padStart(count, '0'));

describe('the api2 date-time check agrees with Date.parse', () => {
  it('on api2-shaped texts with fields in and out of range, and other endings', () => {
    const text = fc
      .tuple(
        digits(4, 9999),
        digits(2, 19),
        digits(2, 39),
        digits(2, 29),
        digits(2, 69),
        digits(2, 69),
        fc.constantFrom('', '.', '.1', '.12', '.123', '.1234', '.5x'),
        fc.constantFrom('Z', '', 'z', '+01:00', '-05:30', 'Z ', ' Z'),
        fc.constantFrom('T', ' ', 't'),
      )
      .map(([year, month, day, hour, minute, second, fraction, zone, separator]) => `${year}-${month}-${day}${separator}${hour}:${minute}:${second}${fraction}${zone}`);
    fc.assert(fc.property(text, (value) => isDateText(value) === readByDateParse(value)), { numRuns: 20000 });
  });

  it('on the dates api2 writes and on other texts', () => {
    const date = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    fc.assert(fc.property(date, (value) => isDateText(value.toISOString())), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (value) => isDateText(value) === readByDateParse(value)), { numRuns: 5000 });
    for (const value of ['2012-02-31T00:00:00Z', '2012-03-05T21:00:54.368Z', '2012-03-05', 'March 5, 2012', '2012-13-05T00:00:00Z', '2012-03-05T24:00:00Z', '']) {
      expect(isDateText(value), value).toBe(readByDateParse(value));
    }
  });
});
