/**
 * Parameters as ASP.NET binds them from a query string or a form body: `name=value` pairs split on
 * `&`, `+` is a space, percent-escapes decoded, names matched without regard to case.
 *
 * Every occurrence is kept, in order, so that the canonicaliser can see what a first-value map
 * would hide: a name given twice (which ASP.NET joins as `X,EVIL`, or reads last) and names no
 * operation knows.
 */

export interface Pair {
  /** Lower-cased, decoded. */
  readonly name: string;
  /** Decoded. */
  readonly value: string;
}

/** `name=value&...` → its pairs in order; empty segments are skipped. */
export function readPairs(text: string): Pair[] {
  if (text === '') return [];
  const pairs: Pair[] = [];
  for (const segment of text.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const name = decodeFormComponent(eq === -1 ? segment : segment.slice(0, eq)).toLowerCase();
    pairs.push({ name, value: eq === -1 ? '' : decodeFormComponent(segment.slice(eq + 1)) });
  }
  return pairs;
}

/** Form decoding of one name or value: `+` is a space; a malformed escape is kept as it is. */
export function decodeFormComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // DECISION: a malformed escape is kept literally rather than refused; rules then judge the value.
    return spaced;
  }
}

const NEEDS_NO_ESCAPE = /^[A-Za-z0-9\-_.~]*$/;

/** The inverse, for what the gateway renders: every byte outside `A-Za-z0-9-_.~` escaped, space as %20. */
export function encodeFormComponent(text: string): string {
  if (NEEDS_NO_ESCAPE.test(text)) return text;
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
