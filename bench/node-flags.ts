/**
 * The Node flags the gateway runs with in production: those of `npm run serve` in package.json
 * (the Dockerfile's entrypoint repeats them, held equal by a test). Every Node process the bench
 * measures gets them, gateways and anchors alike, so a ratio compares code, not flags.
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
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('--')) break;
    flags.push(word);
  }
  return flags;
}
