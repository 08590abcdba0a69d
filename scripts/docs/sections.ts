/**
 * The generated parts of the documentation. Each lives in a docs file between two markers and is
 * rewritten by `npm run docs -- --write`; test/docs-are-generated-and-current.test.ts fails when a
 * copy differs from what the code generates now (`npm run docs` says which).
 */
import { capabilityMatrixMarkdown } from '../../src/catalogue/capability-matrix.js';
import { configReferenceMarkdown } from './config-reference.js';
import { decisionIndexMarkdown } from './decision-index.js';
import { breakerLineFieldsMarkdown, clickHouseTableMarkdown, requestLineFieldsMarkdown, shadowLineFieldsMarkdown } from './log-fields.js';
import { operationCatalogueMarkdown } from './operation-catalogue.js';
import { schemeCasesMarkdown } from './scheme-cases.js';

export interface GeneratedSection {
  /** Docs file, from the repository root. */
  readonly file: string;
  readonly name: string;
  readonly render: () => string | Promise<string>;
}

export const GENERATED_SECTIONS: readonly GeneratedSection[] = [
  { file: 'docs/configuration.md', name: 'config-reference', render: configReferenceMarkdown },
  { file: 'docs/operations.md', name: 'operation-catalogue', render: operationCatalogueMarkdown },
  { file: 'docs/operations.md', name: 'capability-matrix', render: capabilityMatrixMarkdown },
  { file: 'docs/decisions.md', name: 'decision-index', render: decisionIndexMarkdown },
  { file: 'docs/hosts-and-schemes.md', name: 'scheme-cases', render: schemeCasesMarkdown },
  { file: 'docs/usage-log-and-report.md', name: 'request-line-fields', render: requestLineFieldsMarkdown },
  { file: 'docs/usage-log-and-report.md', name: 'shadow-line-fields', render: shadowLineFieldsMarkdown },
  { file: 'docs/usage-log-and-report.md', name: 'breaker-line-fields', render: breakerLineFieldsMarkdown },
  { file: 'docs/analytics-clickhouse.md', name: 'clickhouse-table', render: clickHouseTableMarkdown },
];

const start = (name: string): string => `<!-- generated:${name} start (npm run docs -- --write) -->`;
const end = (name: string): string => `<!-- generated:${name} end -->`;

/** The text with the section between its markers replaced; throws when the markers are missing. */
export function withSection(text: string, name: string, content: string): string {
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from === -1 || to < from) throw new Error(`the markers of the generated section ${name} are missing: ${start(name)} … ${end(name)}`);
  return `${text.slice(0, from)}${start(name)}\n${content}\n${text.slice(to)}`;
}
