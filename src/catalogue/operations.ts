/**
 * The operation catalogue: every operation the gateway recognises (the legacy document's, part 4,
 * and any added since), as data, one entry each (src/catalogue/entries/, one module per resource;
 * the shape is src/catalogue/entry.ts).
 *
 * An entry is the only source of its operation's facts: routes and forms, parameters, success
 * answer, credentials, cache and invalidation, and its api2 mapping or why it has none. The route
 * table, the validator, the config, the usage log, the report, the mapping registry, the sandbox
 * and the generated docs read this table; nothing branches on an operation anywhere else.
 */
import { GROCERY_OPERATIONS } from './entries/grocery.js';
import { LIST_OPERATIONS } from './entries/lists.js';
import { RECIPE_OPERATIONS } from './entries/recipes.js';
import { REVIEW_OPERATIONS } from './entries/reviews.js';
import type { OperationEntry } from './entry.js';

export type { Api2Route, AuthRequirement, Method, ParamCarriage, ParamSpec, PathForm, PathFormKind, ResponseShape } from './entry.js';

const ENTRIES = [...REVIEW_OPERATIONS, ...GROCERY_OPERATIONS, ...LIST_OPERATIONS, ...RECIPE_OPERATIONS] as const;

/** The id of a catalogued operation (a union of the entries' ids). */
export type OperationId = (typeof ENTRIES)[number]['id'];

export type Operation = OperationEntry<OperationId>;

/** Every catalogued operation, in catalogue order. */
export const OPERATIONS: readonly Operation[] = ENTRIES;

/** Every id, in catalogue order (derived from the entries). */
export const OPERATION_IDS: readonly OperationId[] = OPERATIONS.map((op) => op.id);

const byId = new Map<string, Operation>(OPERATIONS.map((op) => [op.id, op]));
if (byId.size !== OPERATIONS.length) throw new Error('catalogue: two entries share an id');

export function operationById(id: OperationId): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

export function isOperationId(value: string): value is OperationId {
  return byId.has(value);
}
