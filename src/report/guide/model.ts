/**
 * A client's migration guide as data, made from its usage (usage.ts) and what the gateway knows of
 * each operation, never written per operation: the catalogue entry (its legacy form, whether it
 * can move: movability.ts), its mapping (the api2 request that replaces it, for the client's own
 * most frequent request: client-request.ts, api2-example.ts; the
 * declared losses and differences) and the deprecation settings (src/config/deprecation.ts).
 * Rendered as Markdown or HTML (render-markdown.ts, render-html.ts).
 */
import { isOperationId, operationById } from '../../catalogue/operations.js';
import { mappingFor, movability } from '../../catalogue/movability.js';
import { noticeFor } from '../../config/deprecation.js';
import type { DeprecationConfig, DeprecationNotice } from '../../config/deprecation.js';
import type { Loss } from '../../../mappings/types.js';
import { replacementFor } from './client-request.js';
import type { ExampleRequests } from './api2-example.js';
import type { Api2Replacement } from './api2-example.js';
import type { ClientUsage } from './usage.js';
import { topPrograms } from '../client-facts.js';
import { API2_BASE_URL_PLACEHOLDER, curlLine } from './curl-line.js';

export interface GuideOperation {
  readonly operation: string;
  readonly summary: string;
  /** The legacy form as the document writes it: `GET /recipes`. */
  readonly legacy: string;
  readonly requests: number;
  /** ISO times. */
  readonly firstUse: string;
  readonly lastUse: string;
  /** Requests per side that answered, most first. */
  readonly bySide: ReadonlyArray<readonly [string, number]>;
  /** The api2 request replacing it; undefined when it cannot move (`whyNot`). */
  readonly api2: Api2Replacement | undefined;
  /** Its api2 example as a curl line on the api2 base URL, secrets as placeholders (curl-line.ts); undefined without an example. */
  readonly curl: string | undefined;
  readonly whyNot: string | undefined;
  /** Legacy fields api2 cannot give, and what the gateway fills in. */
  readonly losses: readonly Loss[];
  /** Behaviour that differs on api2. */
  readonly differences: readonly string[];
  readonly notice: DeprecationNotice;
}

export interface Guide {
  /** The client's label, or its hash. */
  readonly client: string;
  readonly hashes: readonly string[];
  /** ISO times of its first and last request counted. */
  readonly from: string;
  readonly to: string;
  readonly sources: readonly string[];
  /** The operations it used that can move, most requests first. */
  readonly movable: readonly GuideOperation[];
  /** Those with no api2 equivalent yet. */
  readonly legacyOnly: readonly GuideOperation[];
  /** Calls no catalogued operation matches. */
  readonly uncatalogued: number;
  /** The client programs (User-Agent families) it called from, most first: which builds still call legacy. */
  readonly programs: ReadonlyArray<{ readonly program: string; readonly requests: number }>;
  /** The interface-wide settings, when set. */
  readonly notice: DeprecationNotice | undefined;
  /** Where api2 is: the config's `upstreams.api2.baseUrl`, or the placeholder the docs name. */
  readonly api2BaseUrl: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export async function guideOf(usage: ClientUsage, deprecation: DeprecationConfig | undefined, sources: readonly string[], examples: ExampleRequests, api2BaseUrl?: string): Promise<Guide> {
  const operations: GuideOperation[] = [];
  for (const [id, used] of usage.operations) {
    if (!isOperationId(id)) continue;
    const entry = operationById(id);
    const move = movability(id);
    const mapping = mappingFor(id);
    const api2 = await replacementFor(id, used.topRequests.ranked(), examples[id]);
    operations.push({
      operation: id,
      summary: entry.summary,
      legacy: `${entry.forms[0]!.method} ${entry.forms[0]!.template}`,
      requests: used.requests,
      firstUse: iso(used.first),
      lastUse: iso(used.last),
      bySide: [...used.bySide].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
      api2,
      curl: api2?.example ? curlLine(api2.example, api2BaseUrl, entry.auth === 'user') : undefined,
      whyNot: move.canMove ? undefined : move.reason,
      losses: mapping?.losses ?? [],
      differences: mapping?.differences ?? [],
      notice: deprecation ? noticeFor(deprecation, deprecation.operations[id]) : {},
    });
  }
  operations.sort((a, b) => b.requests - a.requests || a.operation.localeCompare(b.operation));
  return {
    client: usage.client,
    hashes: [...usage.hashes].sort(),
    from: iso(usage.first),
    to: iso(usage.last),
    sources,
    movable: operations.filter((op) => op.whyNot === undefined),
    legacyOnly: operations.filter((op) => op.whyNot !== undefined),
    uncatalogued: usage.operations.get('uncatalogued')?.requests ?? 0,
    programs: topPrograms(usage.programs),
    notice: deprecation?.everyOperation,
    api2BaseUrl: api2BaseUrl ?? API2_BASE_URL_PLACEHOLDER,
  };
}
