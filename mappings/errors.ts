/**
 * How a mapping fails. Each becomes a legacy-shaped answer in src/api2/legacy-answer.ts:
 * - Api2StatusError: api2 answered 4xx/5xx; passed on as the same legacy status with its message.
 * - Api2ShapeError: api2 answered something that does not match its published schema; a 502,
 *   logged with the operation and the failing path, never passed on half-mapped.
 * - MappingRefusal: the request cannot be answered through api2 without guessing (e.g. a review
 *   delete whose recipe id is unknown); a clear legacy error with the given status.
 * - LegacyRefusal: api2 refused, and what the gateway knows tells the legacy backend's own refusal
 *   of the same request (e.g. an update's wrong rid: api2 404, legacy 400); answered as legacy would.
 */
import type { z } from 'zod';

export class Api2StatusError extends Error {
  constructor(
    readonly status: number,
    readonly api2Message: string | undefined,
    readonly call: string,
  ) {
    super(`api2 answered ${status} to ${call}${api2Message ? `: ${api2Message}` : ''}`);
    this.name = 'Api2StatusError';
  }
}

export class Api2ShapeError extends Error {
  constructor(
    readonly call: string,
    readonly path: string,
    readonly detail: string,
  ) {
    super(`api2 answer to ${call} does not match its schema at ${path || '(root)'}: ${detail}`);
    this.name = 'Api2ShapeError';
  }
}

export class MappingRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'MappingRefusal';
  }
}

export class LegacyRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
    /** api2's own refusal of the request. */
    readonly api2: Api2StatusError,
  ) {
    super(message);
    this.name = 'LegacyRefusal';
  }
}

/**
 * Parses an api2 answer with its schema, or throws Api2ShapeError naming the first failing path.
 * `accepts`, a check that is true only for values the schema accepts, lets such a value through as
 * it is (the schema's copy holds the same declared members; unknown ones are never read).
 */
export function parseApi2<T>(schema: z.ZodType<T>, body: unknown, call: string, accepts?: (body: unknown) => body is T): T {
  if (accepts?.(body)) return body;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map((step) => (typeof step === 'number' ? `[${step}]` : `.${String(step)}`)).join('').replace(/^\./, '');
  throw new Api2ShapeError(call, path, issue?.message ?? 'invalid');
}
