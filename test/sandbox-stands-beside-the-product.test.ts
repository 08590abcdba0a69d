/**
 * The sandbox (src/sandbox/: the test-double backends and their dataset) stands beside the
 * product, never under it: no file of src/ or mappings/ outside src/sandbox/ imports it, except
 * the start-up code that wires it (`npm start` without a config, src/node/main.ts; the report's
 * guide command, src/cli/report.ts, hands the guide the sandbox's example requests). Tests and
 * the bench may import it. Every import counts (type-only, re-export and dynamic).
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, typescriptFiles } from './support/import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const SANDBOX = 'src/sandbox/';
/** The start-up code that wires the sandbox in. */
const WIRING = new Set(['src/node/main.ts', 'src/cli/report.ts']);

/** Each import into the sandbox from a file that is neither the sandbox nor its wiring, as `from -> to`. */
function importsIntoSandbox(graph: ReadonlyMap<string, readonly string[]>, root: string): string[] {
  const name = (file: string): string => relative(root, file);
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (name(file).startsWith(SANDBOX) || WIRING.has(name(file))) continue;
    for (const target of targets) if (name(target).startsWith(SANDBOX)) found.push(`${name(file)} -> ${name(target)}`);
  }
  return found.sort();
}

describe('the sandbox stands beside the product', () => {
  it('an import into the sandbox from the product is found (type-only and dynamic ones too); the sandbox and its wiring may', () => {
    const sources: Record<string, string> = {
      '/r/src/catalogue/entry.ts': "import type { SandboxAction } from '../sandbox/legacy-values.js';",
      '/r/src/app.ts': "const s = await import('./sandbox/dataset/dataset.js');",
      '/r/src/node/main.ts': "import { startLegacySandbox } from '../sandbox/start.js';",
      '/r/src/sandbox/start.ts': "import { x } from './legacy-values.js';\nimport { y } from '../catalogue/entry.js';",
      '/r/src/sandbox/legacy-values.ts': 'export const x = 1;',
      '/r/src/sandbox/dataset/dataset.ts': 'export const d = 1;',
    };
    const graph = importGraph(Object.keys(sources), (file) => sources[file] ?? '');
    expect(importsIntoSandbox(graph, '/r')).toEqual(['src/app.ts -> src/sandbox/dataset/dataset.ts', 'src/catalogue/entry.ts -> src/sandbox/legacy-values.ts']);
  });

  it('nothing in src or mappings outside src/sandbox imports it, but the start-up code (src/node/main.ts, src/cli/report.ts)', () => {
    const files = ['src', 'mappings'].flatMap((folder) => typescriptFiles(join(ROOT, folder)));
    const graph = importGraph(files, (file) => readFileSync(file, 'utf8'));
    expect(files.filter((file) => relative(ROOT, file).startsWith(SANDBOX)).length).toBeGreaterThan(10);
    expect(importsIntoSandbox(graph, ROOT)).toEqual([]);
    // The wiring is real: main.ts does import the sandbox (else the exception would be stale).
    expect(graph.get(join(ROOT, 'src/node/main.ts'))?.some((target) => relative(ROOT, target).startsWith(SANDBOX))).toBe(true);
  });
});
