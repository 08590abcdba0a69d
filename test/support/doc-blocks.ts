/**
 * The shell blocks of the README and docs/*.md. A block's info string says how it is checked:
 *   ```sh runnable          run against a started sandbox (npm start)
 *   ```sh runnable api2     run against a sandbox started with --api2
 *   ```sh by=FILE [FILE…]   long-running or setup commands, run by the named test or script
 *   ```sh manual (why)      needs what no test machine has (a Docker engine)
 * A runnable block may be followed by an ```output block: each of its lines must be in the output.
 */
import { readFile, readdir } from 'node:fs/promises';

export interface DocBlock {
  readonly file: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
  readonly expectedOutput: readonly string[];
}

const FENCE = /^```(\S*)(.*)$/;

export async function docFiles(): Promise<string[]> {
  return ['README.md', ...(await readdir('docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
}

export async function shellBlocks(): Promise<DocBlock[]> {
  const blocks: DocBlock[] = [];
  for (const file of await docFiles()) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    const fenced: Array<{ lang: string; info: string; line: number; code: string }> = [];
    for (let i = 0; i < lines.length; i++) {
      const open = FENCE.exec(lines[i] ?? '');
      if (!open) continue;
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) body.push(lines[i] ?? '');
      fenced.push({ lang: open[1] ?? '', info: (open[2] ?? '').trim(), line: start + 1, code: body.join('\n') });
    }
    fenced.forEach((block, index) => {
      if (block.lang !== 'sh') return;
      const next = fenced[index + 1];
      const output = next?.lang === 'output' && lines.slice(block.line + block.code.split('\n').length, next.line - 1).every((l) => l.trim() === '') ? next.code.split('\n').filter(Boolean) : [];
      blocks.push({ file, line: block.line, info: block.info, code: block.code, expectedOutput: output });
    });
  }
  return blocks;
}
