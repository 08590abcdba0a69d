/**
 * Whether an operation can move from the legacy backend to api2, read from its catalogue entry:
 * it can when the entry carries an api2 mapping; otherwise the entry says why not.
 */
import type { OperationMapping } from '../../mappings/types.js';
import { OPERATIONS, isOperationId, operationById } from './operations.js';
import type { OperationId } from './operations.js';

export type Movability = { readonly canMove: true } | { readonly canMove: false; readonly reason: string };

/** Can this operation be routed to api2, and if not, why. An id the catalogue does not hold cannot move. */
export function movability(id: string): Movability {
  if (!isOperationId(id)) return { canMove: false, reason: `${id} is not a catalogued operation` };
  const route = operationById(id).api2;
  return 'mapping' in route ? { canMove: true } : { canMove: false, reason: route.legacyOnly };
}

/** The operation's api2 mapping, or undefined when it stays on the legacy backend (as one the catalogue does not hold does). */
export function mappingFor(id: string): OperationMapping | undefined {
  if (!isOperationId(id)) return undefined;
  const route = operationById(id).api2;
  return 'mapping' in route ? route.mapping : undefined;
}

export type Capability =
  | { readonly operation: OperationId; readonly mapped: true; readonly mapping: OperationMapping }
  | { readonly operation: OperationId; readonly mapped: false; readonly why: string };

/** Every catalogued operation and whether api2 can answer it, in catalogue order. */
export function capabilities(): Capability[] {
  return OPERATIONS.map(({ id, api2 }) => ('mapping' in api2 ? { operation: id, mapped: true, mapping: api2.mapping } : { operation: id, mapped: false, why: api2.legacyOnly }));
}
