/**
 * Runs bench/cache-memory-child in its own process with --expose-gc (so the figure is the cache's,
 * not the load generator's) and returns what it measured.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CacheMemory } from './report.js';

const COMPILED = import.meta.url.endsWith('.js');

export function measureCacheMemory(): Promise<CacheMemory> {
  const file = fileURLToPath(new URL(COMPILED ? './cache-memory-child.js' : './cache-memory-child.ts', import.meta.url));
  const args = ['--expose-gc', ...(COMPILED ? [] : ['--import', 'tsx']), file];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 120_000 }, (error, stdout) => {
      if (error) return reject(error);
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as CacheMemory);
      } catch (parseError) {
        reject(parseError instanceof Error ? parseError : new Error(String(parseError)));
      }
    });
  });
}
