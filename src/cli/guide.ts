/**
 * Node-only: `recipe-gateway-report guide` (`npm run report -- guide …`): one migration guide per
 * client (label, or client hash) from its usage lines, in Markdown or HTML. Exit 0 once written,
 * 1 when a named client has no line in the period (or ClickHouse failed), 2 for a usage error.
 * docs/usage-log-and-report.md, "A migration guide per client".
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigFile } from '../node/config-file.js';
import type { DeprecationConfig } from '../config/deprecation.js';
import { firstUnreadable } from '../report/read-lines.js';
import { DEFAULT_TABLE, isTableName } from '../report/sources/clickhouse-ddl.js';
import { clickHouseTarget } from '../report/sources/clickhouse-http.js';
import { guideOf } from '../report/guide/model.js';
import type { ExampleRequests } from '../report/guide/api2-example.js';
import { renderGuideHtml } from '../report/guide/render-html.js';
import { renderGuideMarkdown } from '../report/guide/render-markdown.js';
import { usageFromClickHouse, usageFromFiles } from '../report/guide/sources.js';
import type { GuideFilter } from '../report/guide/usage.js';

export const GUIDE_USAGE = `usage: npm run report -- guide (--client LABEL... | --all) [options] <log files | - | --clickhouse URL>

  --client LABEL     the client: its label (observability.clientLabels) or client hash; repeatable
  --all              every client seen in the period, one page each (--out DIR required)
  --since WHEN       count lines from then: a date, an ISO date-time, or N days back (30d); default all
  --format FORMAT    markdown (default) or html
  --out PATH         the page's file (one client; default stdout), or the directory of the pages (--all)
  --config FILE      the gateway's config: the deprecation dates and pages it announces, and api2's
                     base URL (upstreams.api2.baseUrl) for the curl lines (else $API2_BASE_URL)
  --clickhouse URL   read the usage-log table in ClickHouse instead of files (--table NAME, --timeout SECONDS)
`;

const fail = (message: string, code = 2): number => {
  process.stderr.write(`guide: ${message}\n`);
  return code;
};

/** Epoch ms of `--since`, or undefined when it is not a date, a date-time or `N` days. */
export function sinceOf(text: string | undefined, now = Date.now()): number | undefined {
  if (text === undefined) return 0;
  const days = /^(\d+)d$/.exec(text);
  if (days) return now - Number(days[1]) * 86_400_000;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A client's name as a file name: what is not a letter, digit, `.`, `_` or `-` becomes `_`. */
const fileName = (client: string, format: string): string => `${client.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_')}.${format === 'html' ? 'html' : 'md'}`;

export async function runGuide(argv: readonly string[], examples: ExampleRequests): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        client: { type: 'string', multiple: true },
        all: { type: 'boolean', default: false },
        since: { type: 'string' },
        format: { type: 'string', default: 'markdown' },
        out: { type: 'string' },
        config: { type: 'string' },
        clickhouse: { type: 'string' },
        table: { type: 'string', default: DEFAULT_TABLE },
        timeout: { type: 'string', default: '60' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${GUIDE_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(GUIDE_USAGE);
    return 0;
  }
  const clients = values.client ?? [];
  if ((clients.length === 0) === !values.all) return fail(`give --client LABEL or --all\n${GUIDE_USAGE}`);
  if (values.all && values.out === undefined) return fail('--all writes one page per client: give --out DIR');
  if (values.format !== 'markdown' && values.format !== 'html') return fail('--format: markdown or html');
  const since = sinceOf(values.since);
  if (since === undefined) return fail(`--since: not a date, a date-time or a number of days (30d): ${values.since}`);
  if (!isTableName(values.table)) return fail(`--table: not a table name: ${values.table}`);
  if (values.clickhouse !== undefined ? positionals.length > 0 : positionals.length === 0) return fail(`name the log files (or -), or --clickhouse URL\n${GUIDE_USAGE}`);
  const unreadable = await firstUnreadable(positionals);
  if (unreadable !== undefined) return fail(`cannot read ${unreadable}`);

  let deprecation: DeprecationConfig | undefined;
  let api2BaseUrl: string | undefined;
  if (values.config !== undefined) {
    const loaded = await loadConfigFile(values.config);
    if (!loaded.ok) return fail(`--config ${values.config}: ${loaded.errors.join('; ')}`);
    deprecation = loaded.config.deprecation;
    api2BaseUrl = loaded.config.upstreams.api2?.baseUrl;
  }

  const filter: GuideFilter = { since, clients: values.all ? undefined : new Set(clients) };
  const target = values.clickhouse !== undefined ? clickHouseTarget(values.clickhouse, Number(values.timeout) * 1000) : undefined;
  const tally = target ? await usageFromClickHouse(target, values.table, filter) : await usageFromFiles(positionals, filter);
  const sources = target ? [`${target.shown} (table ${values.table})`] : positionals.map((input) => (input === '-' ? 'stdin' : input));
  const missing = clients.filter((client) => ![...tally.clients.values()].some((usage) => usage.client === client || usage.hashes.has(client)));
  if (missing.length > 0) return fail(`no usage line of ${missing.join(', ')} in the period`, 1);

  const render = values.format === 'html' ? renderGuideHtml : renderGuideMarkdown;
  const usages = [...tally.clients.values()].sort((a, b) => a.client.localeCompare(b.client));
  if (values.all) await mkdir(values.out!, { recursive: true });
  const pages: string[] = [];
  for (const usage of usages) {
    const page = render(await guideOf(usage, deprecation, sources, examples, api2BaseUrl));
    if (values.all) await writeFile(join(values.out!, fileName(usage.client, values.format)), page);
    else pages.push(page);
  }
  if (!values.all && values.out !== undefined) await writeFile(values.out, pages.join('\n'));
  else if (!values.all) process.stdout.write(pages.join('\n'));
  if (values.all || values.out !== undefined) process.stderr.write(`${usages.length} guide${usages.length === 1 ? '' : 's'} written to ${values.out}\n`);
  return 0;
}
