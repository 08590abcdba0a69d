/**
 * What an api2 sandbox route (api2-routes.ts) is handed and answers: the call (store, plan, user,
 * path parameters, query and body), and the replies it builds: a success whose body has the type
 * of the api2 schema the route declares, or a refusal (`{"Message": ...}`, plus `ModelState` on
 * 400, ASP.NET style [I]). The checks every route shares (path ids, paging, bodies) live here.
 */
import { legacyErrorBody } from '../legacy/answer-body.js';
import type { ParamValues } from '../request/first-values.js';
import type { Plan, SandboxUser } from './dataset/dataset.js';
import type { FieldError, Parsed } from './api2-input.js';
import type { Api2Result, Api2Store } from './api2-store.js';
import { COMMON_MESSAGES } from './messages.js';

export const API2_MESSAGES = {
  keyMissing: 'Authentication failed: an api key is required (header X-BigOven-API-Key or query api_key).',
  keyUnknown: 'Authentication failed: unknown api key.',
  userMissing: 'Authentication failed: this operation needs the user credentials (HTTP Basic).',
  invalid: 'The request is invalid.',
  ...COMMON_MESSAGES,
} as const;

export interface Call {
  readonly store: Api2Store;
  readonly plan: Plan;
  readonly user: SandboxUser | null;
  readonly params: Readonly<Record<string, string>>;
  readonly query: ParamValues;
  readonly body: ParamValues;
}

export interface Refusal {
  readonly status: number;
  readonly body: { readonly Message: string };
  readonly allow?: string;
}

/** A success (200, the route's answer) or a refusal. */
export type Reply<Body> = { readonly status: 200; readonly body: Body } | Refusal;

export const ok = <Body>(body: Body): Reply<Body> => ({ status: 200, body });

export function error(status: number, message: string): Refusal {
  return { status, body: { Message: message } };
}

export function invalid(errors: readonly FieldError[]): Refusal {
  return { status: 400, body: legacyErrorBody(`${API2_MESSAGES.invalid} ${errors.map((e) => `${e.message}.`).join(' ')}`, errors) };
}

/** A store result as a reply. */
export function answer<Body>(result: Api2Result<Body>): Reply<Body> {
  return result.ok ? ok(result.value) : error(result.status, result.message);
}

/** A store result as a reply whose success body is `body` instead (api2 answers `{}` to some writes). */
export function answerWith<Body>(result: Api2Result<unknown>, body: Body): Reply<Body> {
  return result.ok ? ok(body) : error(result.status, result.message);
}

export function withBody<T, Body>(parsed: Parsed<T>, act: (value: T) => Reply<Body>): Reply<Body> {
  return parsed.ok ? act(parsed.value) : invalid(parsed.errors);
}

/** Path ids as positive 32-bit integers (the spec's int32 / int64 ids), else 400 (ASP.NET model binding [I]). */
export function withInts<const N extends readonly string[], Body>(c: Call, names: N, act: (ids: { -readonly [K in keyof N]: number }) => Reply<Body>): Reply<Body> {
  const ids: number[] = [];
  const errors: FieldError[] = [];
  for (const name of names) {
    const raw = c.params[name] ?? '';
    const n = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (n >= 1 && n <= 2_147_483_647) ids.push(n);
    else errors.push({ field: name, message: `${name} must be a whole number from 1 to 2147483647` });
  }
  return errors.length > 0 ? invalid(errors) : act(ids as { -readonly [K in keyof N]: number });
}

/** pg (default 1) and rpp (default 10, a legacy client library's default [I], at most 50). */
export function pagingOf(query: ParamValues): Parsed<{ page: number; perPage: number }> {
  const errors: FieldError[] = [];
  const read = (name: string, max: number, fallback: number): number => {
    const raw = query.get(name);
    if (raw === undefined || raw === '') return fallback;
    const n = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : NaN;
    if (n >= 1 && n <= max) return n;
    errors.push({ field: name, message: `${name} must be a whole number from 1 to ${max}` });
    return fallback;
  };
  const value = { page: read('pg', 100_000, 1), perPage: read('rpp', 50, 10) };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/** The user of a `user` route (the app checked one is there). */
export function userOf(c: Call): number {
  if (!c.user) throw new Error('user operation without an authenticated user');
  return c.user.userId;
}

/** The viewer's user id, or null when the call named no user. */
export const viewerOf = (c: Call): number | null => c.user?.userId ?? null;
