/**
 * docs/adding-an-operation.md, kept true the way a developer would find it: a copy of this
 * repository gets exactly the edits the page shows for a pass-through-only `GET /recipe/{id}/nutrition`
 * (its catalogue entry, the sandbox's row and data for it, one test: four files) and `npm run docs -- --write`.
 * Then only those four files and the generated docs/operations.md differ from the repository,
 * `npm run typecheck` passes, and the new test (through a real gateway in front of the sandbox
 * legacy backend) and the tests that hold every operation pass in the copy. Nothing is injected:
 * the copy's gateway finds the operation in its own catalogue.
 *
 * Bounded: the typecheck runs beside the docs and the tests (about a minute on a loaded machine;
 * each child is killed after its time limit).
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository, walkthroughBlocks } from './support/repo-copy.js';
import { runNode } from './support/run-script.js';
import type { ScriptRun } from './support/run-script.js';

const DOC = 'docs/adding-an-operation.md';
const NEW_TEST = 'test/recipe-nutrition-passes-through-unchanged.test.ts';
/** Where each block of the page goes: the file, and the line it is inserted before (the last one, for `] as const;`). */
const EDITS = {
  entry: { file: 'src/catalogue/entries/recipes.ts', before: '] as const;' },
  row: { file: 'src/sandbox/behaviour.ts', before: '};' },
  sandbox: { file: 'src/sandbox/legacy-store.ts', before: '  // ------------------------------------------------------------ reviews' },
} as const;
/** The tests that hold every operation, run in the copy with the new one. */
const CATALOGUE_TESTS = [
  'test/route-table-accepts-every-legacy-form.test.ts',
  'test/capability-matrix-is-generated-and-current.test.ts',
  'test/catalogue-says-whether-each-operation-can-move-to-api2.test.ts',
  'test/docs-are-generated-and-current.test.ts',
  'test/sandbox-legacy-backend.test.ts',
  'test/gateway-passes-every-operation-through-unchanged.test.ts',
];
const LIMIT_MS = 240_000;

function insertBefore(text: string, anchor: string, block: string, file: string): string {
  const at = text.lastIndexOf(anchor);
  if (at === -1) throw new Error(`${file} no longer has the line the walk-through inserts before: ${anchor} (update ${DOC} and this test)`);
  return text.slice(0, at) + block + text.slice(at);
}

let copy: string;
let tracked: string[];
let typecheck: Promise<ScriptRun>;
let docs: ScriptRun;
let tests: ScriptRun;

beforeAll(async () => {
  const blocks = walkthroughBlocks(await readFile(DOC, 'utf8'));
  const repository = await copyRepository('walkthrough-');
  copy = repository.dir;
  tracked = [...repository.tracked];

  for (const [name, { file, before }] of Object.entries(EDITS)) {
    const block = blocks.get(name);
    if (block === undefined) throw new Error(`${DOC} has no \`\`\`ts walkthrough=${name} block`);
    const path = join(copy, file);
    await writeFile(path, insertBefore(await readFile(path, 'utf8'), before, block, file));
  }
  const test = blocks.get('test');
  if (test === undefined) throw new Error(`${DOC} has no \`\`\`ts walkthrough=test block`);
  await writeFile(join(copy, NEW_TEST), test);

  typecheck = runNode(['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: copy, timeoutMs: LIMIT_MS });
  docs = await runNode(['--import', 'tsx', 'scripts/docs.ts', '--write'], { cwd: copy, timeoutMs: 60_000 });
  tests = await runNode(['node_modules/vitest/vitest.mjs', 'run', NEW_TEST, ...CATALOGUE_TESTS], { cwd: copy, timeoutMs: LIMIT_MS });
  await typecheck;
}, LIMIT_MS + 30_000);

afterAll(async () => {
  await typecheck?.catch(() => undefined);
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('adding a pass-through-only operation (docs/adding-an-operation.md)', () => {
  it('changes four files by hand, and docs/operations.md by npm run docs -- --write', async () => {
    expect(docs.code, docs.stderr).toBe(0);
    const changed: string[] = [];
    for (const file of tracked) if (!(await readFile(join(copy, file))).equals(await readFile(file))) changed.push(file);
    expect(existsSync(join(copy, NEW_TEST))).toBe(true);
    expect(changed.sort()).toEqual(['docs/operations.md', EDITS.entry.file, EDITS.row.file, EDITS.sandbox.file].sort());
    const operations = await readFile(join(copy, 'docs/operations.md'), 'utf8');
    expect(operations).toContain('| `recipes.nutrition` | Read the nutrition facts of one recipe, per serving | — | `GET /recipe/{id}/nutrition` | api_key |');
    expect(operations).toContain('| `recipes.nutrition` (GET /recipe/{id}/nutrition) | legacy only |');
  });

  it('typechecks', async () => {
    const run = await typecheck;
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it("passes the new operation's test (gateway and sandbox) and every test that holds all operations", () => {
    const output = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '');
    expect(tests.code, output.slice(-6000)).toBe(0);
    expect(output).toMatch(new RegExp(`✓ ${NEW_TEST.replace(/[.]/g, '\\.')} \\(3 tests\\)`));
  });
});
