/**
 * The `deprecation` config (src/config/deprecation.ts) is validated at load: an invalid date, a
 * date that does not exist, a date-time without its offset, a link that is not an absolute http(s)
 * URL, carries credentials or characters a Link header cannot hold as written, a sunset before the
 * deprecation, an unknown operation: each refused naming its key, by parseConfig and by
 * `--check-config` (exit 1).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const LEGACY = { legacy: { baseUrl: 'http://127.0.0.1:9000' } };

function errorsOf(deprecation: unknown): string {
  const result = parseConfig({ upstreams: LEGACY, deprecation });
  expect(result.ok, 'refused').toBe(false);
  return result.ok ? '' : result.errors.join('\n');
}

describe('deprecation config validation', () => {
  it('takes dates, date-times with their offset and http(s) links', () => {
    const result = parseConfig({
      upstreams: LEGACY,
      deprecation: {
        everyOperation: { deprecatedAt: '2026-12-01', deprecationLink: 'https://developer.example.com/legacy%20api?lang=en#dates' },
        operations: { 'recipes.search': { sunsetAt: '2027-06-30T12:00:00+02:00', sunsetLink: 'http://example.com/sunset' } },
      },
    });
    expect(result.ok, result.ok ? '' : result.errors.join('\n')).toBe(true);
  });

  it.each([
    ['30/06/2027', 'deprecation.everyOperation.deprecatedAt'],
    ['2027-02-30', 'deprecation.everyOperation.deprecatedAt'],
    ['2027-06-30T12:00:00', 'deprecation.everyOperation.deprecatedAt'],
    ['2027-06-30T12:00:00.5Z', 'deprecation.everyOperation.deprecatedAt'],
    ['1969-12-31', 'deprecation.everyOperation.deprecatedAt'],
  ])('refuses the date %j naming %s', (text, key) => {
    expect(errorsOf({ everyOperation: { deprecatedAt: text } })).toMatch(new RegExp(`^${key.replace(/\./g, '\\.')}: must be a date`, 'm'));
  });

  it.each([
    ['not a url', 'must be an absolute http'],
    ['ftp://example.com/deprecation', 'must be an absolute http'],
    ['https://user:secret@example.com/deprecation', 'must not carry credentials'],
    ['https://example.com/legacy api', 'must be written with URI characters only'],
    ['https://example.com/a>b', 'must be written with URI characters only'],
    ['https://example.com/dépréciation', 'must be written with URI characters only'],
  ])('refuses the link %j naming its key', (link, rule) => {
    const text = errorsOf({ operations: { 'grocery.list': { sunsetLink: link } } });
    expect(text).toContain(`deprecation.operations["grocery.list"].sunsetLink: ${rule}`);
    expect(text).not.toContain('secret');
  });

  it('refuses a sunset earlier than the deprecation, also when the deprecation date is every operation\'s', () => {
    expect(errorsOf({ everyOperation: { deprecatedAt: '2027-01-01', sunsetAt: '2026-12-31' } })).toContain('deprecation.everyOperation.sunsetAt: must not be earlier than the deprecation date (2027-01-01)');
    expect(errorsOf({ everyOperation: { deprecatedAt: '2027-01-01' }, operations: { 'reviews.get': { sunsetAt: '2026-06-30' } } })).toContain(
      'deprecation.operations["reviews.get"].sunsetAt: must not be earlier than the deprecation date (2027-01-01)',
    );
  });

  it('refuses an unknown operation and an unknown key', () => {
    const text = errorsOf({ operations: { 'recipes.get': { deprecatedAt: '2027-01-01' } }, everyOperation: { sunset: '2027-01-01' } });
    expect(text).toContain('deprecation.operations["recipes.get"]: is not an operation id');
    expect(text).toMatch(/deprecation\.everyOperation: Unrecognized key: "sunset"/);
  });

  it('--check-config exits 1 naming the key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deprecation-config-'));
    const file = join(dir, 'gateway.json');
    await writeFile(file, JSON.stringify({ upstreams: LEGACY, deprecation: { everyOperation: { sunsetAt: 'next summer' } } }));
    const node = process.execPath;
    await expect(run(node, [...nodeArgsOf('src/node/main.ts'), '--config', file, '--check-config'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('deprecation.everyOperation.sunsetAt: must be a date'),
    });
  }, 30_000);
});
