/**
 * Differences you can read: a few example pairs per differing path (the legacy value beside the
 * api2 value, with the operation and the time), safe to show and small: values written as JSON
 * and cut to EXAMPLE_CHARS characters; a path naming a user or a secret (user names, passwords,
 * api keys, tokens, e-mail addresses) shows `[redacted]` on both sides. Bounded: EXAMPLES_PER_PATH
 * per path, EXAMPLE_PATHS paths per operation.
 */

export interface DiffExample {
  readonly path: string;
  readonly legacy: string;
  readonly api2: string;
  /** ISO time of the comparison. */
  readonly time: string;
}

export const EXAMPLE_CHARS = 80;
export const EXAMPLES_PER_PATH = 3;
export const EXAMPLE_PATHS = 20;

const PRIVATE = /(user|login|e-?mail|pass|secret|token|api_?key|auth)/i;
const REDACTED = '[redacted]';

/** A value as it is shown: JSON text, cut; `(absent)` for a missing field. */
export function shownValue(path: string, value: unknown): string {
  const last = path.split(/[.[\]]+/).filter(Boolean).pop() ?? path;
  if (PRIVATE.test(last)) return REDACTED;
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS - 1)}…` : text;
}

/**
 * Keeps the latest examples per path: adds `example` (newest last), at most EXAMPLES_PER_PATH
 * per path and EXAMPLE_PATHS paths (a new path past them is dropped).
 */
export function keepExample(kept: Map<string, DiffExample[]>, example: DiffExample): void {
  let list = kept.get(example.path);
  if (!list) {
    if (kept.size >= EXAMPLE_PATHS) return;
    kept.set(example.path, (list = []));
  }
  list.push(example);
  if (list.length > EXAMPLES_PER_PATH) list.shift();
}
