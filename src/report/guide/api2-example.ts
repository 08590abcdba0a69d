/**
 * The api2 request that replaces a legacy operation, derived, never written per operation: an
 * example legacy request of the operation (handed in by the report's command: the sandbox's
 * examples, src/sandbox/behaviour.ts, which the product does not import) is
 * checked and made canonical as the gateway makes it (src/request/canonicalise.ts), and its
 * mapping is run against a port that records the first api2 request it sends and answers nothing
 * more. With it: every api2 call the mapping declares (`api2Calls`), the header the api key goes
 * in, and HTTP Basic for operations that need the user.
 */
import { CATALOGUE_ROUTES } from '../../catalogue/route-table.js';
import { operationById } from '../../catalogue/operations.js';
import type { OperationId } from '../../catalogue/operations.js';
import { mappingFor } from '../../catalogue/movability.js';
import { API2_KEY_HEADER, queryString } from '../../api2/port.js';
import { canonicalise } from '../../request/canonicalise.js';
import { credentialsOf } from '../../request/credentials.js';
import { readPairs } from '../../request/pairs.js';
import type { Api2Request } from '../../../mappings/types.js';

export interface Api2Example {
  /** The legacy request it was made from (without api_key): the client's own, or the catalogue's example. */
  readonly legacy: string;
  /** It is the client's own most frequent request (client-request.ts), not the catalogue's example. */
  readonly own: boolean;
  /** The first api2 request the mapping sends for it: `GET /recipes?title_kw=soup&pg=1&rpp=5`. */
  readonly request: string;
  readonly method: string;
  readonly path: string;
  /** Query parameter names, in the order sent. */
  readonly query: readonly string[];
  /** JSON body field names. */
  readonly body: readonly string[];
  /** `?title_kw=soup&pg=1`, or empty. */
  readonly queryString: string;
  /** The JSON body sent, when there is one. */
  readonly bodyJson: string | undefined;
}

export interface Api2Replacement {
  /** Every api2 call the mapping declares, in order (`METHOD /path`). */
  readonly calls: readonly string[];
  /** The first call, made for the catalogue's example; undefined when the mapping sends none without state it lacks. */
  readonly example: Api2Example | undefined;
  /** The headers every call carries: the api key's, and the user's Basic credentials when the operation needs them. */
  readonly headers: readonly string[];
}

/** A legacy request an operation answers: path and query without api_key, and a JSON body. */
export interface ExampleRequest {
  readonly method: string;
  readonly target: string;
  readonly body?: Readonly<Record<string, string | number>>;
  /** Made from the client's own usage lines (client-request.ts). */
  readonly own?: true;
}

export type ExampleRequests = Readonly<Partial<Record<OperationId, ExampleRequest>>>;

const PLACEHOLDER_KEY = 'YOUR_API_KEY';
const PLACEHOLDER_USER = `Basic ${btoa('user:password')}`;

/** The api2 request replacing `operation`; undefined for a legacy-only operation. */
export async function api2Replacement(operation: OperationId, example: ExampleRequest | undefined): Promise<Api2Replacement | undefined> {
  const mapping = mappingFor(operation);
  if (!mapping) return undefined;
  const entry = operationById(operation);
  const headers = [`${API2_KEY_HEADER}: <your api key>`, ...(entry.auth === 'user' ? ['authorization: Basic <user:password> (as on the legacy interface)'] : [])];
  const sent = example ? await exampleRequest(operation, example).catch(() => undefined) : undefined;
  return { calls: mapping.api2Calls, example: sent, headers };
}

async function exampleRequest(operation: OperationId, example: ExampleRequest): Promise<Api2Example | undefined> {
  const mapping = mappingFor(operation)!;
  const [path, search = ''] = example.target.split('?') as [string, string?];
  const match = CATALOGUE_ROUTES.match(example.method, path);
  if (!match) return undefined;
  const query = readPairs(search ? `${search}&api_key=${PLACEHOLDER_KEY}` : `api_key=${PLACEHOLDER_KEY}`);
  const body = example.body ? new TextEncoder().encode(JSON.stringify(example.body)) : null;
  const checked = canonicalise(match, { query, credentials: credentialsOf(query, PLACEHOLDER_USER), contentType: body ? 'application/json' : undefined, body });
  if (!checked.ok) return undefined;
  let first: Api2Request | undefined;
  const memory = { rememberReviewRecipe: () => undefined, recipeOfReview: () => undefined };
  await mapping
    .run({ operation, values: checked.values }, async (request) => {
      first ??= request;
      return { status: 599, body: undefined };
    }, { memory, options: { noPhotoImageUrl: '' } })
    .catch(() => undefined);
  if (!first) return undefined;
  const sent = first;
  return {
    legacy: `${example.method} ${example.target}`,
    own: example.own === true,
    request: `${sent.method} ${sent.path}${queryString(sent.query)}`,
    method: sent.method,
    path: sent.path,
    query: Object.entries(sent.query ?? {}).filter(([, value]) => value !== undefined).map(([name]) => name),
    body: Object.keys(sent.body ?? {}),
    queryString: queryString(sent.query),
    bodyJson: sent.body === undefined ? undefined : JSON.stringify(sent.body),
  };
}
