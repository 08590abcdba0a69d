/**
 * Request-target normalisation: the one place that turns what a client sent into the path that is
 * both routed and forwarded (proxy-lessons: "route and forward the same normalised path").
 *
 * Refused, never forwarded: dot segments (`.`/`..`, raw or percent-encoded), NUL and control
 * characters, encoded `/` or `\` inside a segment, backslashes, malformed percent-encoding and a
 * path that does not start with `/`. Repeated slashes are collapsed. Percent-escapes of unreserved
 * characters are decoded (RFC 3986 6.2.2.2), other escapes are kept with upper-case hex.
 * The query string is kept byte for byte.
 */

export type TargetResult =
  | { readonly ok: true; readonly path: string; readonly query: string }
  /** A refused target's `query` (without `?`) only hashes its client; it is never forwarded. */
  | { readonly ok: false; readonly status: 400 | 414; readonly reason: string; readonly query: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function normaliseTarget(target: string, maxLength = 8192): TargetResult {
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = queryAt === -1 ? '' : target.slice(queryAt + 1);
  const refuse = (reason: string, status: 400 | 414 = 400): TargetResult => ({ ok: false, status, reason, query });
  if (target.length > maxLength) return refuse(`request target is longer than ${maxLength} characters`, 414);

  if (rawPath[0] !== '/') return refuse('path must start with /');
  if (target.includes('#')) return refuse('request target must not carry a fragment');
  if (CONTROL.test(target)) return refuse('request target must not contain control characters or NUL');
  if (rawPath.includes('\\')) return refuse('path must not contain a backslash');

  // Nothing to normalise: no escape, no empty segment, no segment starting with a dot.
  if (!rawPath.includes('%') && !rawPath.includes('//') && !rawPath.includes('/.')) return { ok: true, path: rawPath, query };
  const segments = rawPath.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    const last = i === segments.length - 1;
    if (segment === '') {
      if (last) out.push('');
      continue;
    }
    const normal = normaliseSegment(segment);
    if (typeof normal !== 'string') return refuse(normal.reason);
    out.push(normal);
  }
  return { ok: true, path: `/${out.join('/')}`, query };
}

/** The segment normalised, or why it is refused. */
function normaliseSegment(segment: string): string | { readonly reason: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return { reason: 'path has malformed percent-encoding' };
  }
  if (decoded === '.' || decoded === '..') return { reason: 'path must not contain . or .. segments' };
  if (decoded.includes('/') || decoded.includes('\\')) return { reason: 'path must not contain an encoded / or \\' };
  if (CONTROL.test(decoded)) return { reason: 'path must not contain control characters or NUL' };
  if (!segment.includes('%')) return segment;
  return segment.replace(/%([0-9a-fA-F]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The origin-form target (path and query) of a full URL string, without building a URL object. */
export function originFormOf(url: string): string {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return url;
  const pathStart = url.indexOf('/', schemeEnd + 3);
  if (pathStart === -1) {
    const queryStart = url.indexOf('?', schemeEnd + 3);
    return queryStart === -1 ? '/' : `/${url.slice(queryStart)}`;
  }
  return url.slice(pathStart);
}
