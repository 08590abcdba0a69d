/**
 * Item 1 of issue 16: every legacy JSON body (the sandbox legacy backend's and the gateway's own)
 * is written with DataContractJsonSerializer's conventions, held here to the bytes the legacy
 * documents show: the grocery sample quoted in api2-notes.md (GUID and the second date, elided
 * there, filled in), the `\/Date(<epoch_ms>)\/` wrapper of legacy-interface.md part 2.5 and the
 * issue's `"\/Date(1316293200000)\/"`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { legacyJsonNumber, legacyJsonString, roundTripNumber, toLegacyJson, toLegacyJsonBytes } from '../src/legacy/legacy-json.js';
import { GroceryListSchema, RecipeSearchResultSchema, toLegacyDate } from '../src/legacy/records.js';
import { renderError } from '../src/legacy/answer-body.js';
import { toXml } from '../src/legacy/xml.js';
import { createLegacySandboxApp } from '../src/sandbox/legacy-app.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';

const GROCERY_SAMPLE =
  '{"Items":[{"ItemID":13809644,"GUID":"6B8CC6F5-0F3A-4C39-9C5B-2D1A6E5F7A10","RecipeID":null,"Name":"chicken",' +
  '"Notes":"","DisplayQuantity":"1 lb","Department":"Poultry","CreationDate":"\\/Date(1436410705347)\\/","IsChecked":null,' +
  '"LocalStatus":"UNMODIFIED","LastModified":"\\/Date(1436410705347)\\/","BigOvenObject":null,"ThirdPartyURL":null}]}';

/** The writer's string rule as a reference, one code unit at a time (the conventions in legacy-json.ts). */
function byRule(text: string): string {
  let out = '"';
  for (const unit of Array.from({ length: text.length }, (_, at) => text.charCodeAt(at))) {
    const backslashed = unit === 0x22 || unit === 0x2f || unit === 0x5c;
    const asCode = unit < 0x20 || unit === 0x85 || unit === 0x2028 || unit === 0x2029 || (unit >= 0xd800 && unit <= 0xdfff) || unit >= 0xfffe;
    out += backslashed ? `\\${String.fromCharCode(unit)}` : asCode ? `\\u${unit.toString(16).padStart(4, '0')}` : String.fromCharCode(unit);
  }
  return `${out}"`;
}

