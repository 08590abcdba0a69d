import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/catalogue/operations.js';
import { parseConfig } from '../src/config/schema.js';
import { capabilities } from '../src/catalogue/movability.js';
import { capabilityMatrixMarkdown } from '../src/catalogue/capability-matrix.js';
import { withSection } from '../scripts/docs/sections.js';

describe('capability matrix', () => {
  it('has one row per catalogue entry, in catalogue order: its mapping, or why it has none', () => {
    const rows = capabilities();
    expect(rows.map((r) => r.operation)).toEqual(OPERATIONS.map((op) => op.id));
    for (const [i, row] of rows.entries()) {
      const route = OPERATIONS[i]?.api2;
      if (row.mapped) expect(route).toEqual({ mapping: row.mapping });
      else expect(route).toEqual({ legacyOnly: row.why });
    }
    const mapped = rows.filter((r) => r.mapped).length;
    expect(capabilityMatrixMarkdown()).toContain(`${mapped} operations can be answered through api2; ${rows.length - mapped} stay on the legacy backend.`);
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

  it.each(capabilities().filter((row) => !row.mapped).map((row) => row.operation))('refuses api2 for %s, saying why', (id) => {
    const result = parseConfig({ ...base, routes: { [id]: { mode: 'api2' } } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.join('\n')).toMatch(new RegExp(`routes\\["${id.replace('.', '\\.')}"\\]\\.mode: .*cannot be routed to api2 \\(api2\\): \\S`));
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
