/**
 * No import circle among the TypeScript files of src/ and mappings/: each module's dependencies
 * run one way, so a module can be read, tested and changed without the ones that use it. Every
 * static import and export-from counts (type-only ones included: a type circle is a design
 * circle), and dynamic `import()` too. A circle fails the test naming its files.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, typescriptFiles } from './support/import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'mappings'];

/** The strongly connected components of more than one file (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('import circles', () => {
  it('are found when there is one (type-only, re-export and dynamic imports included)', () => {
    const sources: Record<string, string> = {
      '/x/a.ts': "import type { B } from './b.js';\nexport const a = 1;",
      '/x/b.ts': "export { c } from './c.js';\nexport type B = number;",
      '/x/c.ts': "export const c = async () => import('./a.js');",
      '/x/d.ts': "import { a } from './a.js';",
    };
    const graph = importGraph(Object.keys(sources), (file) => sources[file] ?? '');
    expect(circles(graph)).toEqual([['/x/a.ts', '/x/b.ts', '/x/c.ts']]);
  });

  it('there is none in src or mappings', () => {
    const files = FOLDERS.flatMap((folder) => typescriptFiles(join(ROOT, folder)));
    const graph = importGraph(files, (file) => readFileSync(file, 'utf8'));
    // The graph is read (not empty): most files import another.
    expect([...graph.values()].filter((targets) => targets.length > 0).length).toBeGreaterThan(files.length / 2);
    const named = circles(graph).map((circle) => circle.map((file) => relative(ROOT, file)).join(' <-> '));
    expect(named).toEqual([]);
  });
});
