/**
 * A client's migration guide as Markdown (model.ts has what it holds). Values from the log (the
 * client's label) and the config (links) are written in code spans or angle-bracket links, with
 * backticks and angle brackets taken out so they cannot end them.
 */
import { formatCount } from '../../display/format.js';
import type { DeprecationNotice } from '../../config/deprecation.js';
import type { Guide, GuideOperation } from './model.js';
import { dateInWords, dayInWords } from '../../display/time.js';
import { API2_BASE_URL_PLACEHOLDER } from './curl-line.js';

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
const link = (url: string): string => `<${url.replace(/[<>\s]/g, encodeURIComponent)}>`;

/** The dates and pages of a notice, one phrase each; empty without any. */
export function noticePhrases(notice: DeprecationNotice | undefined, wrapLink: (url: string) => string = link): string[] {
  if (!notice) return [];
  const out: string[] = [];
  if (notice.deprecatedAt !== undefined) out.push(`deprecated since ${dayInWords(notice.deprecatedAt)}`);
  if (notice.deprecationLink !== undefined) out.push(`deprecation notice: ${wrapLink(notice.deprecationLink)}`);
  if (notice.sunsetAt !== undefined) out.push(`goes away on ${dayInWords(notice.sunsetAt)}`);
  if (notice.sunsetLink !== undefined) out.push(`sunset notice: ${wrapLink(notice.sunsetLink)}`);
  return out;
}

const sides = (op: GuideOperation): string => op.bySide.map(([side, n]) => `${side} ${formatCount(n)}`).join(', ');

function usageLine(op: GuideOperation): string {
  return `- Legacy: ${code(op.legacy)}: ${formatCount(op.requests)} requests (answered by ${sides(op)}); first used ${dateInWords(op.firstUse)}; last used ${dateInWords(op.lastUse)}`;
}

/** Whose legacy request the api2 call is shown for: the client's own most frequent one, or the catalogue's example. */
export const whose = (example: { readonly own: boolean }): string => (example.own ? 'your most frequent request' : 'the example request');

function movableSection(op: GuideOperation): string[] {
  const out = [`### ${op.operation}: ${op.summary}`, '', usageLine(op)];
  const api2 = op.api2!;
  if (api2.example) {
    out.push(`- api2: ${code(api2.example.request)} (for ${whose(api2.example)} ${code(api2.example.legacy)})`);
    if (api2.example.query.length > 0) out.push(`  - query parameters: ${api2.example.query.map(code).join(', ')}`);
    if (api2.example.body.length > 0) out.push(`  - JSON body fields: ${api2.example.body.map(code).join(', ')}`);
  }
  if (op.curl !== undefined) out.push('- try it:', '', '  ```sh', `  ${op.curl}`, '  ```', '');
  out.push(`- api2 calls: ${api2.calls.map(code).join(', ')}`);
  out.push(`- headers: ${api2.headers.map(code).join(', ')}`);
  out.push(op.losses.length === 0 ? '- fields lost: none' : `- fields lost: ${op.losses.map((l) => `${code(l.field)} (the gateway fills ${code(JSON.stringify(l.fill))}: ${l.why})`).join('; ')}`);
  if (op.differences.length > 0) out.push(`- differences: ${op.differences.join('; ')}`);
  const dates = noticePhrases(op.notice);
  if (dates.length > 0) out.push(`- dates: ${dates.join('; ')}`);
  out.push('');
  return out;
}

function legacyOnlySection(op: GuideOperation): string[] {
  const dates = noticePhrases(op.notice);
  return [`### ${op.operation}: ${op.summary}`, '', usageLine(op), `- no api2 equivalent yet: ${op.whyNot}`, ...(dates.length > 0 ? [`- dates: ${dates.join('; ')}`] : []), ''];
}

/** Where api2 is, or what to set when the guide was made without the gateway's config. */
export function api2Where(guide: Guide): string {
  return guide.api2BaseUrl === API2_BASE_URL_PLACEHOLDER
    ? `api2's base URL was not given (make the guide with --config): set ${API2_BASE_URL_PLACEHOLDER} to it, $API2_KEY to your api key and, where a call acts for a user, $API2_USER and $API2_PASSWORD, then run the curl lines below.`
    : `api2 is at ${link(guide.api2BaseUrl)}. Set $API2_KEY to your api key and, where a call acts for a user, $API2_USER and $API2_PASSWORD, then run the curl lines below.`;
}

/** The client programs, most requests first: User-Agent product names from the log, so in code spans. */
const programsText = (guide: Guide): string => guide.programs.map((p) => `${code(p.program)} (${formatCount(p.requests)} requests)`).join(', ');

export function renderGuideMarkdown(guide: Guide): string {
  const total = [...guide.movable, ...guide.legacyOnly].reduce((sum, op) => sum + op.requests, 0);
  const out = [
    `# Migration guide for ${code(guide.client)}`,
    '',
    `Your application (client ${guide.hashes.map(code).join(', ')}) made ${formatCount(total)} requests to the legacy interface from ${dateInWords(guide.from)} to ${dateInWords(guide.to)} (from ${guide.sources.join(', ')}).`,
    '',
    api2Where(guide),
    '',
  ];
  if (guide.programs.length > 0) out.push(`Seen from: ${programsText(guide)}.`, '');
  const dates = noticePhrases(guide.notice);
  out.push('## Dates', '', dates.length > 0 ? `The legacy interface: ${dates.join('; ')}.` : 'No date is set for the whole legacy interface; per operation dates, when set, are below.', '');
  out.push('## Operations to move to api2', '');
  if (guide.movable.length === 0) out.push('(none)', '');
  for (const op of guide.movable) out.push(...movableSection(op));
  out.push('## Operations with no api2 equivalent yet', '');
  if (guide.legacyOnly.length === 0) out.push('(none)', '');
  for (const op of guide.legacyOnly) out.push(...legacyOnlySection(op));
  if (guide.uncatalogued > 0) out.push(`It also made ${formatCount(guide.uncatalogued)} calls no catalogued operation matches.`, '');
  return out.join('\n');
}
