/**
 * What the sandbox legacy backend does for one operation (each catalogue entry carries its action,
 * `sandbox.act`): a call on the store with the values the shared checks validated and the user
 * the request authenticated. Runtime-agnostic; imports the store as a type only.
 */
import type { SandboxUser } from './dataset.js';
import type { LegacyStore, StoreResult } from './legacy-store.js';

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
