/**
 * Field-level comparison of two JSON answers, Diffy style: the paths of fields that differ
 * (`changed`), are missing from the candidate (`missing`), are only in the candidate (`extra`), or
 * changed type (`type`). Array entries are compared by index; paths name array steps `[]`, so
 * `Results[].Title` aggregates over every entry. Each path keeps its first differing pair of
 * values, as shown (cut, private fields redacted: diff-examples.ts). Pure.
 */
import { shownValue } from './diff-examples.js';

export type DiffKind = 'changed' | 'missing' | 'extra' | 'type';

export interface FieldDiff {
  readonly path: string;
  readonly kind: DiffKind;
  /** The first differing values at this path (legacy's, the candidate's), as shown: src/traffic/diff-examples.ts. */
  readonly legacy?: string;
  readonly api2?: string;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export function diffFields(primary: unknown, candidate: unknown, ignore: ReadonlySet<string> = new Set()): FieldDiff[] {
  const diffs = new Map<string, FieldDiff>();
  const note = (path: string, kind: DiffKind, a?: unknown, b?: unknown) => {
    if (!ignore.has(path) && !diffs.has(path)) diffs.set(path, { path, kind, legacy: shownValue(path, a), api2: shownValue(path, b) });
  };
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (ignore.has(path)) return;
    const ka = kindOf(a);
    const kb = kindOf(b);
    if (ka !== kb) {
      // null against a value is a changed value, not a type change (legacy fields are often nullable).
      note(path || '(root)', ka === 'null' || kb === 'null' ? 'changed' : 'type', a, b);
      return;
    }
    if (ka === 'array') {
      const left = a as unknown[];
      const right = b as unknown[];
      const itemPath = `${path}[]`;
      if (left.length !== right.length) note(`${path || '(root)'}.length`, 'changed', left.length, right.length);
      for (let i = 0; i < Math.min(left.length, right.length); i++) walk(left[i], right[i], itemPath);
      return;
    }
    if (ka === 'object') {
      const left = a as Record<string, unknown>;
      const right = b as Record<string, unknown>;
      for (const key of Object.keys(left)) {
        if (!(key in right)) note(join(path, key), 'missing', left[key], undefined);
        else walk(left[key], right[key], join(path, key));
      }
      for (const key of Object.keys(right)) if (!(key in left)) note(join(path, key), 'extra', undefined, right[key]);
      return;
    }
    if (a !== b) note(path || '(root)', 'changed', a, b);
  };
  walk(primary, candidate, '');
  return [...diffs.values()];
}
