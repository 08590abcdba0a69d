/**
 * How a test starts an entry point of the product as a child process: the node arguments for it.
 * An entry under src/ or bench/ runs from the sources transpiled for this run
 * (transpiled-sources.ts), any other (scripts/, a test's own script) through tsx.
 */
import { join } from 'node:path';
import { inject } from 'vitest';

/** `node` arguments that run `entry` (a path from the repository root, e.g. `src/node/main.ts`). */
export function nodeArgsOf(entry: string): string[] {
  if (!entry.startsWith('src/') && !entry.startsWith('bench/')) return ['--import', 'tsx', entry];
  return [join(inject('transpiledSources'), entry.replace(/\.ts$/, '.js'))];
}
