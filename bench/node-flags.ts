/**
 * Production's Node flags, those of `npm run serve` (the Dockerfile repeats them, a test holds them
 * equal): every Node process the bench measures gets them, so a ratio compares code, not flags.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's package.json, from bench/ or from its compiled copy in .bench-build/bench/. */
function packageJsonPath(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('no package.json above bench/');
}

export function servedNodeFlags(packageJson: string = packageJsonPath()): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> };
  const words = (scripts['serve'] ?? '').split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json: the serve script should start with node, not ${JSON.stringify(words[0])}`);
  const end = words.findIndex((word, index) => index > 0 && !word.startsWith('--'));
  return words.slice(1, end === -1 ? undefined : end);
}
