/**
 * The capability matrix of docs/operations.md, generated from the catalogue entries' mappings
 * (never written by hand): for every catalogued operation, whether it can be routed to api2, the
 * api2 calls it makes, its declared losses, behaviour differences and inferences.
 */
import { operationById } from './operations.js';
import { capabilities } from './movability.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function capabilityMatrixMarkdown(): string {
  const rows = capabilities();
  const mapped = rows.filter((row) => row.mapped).length;
  const lines = [
    `${mapped} operations can be answered through api2; ${rows.length - mapped} stay on the legacy backend. ` +
      'Every operation runs on the legacy backend (pass-through) by default. [I] marks an inference no source confirms.',
    '',
    '| operation | api2 | api2 calls | losses (legacy field: filled with) | differences and inferences |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const op = operationById(row.operation);
    const name = `\`${row.operation}\` (${op.forms[0]?.method} ${op.forms[0]?.template})`;
    if (!row.mapped) {
      lines.push(`| ${name} | legacy only | — | — | ${cell(row.why)} |`);
      continue;
    }
    const { mapping } = row;
    const calls = mapping.api2Calls.map((c) => `\`${cell(c)}\``).join('<br>');
    const losses = mapping.losses.length === 0 ? 'none' : mapping.losses.map((l) => `${cell(l.field)}: \`${JSON.stringify(l.fill)}\` (${cell(l.why)})`).join('<br>');
    const notes = [...mapping.differences, ...mapping.inferences.map((i) => (i.includes('[I]') ? i : `${i}`))];
    lines.push(`| ${name} | mapped | ${calls} | ${losses} | ${notes.length === 0 ? '—' : notes.map(cell).join('<br>')} |`);
  }
  return lines.join('\n');
}
