/**
 * The import graph of the project's TypeScript files, read from their text: each file's relative
 * imports that resolve to a file of the set. Every static import and export-from counts
 * (type-only ones included), and dynamic `import()` too.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function typescriptFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...typescriptFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

const SPECIFIERS = [
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/g,
  /(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g,
  /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g,
];

/** Each file's relative imports that resolve to a file of the set. */
export function importGraph(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = read(file);
    const targets = new Set<string>();
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const base = resolve(dirname(file), match[1] ?? '');
        const target = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
        if (target) targets.add(target);
      }
    }
    graph.set(file, [...targets]);
  }
  return graph;
}
