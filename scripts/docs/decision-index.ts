/**
 * The index of `DECISION` markers in the code for docs/decisions.md: every place where the code
 * decides a fact the legacy document leaves open, by file, with the sentence that states it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['src', 'mappings'];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []))),
  );
  return nested.flat().sort();
}

/** The comment text from the marker's line on: comment markers stripped, up to the end of its comment block, at most ~300 characters. */
function statement(lines: readonly string[], at: number): string {
  const parts: string[] = [];
  for (let i = at; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const comment = /^\s*(?:\/\*\*?|\*(?!\/)|\/\/)\s?(.*?)\s*(\*\/)?\s*$/.exec(line) ?? (i === at ? /(?:\/\/|\/\*\*?)\s*(.*?)\s*(\*\/)?\s*$/.exec(line) : null);
    if (!comment) break;
    const text = comment[1] ?? '';
    if (i > at && text === '') break;
    parts.push(text);
    if (comment[2] || parts.join(' ').length > 300) break;
  }
  const joined = parts.join(' ').replace(/\s+/g, ' ').trim();
  return joined.length > 300 ? `${joined.slice(0, 297).replace(/\s+\S*$/, '')} …` : joined;
}

export async function decisionIndexMarkdown(): Promise<string> {
  const lines = ['| where | decision (as the code states it) |', '|---|---|'];
  for (const folder of FOLDERS) {
    for (const file of await sourceFiles(join(ROOT, folder))) {
      const text = (await readFile(file, 'utf8')).split('\n');
      text.forEach((line, index) => {
        if (!/\bDECISIONS?\b/.test(line)) return;
        lines.push(`| \`${relative(ROOT, file)}\` | ${statement(text, index).replace(/\|/g, '\\|')} |`);
      });
    }
  }
  return lines.join('\n');
}
