/**
 * `npm run capabilities`: prints the capability matrix generated from the catalogue entries' api2
 * mappings and legacy-only reasons.
 * `npm run capabilities -- --write`: rewrites every generated part of docs/ (as `npm run docs -- --write`),
 * the matrix in docs/operations.md among them.
 */
import { capabilityMatrixMarkdown } from '../src/catalogue/capability-matrix.js';

if (process.argv.includes('--write')) await import('./docs.js');
else console.log(capabilityMatrixMarkdown());
