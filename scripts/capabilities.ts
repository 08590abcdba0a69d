/**
 * `npm run capabilities`: prints the capability matrix generated from the mapping modules.
 * `npm run capabilities -- --write`: embeds it in README.md between its markers.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { capabilityMatrixMarkdown, withCurrentMatrix } from '../mappings/capability-matrix.js';

if (process.argv.includes('--write')) {
  const readme = await readFile('README.md', 'utf8');
  await writeFile('README.md', withCurrentMatrix(readme));
  console.log('README.md: capability matrix updated');
} else {
  console.log(capabilityMatrixMarkdown());
}