describe('the legacy JSON writer', () => {
  it('writes the legacy grocery sample byte for byte, members in declared order whatever order they were built in', () => {
    const item = {
      // Deliberately shuffled, and two null members left unset: declared order and null come from the schema.
      LastModified: toLegacyDate(1436410705347),
      Name: 'chicken',
      ItemID: 13809644,
      GUID: '6B8CC6F5-0F3A-4C39-9C5B-2D1A6E5F7A10',
      RecipeID: null,
      Notes: '',
      Department: 'Poultry',
      DisplayQuantity: '1 lb',
      CreationDate: toLegacyDate(1436410705347),
      IsChecked: null,
      LocalStatus: 'UNMODIFIED',
      BigOvenObject: undefined,
    };
    expect(toLegacyJson({ Items: [item] }, GroceryListSchema)).toBe(GROCERY_SAMPLE);
  });

  it('escapes the slashes of the date wrapper and of every other string, as WCF does', () => {
    expect(legacyJsonString(toLegacyDate(1316293200000))).toBe('"\\/Date(1316293200000)\\/"');
    expect(legacyJsonString('http://images.example.com/a/b.jpg')).toBe('"http:\\/\\/images.example.com\\/a\\/b.jpg"');
    expect(legacyJsonString('a "quoted" \\ back')).toBe('"a \\"quoted\\" \\\\ back"');
  });

  it('writes control characters, Unicode line separators, surrogates and U+FFFE/U+FFFF as lower-case \\u escapes', () => {
    expect(legacyJsonString('tab\there\nnew\rret\u0001\u001f')).toBe('"tab\\u0009here\\u000anew\\u000dret\\u0001\\u001f"');
    expect(legacyJsonString('\u0085\u2028\u2029')).toBe('"\\u0085\\u2028\\u2029"');
    expect(legacyJsonString('pie 🥧')).toBe('"pie \\ud83e\\udd67"');
    expect(legacyJsonString('\ufffe\uffff\ufffd é <b>&')).toBe('"\\ufffe\\uffff\ufffd é <b>&"');
  });

  it('escapes each code unit by the same rule wherever it stands in a string (code unit by code unit)', () => {
    const unit = fc.oneof(
      fc.constantFrom('/', '"', '\\', '\u0000', '\n', '\u001f', ' ', '\u0084', '\u0085', '\u0086', '\u2027', '\u2028', '\u2029', '\ud7ff', '\ud83e', '\udd67', '\ue000', '\ufffd', '\ufffe', '\uffff', 'é', 'a'),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (text) => legacyJsonString(text) === byRule(text)), { numRuns: 2000 });
    // The body is written as bytes: the UTF-8 of the same text (one, two and three byte sequences).
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 40 }), { maxLength: 4 }), (texts) => {
        const expected = encoder.encode(`[${texts.map(byRule).join(',')}]`);
        return Buffer.compare(toLegacyJsonBytes(texts), expected) === 0;
      }),
      { numRuns: 2000 },
    );
  });

  it('copies runs of plain text between escapes as the per-code-unit rule writes them, in strings of any length', () => {
    // The writer copies what needs no escape in one go: runs of plain text (ASCII, two- and
    // three-byte UTF-8, the characters HTML escapers touch but WCF leaves alone) cut by single
    // escaped code units, and long strings with none, past the writer's reused 16 KB buffer.
    const plain = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '<', '>', '&', "'", '.', ':', '\u007f', '\u0080', '\u0084', '\u0086', 'é', '\u07ff', '\u0800', '\u2027', '\u202a', '\ud7ff', '\ue000', '\ufffd'), maxLength: 60 });
    const escaped = fc.constantFrom('/', '"', '\\', '\u0000', '\t', '\n', '\u001f', '\u0085', '\u2028', '\u2029', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83e\udd67', '\ufffe', '\uffff');
    const text = fc.array(fc.tuple(plain, escaped), { maxLength: 8 }).chain((pieces) =>
      plain.map((tail) => pieces.map(([run, unit]) => run + unit).join('') + tail),
    );
    fc.assert(fc.property(text, (value) => legacyJsonString(value) === byRule(value)), { numRuns: 3000 });
    const encoder = new TextEncoder();
    const long = fc.tuple(text, fc.integer({ min: 1100, max: 3000 }), text).map(([head, times, tail]) => head + 'plain é\u2027 text '.repeat(times) + tail);
    fc.assert(
      fc.property(fc.array(long, { maxLength: 3 }), (texts) => Buffer.compare(toLegacyJsonBytes(texts), encoder.encode(`[${texts.map(byRule).join(',')}]`)) === 0),
      { numRuns: 200 },
    );
  });

  it('writes undeclared members after the declared ones, also when the record has as many members as the schema declares', () => {
    const schema = z.object({ A: z.number(), B: z.string().nullable(), C: z.boolean().optional() });
    // Declared order, nothing else: the common case.
    expect(toLegacyJson({ A: 1, B: 'x', C: true }, schema)).toBe('{"A":1,"B":"x","C":true}');
    // Three members, but one is not declared (B unset, so null; C optional and absent).
    expect(toLegacyJson({ A: 1, Extra: 'e/f', C: undefined }, schema)).toBe('{"A":1,"B":null,"Extra":"e\\/f"}');
    expect(toLegacyJson({ Extra: [1, { Z: 2 }], A: 1, B: null }, schema)).toBe('{"A":1,"B":null,"Extra":[1,{"Z":2}]}');
    // Shuffled, with an undefined undeclared member (left out) and an inherited one (never written).
    const record = Object.assign(Object.create({ Inherited: 1 }) as object, { C: false, Gone: undefined, B: 'b', A: 2 });
    expect(toLegacyJson(record, schema)).toBe('{"A":2,"B":"b","C":false}');
    // A declared member that is inherited, not own, is unset.
    expect(toLegacyJson(Object.assign(Object.create({ A: 7 }) as object, { B: 'b', C: true, D: 1 }), schema)).toBe('{"A":null,"B":"b","C":true,"D":1}');
    // Arrays of records and records without a schema.
    expect(toLegacyJson([{ B: 'b', A: 1 }, null], z.array(schema))).toBe('[{"A":1,"B":"b"},null]');
    expect(toLegacyJson({ b: [true, 'x'], a: { c: -0 } })).toBe('{"b":[true,"x"],"a":{"c":-0}}');
  });

  it('writes bodies of any size, beyond its reused buffer, and the next body after them alike', () => {
    const long = 'é/'.repeat(100_000);
    const many = Array.from({ length: 5_000 }, (_, index) => ({ I: index, S: 'x/y' }));
    expect(toLegacyJson({ L: long })).toBe(`{"L":"${'é\\/'.repeat(100_000)}"}`);
    expect(toLegacyJson(many)).toBe(`[${many.map(({ I }) => `{"I":${I},"S":"x\\/y"}`).join(',')}]`);
    expect(toLegacyJson({ A: 'a' })).toBe('{"A":"a"}');
    expect(Buffer.from(toLegacyJsonBytes({ A: 'ü' })).toString('utf8')).toBe('{"A":"ü"}');
  });

  it('formats numbers as .NET Framework round-trip doubles and integers as digits', () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [-0, '-0'],
      [4, '4'],
      [1436410705347, '1436410705347'],
      [4.5, '4.5'],
      [3.6666666666666665, '3.6666666666666665'],
      [1 / 3, '0.33333333333333331'],
      [0.1 + 0.2, '0.30000000000000004'],
      [0.0001, '0.0001'],
      [0.00001, '1E-05'],
      [1.5e-7, '1.5E-07'],
      [123456.789, '123456.789'],
      [1e15 + 0.5, '1000000000000000.5'],
      [1.5e20, '1.5E+20'],
      [-2.25, '-2.25'],
    ];
    for (const [value, text] of cases) expect(legacyJsonNumber(value), String(value)).toBe(text);
    expect(legacyJsonNumber(Number.NaN)).toBe('null');
    // Positional doubles of 15 digits or fewer take JavaScript's own text: the same as the digit-by-digit rule.
    const near = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: 1e-5, max: 1e16, noNaN: true }),
      fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 12 })).map(([digits, places]) => digits / 10 ** places),
      fc.constantFrom(1e-4, 0.00009999999999999999, 1e15 - 0.5, 999999999999999.9, 0.1 + 0.2, 2.5, 100.5, 0.000123, -0.0001),
    );
    fc.assert(fc.property(near, (value) => Number.isSafeInteger(value) || Object.is(value, -0) || legacyJsonNumber(value) === roundTripNumber(value)), { numRuns: 20000 });
    // XML answers carry the same number text (XmlConvert uses the same round-trip format).
    expect(toXml('R', { A: 1 / 3, B: 4, C: 0.00001 })).toContain('<A>0.33333333333333331</A><B>4</B><C>1E-05</C>');
  });

  it('writes every declared member (unset ones as null) and leaves out only optional ones', () => {
    const result = toLegacyJson({ Results: [], ResultCount: 0 }, RecipeSearchResultSchema);
    expect(result).toBe('{"ResultCount":0,"Results":[],"SpellSuggest":null}');
    expect(renderError(404, 'Review 9 was not found.', true).body).toBe('{"Message":"Review 9 was not found."}');
    expect(renderError(400, 'Bad rid.', true, [{ field: 'rid', message: 'rid must be a positive integer' }]).body).toBe(
      '{"Message":"Bad rid.","ModelState":{"rid":["rid must be a positive integer"]}}',
    );
  });

  it('is what the sandbox legacy backend serves: escaped dates and URLs in a search answer', async () => {
    const app = createLegacySandboxApp(new LegacyStore());
    const response = await app.fetch(new Request('http://sandbox/recipes?rpp=2&api_key=sandbox-free-key', { headers: { accept: 'application/json' } }));
    const raw = await response.text();
    expect(response.status).toBe(200);
    expect(raw).toMatch(/"CreationDate":"\\\/Date\(\d+\)\\\/"/);
    expect(raw).toMatch(/"WebURL":"https?:\\\/\\\//);
    expect(raw).not.toMatch(/[^\\]\//);
  });
});
