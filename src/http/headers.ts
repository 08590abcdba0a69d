/**
 * Header rules for pass-through, both ways (proxy-lessons, headers and bodies):
 * hop-by-hop headers and every header named in `Connection` are dropped; the request gets
 * explicit `X-Forwarded-For/-Proto/-Host`; the client's `Host` is replaced by the upstream's.
 */

/** RFC 9110 7.6.1 plus the non-standard ones proxies meet in practice. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Headers that describe this message itself; a Connection token never removes them from the view. */
const KEEP_IN_VIEW = new Set(['content-length', 'transfer-encoding', 'host']);

/** Also never forwarded upstream: the gateway sets or recomputes these itself. */
const REQUEST_ONLY_DROPS = new Set(['host', 'content-length', 'expect', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded']);

/** What nearly every `Connection` header says; it names no header to drop. */
const PLAIN_CONNECTION = /^\s*(?:keep-alive|close)\s*$/i;

function namedInConnection(value: string | string[] | undefined): Set<string> | null {
  if (!value) return null;
  if (typeof value === 'string' && PLAIN_CONNECTION.test(value)) return null;
  const joined = Array.isArray(value) ? value.join(',') : value;
  const names = joined
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token.length > 0);
  return names.length > 0 ? new Set(names) : null;
}

/**
 * The request's end-to-end headers: without the hop-by-hop ones and without those the
 * `Connection` header names. Everything the gateway decides (content negotiation, cache keys,
 * credentials) reads this view, so that it decides on what the upstream will be sent: a client
 * that names `Accept` in `Connection` is answered as one that sent no Accept. The common cases
 * (no Connection header, or only keep-alive/close) return the object as it is.
 */
export function endToEndHeaders(incoming: Record<string, string>): Record<string, string> {
  const connection = incoming['connection'];
  if (connection === undefined) return incoming;
  const named = namedInConnection(connection);
  const extra = named ? [...named].filter((name) => name !== 'keep-alive' && name !== 'close') : [];
  if (extra.length === 0) return incoming;
  const out: Record<string, string> = {};
  for (const name in incoming) {
    // The message's own framing and Host stay: naming them in Connection cannot change how this
    // request is read (they are recomputed or replaced before anything is forwarded).
    if (KEEP_IN_VIEW.has(name)) {
      out[name] = incoming[name] as string;
      continue;
    }
    if (name === 'connection' || HOP_BY_HOP.has(name) || named?.has(name)) continue;
    out[name] = incoming[name] as string;
  }
  return out;
}

export interface ForwardedFor {
  /** The client's address as the gateway sees it (the peer, or from a trusted proxy). */
  readonly clientChain: string;
  readonly proto: 'http' | 'https';
  readonly host: string | undefined;
}

/**
 * The headers sent upstream for a client request. `incoming` has lower-case names; `rendered`
 * names headers the caller sets itself (the client's copies are left out).
 */
export function upstreamRequestHeaders(
  incoming: Readonly<Record<string, string>>,
  forwarded: ForwardedFor,
  rendered?: ReadonlySet<string>,
): Record<string, string> {
  const dropped = namedInConnection(incoming['connection']);
  const out: Record<string, string> = {};
  for (const name in incoming) {
    if (HOP_BY_HOP.has(name) || REQUEST_ONLY_DROPS.has(name) || dropped?.has(name) || rendered?.has(name)) continue;
    out[name] = incoming[name] as string;
  }
  out['x-forwarded-for'] = forwarded.clientChain;
  out['x-forwarded-proto'] = forwarded.proto;
  if (forwarded.host) out['x-forwarded-host'] = forwarded.host;
  return out;
}

/**
 * The headers sent back to the client for an upstream answer, in one pass: single-valued ones as
 * a plain object, a header the upstream sent several times (Set-Cookie) as name-value pairs.
 */
export function clientResponseHeaders(upstream: Readonly<Record<string, string | string[]>>): {
  single: Record<string, string>;
  repeated: Array<readonly [string, string]> | undefined;
} {
  const dropped = namedInConnection(upstream['connection']);
  const single: Record<string, string> = {};
  let repeated: Array<readonly [string, string]> | undefined;
  for (const name in upstream) {
    if (HOP_BY_HOP.has(name) || dropped?.has(name)) continue;
    const value = upstream[name]!;
    if (typeof value === 'string') single[name] = value;
    else for (const one of value) (repeated ??= []).push([name, one]);
  }
  return { single, repeated };
}

/** The first value of a header Node may have parsed into several (a request carries one of most). */
export function singleValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
