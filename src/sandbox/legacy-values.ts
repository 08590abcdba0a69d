/**
 * What the sandbox legacy backend's actions (behaviour.ts) read: the values the shared checks
 * validated, typed, the authenticated user, and the store inputs built from them.
 * Runtime-agnostic; imports the store as a type only.
 */
import type { PrimaryCategoryToken } from '../legacy/param-rules.js';
import type { SandboxUser } from './dataset/dataset.js';
import type { GroceryInput, LegacyStore, ReviewInput, SearchQuery, StoreResult } from './legacy-store.js';

/** What the sandbox legacy backend does for one operation, given the validated values and the authenticated user. */
export type SandboxAction = (store: LegacyStore, values: Values, user: SandboxUser | null) => StoreResult<unknown>;

/** Typed reads of the values canonicalise validated (a missing required value is a bug: 500). */
export class Values {
  constructor(private readonly values: Readonly<Record<string, unknown>>) {}
  number(name: string): number {
    const value = this.values[name];
    if (typeof value !== 'number') throw new Error(`validated value ${name} is missing`);
    return value;
  }
  text(name: string): string {
    const value = this.values[name];
    if (typeof value !== 'string') throw new Error(`validated value ${name} is missing`);
    return value;
  }
  optionalNumber(name: string): number | null {
    const value = this.values[name];
    return typeof value === 'number' ? value : null;
  }
  optionalText(name: string): string | null {
    const value = this.values[name];
    return typeof value === 'string' ? value : null;
  }
  optionalList(name: string): string[] | undefined {
    const value = this.values[name];
    return Array.isArray(value) && value.length > 0 ? value.map(String) : undefined;
  }
  optionalBoolean(name: string): boolean | undefined {
    const value = this.values[name];
    return typeof value === 'boolean' ? value : undefined;
  }
}

/** The authenticated user of a `user` operation (the checks before the action guarantee one). */
export function requireUser(user: SandboxUser | null): SandboxUser {
  if (!user) throw new Error('user operation without an authenticated user');
  return user;
}

/** The viewer's user id, or null when the request named no user. */
export const viewerOf = (user: SandboxUser | null): number | null => user?.userId ?? null;

/** A store answer that cannot fail, as a StoreResult. */
export const done = <T>(value: T): StoreResult<T> => ({ ok: true, value });

/** The search query from the validated parameters. */
export function searchQuery(v: Values): SearchQuery {
  const titleKw = v.optionalText('title_kw');
  const anyKw = v.optionalText('any_kw');
  const cuisine = v.optionalText('cuisine');
  const category = v.optionalText('include_primarycat');
  const includeIng = v.optionalList('include_ing');
  const excludeIng = v.optionalList('exclude_ing');
  const photos = v.optionalBoolean('photos');
  return {
    ...(titleKw ? { titleKw } : {}),
    ...(anyKw ? { anyKw } : {}),
    ...(cuisine ? { cuisine } : {}),
    // The primaryCategory rule yields one of PRIMARY_CATEGORY_TOKENS.
    ...(category ? { category: category as PrimaryCategoryToken } : {}),
    ...(includeIng ? { includeIng } : {}),
    ...(excludeIng ? { excludeIng } : {}),
    ...(photos !== undefined ? { photos } : {}),
    page: v.optionalNumber('pg') ?? 1,
    perPage: v.optionalNumber('rpp') ?? 10,
  };
}

/** The review input from the validated fields. */
export function reviewInput(v: Values): ReviewInput {
  const makeAgain = v.text('makeagain');
  if (makeAgain !== 'yes' && makeAgain !== 'no' && makeAgain !== 'notmake') throw new Error('validated makeagain is invalid');
  return {
    recipeId: v.number('rid'),
    rating: v.number('rating'),
    makeAgain,
    comment: v.text('message'),
    totalMinutes: v.optionalNumber('totaltime'),
    activeMinutes: v.optionalNumber('activetime'),
  };
}

/** The grocery input from the validated fields. */
export function groceryInput(v: Values): GroceryInput {
  return { quantity: v.text('quantity'), name: v.text('name'), notes: v.optionalText('notes'), department: v.optionalText('department') };
}
