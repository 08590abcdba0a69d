import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../src/catalogue/operations.js';
import { parseConfig } from '../src/config/schema.js';
import { capabilities } from '../mappings/index.js';
import { capabilityMatrixMarkdown } from '../mappings/capability-matrix.js';
import { withSection } from '../scripts/docs/sections.js';

describe('capability matrix', () => {
  it('has 12 mapped operations and 4 legacy-only ones (adding and removing favorites and try soons)', () => {
    const rows = capabilities();
    expect(rows.map((r) => r.operation)).toEqual([...OPERATION_IDS]);
    expect(rows.filter((r) => r.mapped)).toHaveLength(12);
    expect(rows.filter((r) => !r.mapped).map((r) => r.operation).sort()).toEqual(
      ['favorites.create', 'favorites.delete', 'trysoons.create', 'trysoons.delete'].sort(),
    );
  });

  it('is embedded in docs/operations.md as generated (run `npm run docs -- --write` after changing a mapping)', async () => {
    const doc = await readFile('docs/operations.md', 'utf8');
    expect(withSection(doc, 'capability-matrix', capabilityMatrixMarkdown())).toBe(doc);
  });
});

describe('route modes in config', () => {
  const base = { upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' }, api2: { baseUrl: 'https://127.0.0.1:2' } } };

  it('accepts api2 for a mapped operation and defaults every route to legacy', () => {
    const result = parseConfig({ ...base, routes: { 'recipes.search': { mode: 'api2' } } });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.config.routes['recipes.search']?.mode).toBe('api2');
      expect(result.config.routes['reviews.get']).toBeUndefined();
    }
  });

  it.each(['favorites.create', 'favorites.delete', 'trysoons.create', 'trysoons.delete'])('refuses api2 for %s, saying why', (id) => {
    const result = parseConfig({ ...base, routes: { [id]: { mode: 'api2' } } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.join('\n')).toMatch(new RegExp(`routes\\["${id.replace('.', '\\.')}"\\]\\.mode: .*cannot be routed to api2 \\(api2\\): api2 publishes no endpoint`));
  });

  it('refuses an api2 route without an api2 upstream, and an api2 upstream over plain http', () => {
    const noUpstream = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } }, routes: { 'grocery.list': { mode: 'api2' } } });
    expect(noUpstream.ok).toBe(false);
    if (!noUpstream.ok) expect(noUpstream.errors.join('\n')).toContain('upstreams.api2: is required when a route calls api2 (grocery.list: api2)');
    const plain = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' }, api2: { baseUrl: 'http://127.0.0.1:2' } } });
    expect(plain.ok).toBe(false);
    if (!plain.ok) expect(plain.errors.join('\n')).toContain('upstreams.api2.baseUrl: api2 is served over https only');
  });
});
