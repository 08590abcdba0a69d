/**
 * `npm run docs`: checks that every generated part of docs/ is current (exit 1 naming the stale
 * ones); `npm run docs -- --write` rewrites them: the configuration reference (from the zod schema),
 * the operation catalogue and capability matrix (from the catalogue and the mappings), and the index
 * of DECISION markers in the code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { GENERATED_SECTIONS, withSection } from './docs/sections.js';

const write = process.argv.includes('--write');
const stale: string[] = [];
const texts = new Map<string, string>();
for (const section of GENERATED_SECTIONS) {
  const text = texts.get(section.file) ?? (await readFile(section.file, 'utf8'));
  texts.set(section.file, withSection(text, section.name, await section.render()));
}
for (const [file, text] of texts) {
  if (text === (await readFile(file, 'utf8'))) continue;
  stale.push(file);
  if (write) await writeFile(file, text);
}
if (stale.length === 0) console.log('docs: every generated section is current');
else if (write) console.log(`docs: rewrote ${stale.join(', ')}`);
else {
  console.error(`docs: out of date: ${stale.join(', ')} (run npm run docs -- --write)`);
  process.exitCode = 1;
}
