/** The operation catalogue of docs/operations.md, generated from src/catalogue/operations.ts. */
import { OPERATIONS } from '../../src/catalogue/operations.js';
import type { AuthRequirement } from '../../src/catalogue/operations.js';

const AUTH: Readonly<Record<AuthRequirement, string>> = {
  key: 'api_key',
  user: 'api_key and user (Basic)',
  'key-optional-user': 'api_key; user optional',
};

export function operationCatalogueMarkdown(): string {
  const lines = [
    '| id | what | as published | other accepted forms | credentials | parameters (required in bold) | scheme listed |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const op of OPERATIONS) {
    const published = op.forms.filter((f) => f.kind !== 'regular').map((f) => `\`${f.method} ${f.template}\`${f.kind === 'malformed' ? ' (malformed)' : ''}`);
    const regular = op.forms.filter((f) => f.kind === 'regular').map((f) => `\`${f.method} ${f.template}\``);
    const params = op.params.map((p) => `${p.required ? `**${p.name}**` : p.name}${p.paidPlan ? ' (paid plan)' : ''}`);
    lines.push(
      `| \`${op.id}\` | ${op.summary} | ${published.join('<br>') || '—'} | ${regular.join('<br>') || '—'} | ${AUTH[op.auth]} | ${params.join(', ') || '—'} | ${op.documentedScheme} |`,
    );
  }
  return lines.join('\n');
}
