/**
 * docs/adding-an-operation.md, kept true the way a developer would find it: a copy of this
 * repository gets exactly the edits the page shows for `GET /recipe/{id}` mapped to api2's recipe
 * read (its catalogue entry, the sandbox's row, the mapping, the api2 answer's schema, the api2
 * sandbox's row, one test) and `npm run docs -- --write`. Then only those files (as many as the
 * page's table says, at most six) and the generated docs differ from the repository,
 * `npm run typecheck` passes, and the new test (a real gateway in api2 mode in front of the
 * sandbox backends) and the tests that hold every operation, api2 parity included, pass in the
 * copy. Nothing is injected: the copy's gateway finds the operation in its own catalogue.
 *
 * Bounded: the typecheck runs beside the docs and the tests (a minute or two on a loaded machine;
 * each child is killed after its time limit).
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository, walkthroughBlocks } from './support/repo-copy.js';
import type { RepositoryCopy } from './support/repo-copy.js';
import { runNode } from './support/run-script.js';
import type { ScriptRun } from './support/run-script.js';

const DOC = 'docs/adding-an-operation.md';
const NEW_TEST = 'test/recipe-read-answers-alike-through-api2.test.ts';
/** The files `npm run docs -- --write` rewrites (never edited by hand). */
const GENERATED = ['docs/operations.md', 'docs/decisions.md'];

/** Where a block of the page goes: a new file, after a file's imports, before the last occurrence of a line, or at its end. */
type Place = { readonly create: true } | { readonly afterImports: true } | { readonly before: string } | { readonly atEnd: true };
/** Each block of the page, in the order a developer makes the edits: its file and place. */
const EDITS: ReadonlyArray<readonly [block: string, file: string, place: Place]> = [
  ['entry_imports', 'src/catalogue/entries/recipes.ts', { afterImports: true }],
  ['entry', 'src/catalogue/entries/recipes.ts', { before: '] as const;' }],
  ['row', 'src/sandbox/behaviour.ts', { before: '};' }],
  ['mapping', 'mappings/recipe.ts', { create: true }],
  ['schema', 'mappings/api2-schemas.ts', { atEnd: true }],
  ['api2_imports', 'src/sandbox/api2-routes.ts', { afterImports: true }],
  ['api2_route', 'src/sandbox/api2-routes.ts', { before: '];' }],
  ['test', NEW_TEST, { create: true }],
];
const HAND_FILES = [...new Set(EDITS.map(([, file]) => file))].sort();
/** The tests that hold every operation, run in the copy with the new one. */
const CATALOGUE_TESTS = [
  'test/route-table-accepts-every-legacy-form.test.ts',
  'test/capability-matrix-is-generated-and-current.test.ts',
  'test/catalogue-says-whether-each-operation-can-move-to-api2.test.ts',
  'test/docs-are-generated-and-current.test.ts',
  'test/sandbox-legacy-backend.test.ts',
  'test/gateway-passes-every-operation-through-unchanged.test.ts',
  'test/api2-mode-answers-like-legacy.test.ts',
];
const LIMIT_MS = 300_000;

function place(text: string, block: string, where: Place, file: string): string {
  if ('atEnd' in where) return `${text}\n${block}`;
  if ('afterImports' in where) {
    const lines = text.split('\n');
    const last = lines.findLastIndex((line) => line.startsWith('import '));
    if (last === -1) throw new Error(`${file} has no import line to add after (update ${DOC} and this test)`);
    return [...lines.slice(0, last + 1), block.replace(/\n$/, ''), ...lines.slice(last + 1)].join('\n');
  }
  if (!('before' in where)) throw new Error(`${file}: a new file is written, not placed`);
  const at = text.lastIndexOf(where.before);
  if (at === -1) throw new Error(`${file} no longer has the line the walk-through inserts before: ${where.before} (update ${DOC} and this test)`);
  return text.slice(0, at) + block + text.slice(at);
}

let repository: RepositoryCopy;
let copy: string;
let typecheck: Promise<ScriptRun>;
let docs: ScriptRun;
let tests: ScriptRun;

beforeAll(async () => {
  const blocks = walkthroughBlocks(await readFile(DOC, 'utf8'));
  repository = await copyRepository('walkthrough-');
  copy = repository.dir;
  for (const [name, file, where] of EDITS) {
    const block = blocks.get(name);
    if (block === undefined) throw new Error(`${DOC} has no \`\`\`ts walkthrough=${name} block`);
    const path = join(copy, file);
    await writeFile(path, 'create' in where ? block : place(await readFile(path, 'utf8'), block, where, file));
  }
  typecheck = runNode(['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: copy, timeoutMs: LIMIT_MS });
  docs = await runNode(['--import', 'tsx', 'scripts/docs.ts', '--write'], { cwd: copy, timeoutMs: 60_000 });
  tests = await runNode(['node_modules/vitest/vitest.mjs', 'run', NEW_TEST, ...CATALOGUE_TESTS], { cwd: copy, timeoutMs: LIMIT_MS });
  await typecheck;
}, LIMIT_MS + 30_000);

afterAll(async () => {
  await typecheck?.catch(() => undefined);
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('adding an operation mapped to api2 (docs/adding-an-operation.md)', () => {
  it('touches at most six files by hand, as many as the page says, and the generated docs by npm run docs -- --write', async () => {
    expect(docs.code, docs.stderr).toBe(0);
    const created = HAND_FILES.filter((file) => !repository.tracked.includes(file));
    for (const file of created) expect(existsSync(join(copy, file)), file).toBe(true);
    const changed = await repository.changed();
    expect([...changed.filter((file) => !GENERATED.includes(file)), ...created].sort()).toEqual(HAND_FILES);
    expect(changed).toContain('docs/operations.md');
    expect(HAND_FILES.length).toBeLessThanOrEqual(6);
    const counted = /^\| files by hand \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|$/m.exec(await readFile(DOC, 'utf8'));
    expect(Number(counted?.[2]), `${DOC}: the files-by-hand row of its table`).toBe(HAND_FILES.length);
    const operations = await readFile(join(copy, 'docs/operations.md'), 'utf8');
    expect(operations).toContain('| `recipes.get` | Read one recipe: its search fields, ingredients and instructions |');
    expect(operations).toContain('| `recipes.get` (GET /recipe/{id}) | mapped | `GET /recipe/{id}` |');
  });

  it('typechecks', async () => {
    const run = await typecheck;
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it("passes the new operation's test (gateway in api2 mode and the sandboxes) and every test that holds all operations", () => {
    const output = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '');
    expect(tests.code, output.slice(-6000)).toBe(0);
    // Vitest names the project a file ran in between the mark and the file (vitest.config.ts has two).
    const passed = (file: string, tail = ''): RegExp => new RegExp(`✓ +(?:[\\w-]+ +)?${file.replace(/[.]/g, '\\.')} ${tail}`);
    expect(output).toMatch(passed(NEW_TEST, '\\(3 tests\\)'));
    for (const file of CATALOGUE_TESTS) expect(output).toMatch(passed(file));
  });
});
