/**
 * The documentation stays true without anyone remembering to update it: the generated parts of
 * docs/ (configuration reference from the zod schema, operation catalogue, capability matrix,
 * DECISION index, scheme cases) are what the code generates now; every config key has a meaning;
 * every link between the pages resolves; the README stays a front page; CI runs what the README shows.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { CONFIG_DESCRIPTIONS } from '../scripts/docs/config-descriptions.js';
import { configKeys } from '../scripts/docs/config-reference.js';
import { GENERATED_SECTIONS, withSection } from '../scripts/docs/sections.js';

const DOCS = ['README.md', ...(await readdir('docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('generated documentation', () => {
  it.each(GENERATED_SECTIONS.map((s) => [`${s.file}: ${s.name}`, s] as const))('%s is current (else run npm run docs -- --write)', async (_, section) => {
    const text = await readFile(section.file, 'utf8');
    expect(withSection(text, section.name, await section.render())).toBe(text);
  });

  it('gives every config key of the zod schema a meaning (scripts/docs/config-descriptions.ts)', () => {
    expect(configKeys().filter((key) => key.description === undefined).map((key) => key.key)).toEqual([]);
  });

  it('describes no config key the schema does not have', () => {
    const keys = configKeys().map((key) => key.key.split('.'));
    const stale = Object.keys(CONFIG_DESCRIPTIONS).filter((pattern) => {
      const parts = pattern.split('.');
      return !keys.some((key) => key.length === parts.length && parts.every((part, i) => part === '*' || part === key[i]));
    });
    expect(stale).toEqual([]);
  });

  it('shows the example config of docs/examples/gateway.json as it is, and the example is valid', async () => {
    const example = await readFile('docs/examples/gateway.json', 'utf8');
    expect(await readFile('docs/configuration.md', 'utf8')).toContain(example);
    const result = parseConfig(JSON.parse(example));
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});

describe('the README and the docs pages', () => {
  it('keeps the README a front page (at most 150 lines)', async () => {
    expect((await readFile('README.md', 'utf8')).split('\n').length).toBeLessThanOrEqual(150);
  });

  it('links only to files that exist', async () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of (await readFile(file, 'utf8')).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(dirname(file), target))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only test files and scripts that exist', async () => {
    const missing: string[] = [];
    for (const file of DOCS) {
      for (const [path] of (await readFile(file, 'utf8')).matchAll(/\b(?:test|scripts|src|mappings)\/[\w./-]+\.(?:ts|sh)\b/g)) {
        if (!existsSync(path)) missing.push(`${file} → ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('links every docs page from the README', async () => {
    const readme = await readFile('README.md', 'utf8');
    expect(DOCS.filter((file) => file !== 'README.md' && !readme.includes(`](${file})`))).toEqual([]);
  });

  it('counts no operations outside the generated parts (the catalogue decides how many are mapped)', async () => {
    const counted: string[] = [];
    for (const file of DOCS) {
      const prose = (await readFile(file, 'utf8')).replace(/<!-- generated:([\w-]+) start[\s\S]*?<!-- generated:\1 end -->/g, '');
      for (const match of prose.matchAll(/\b\d+ (?:mapped |legacy-only |catalogued )?operations\b(?! ready)/g)) counted.push(`${file}: ${match[0]}`);
    }
    expect(counted).toEqual([]);
  });

  it('shows what .ci/run runs, command for command', async () => {
    const ci = (await readFile('.ci/run', 'utf8')).split('\n').filter((line) => line && !line.startsWith('#') && !/^(set|cd) /.test(line));
    expect(ci.length).toBeGreaterThan(0);
    expect(await readFile('README.md', 'utf8')).toContain(`\n${ci.join(' && ')}\n`);
  });
});
