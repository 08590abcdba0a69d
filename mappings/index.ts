/**
 * The mapping registry: for every catalogued operation, either its api2 mapping or the reason it
 * stays on the legacy backend. The capability matrix and the config validation read this table.
 */
import type { OperationId } from '../src/catalogue/operations.js';
import { OPERATION_IDS } from '../src/catalogue/operations.js';
import { LEGACY_ONLY_LISTS, LIST_MAPPINGS } from './favorites.js';
import { GROCERY_MAPPINGS } from './grocery.js';
import { REVIEW_MAPPINGS } from './reviews.js';
import { SEARCH_MAPPINGS } from './search.js';
import type { LegacyOnly, OperationMapping } from './types.js';

/** Each module lists its own mappings (and legacy-only reasons): adding an operation to a module touches that module only. */
const MAPPED: readonly OperationMapping[] = [...REVIEW_MAPPINGS, ...GROCERY_MAPPINGS, ...LIST_MAPPINGS, ...SEARCH_MAPPINGS];

const LEGACY_ONLY: readonly LegacyOnly[] = LEGACY_ONLY_LISTS;

const mappingById = new Map<OperationId, OperationMapping>(MAPPED.map((m) => [m.operation, m]));
const legacyOnlyById = new Map<OperationId, LegacyOnly>(LEGACY_ONLY.map((l) => [l.operation, l]));

for (const id of OPERATION_IDS) {
  if (mappingById.has(id) === legacyOnlyById.has(id)) {
    throw new Error(`mappings: ${id} must be either mapped or legacy-only, exactly once`);
  }
}

export function mappingFor(id: OperationId): OperationMapping | undefined {
  return mappingById.get(id);
}

/** Why an operation cannot be routed to api2, or undefined when it can. */
export function legacyOnlyReason(id: OperationId): string | undefined {
  return legacyOnlyById.get(id)?.why;
}

export type Capability =
  | { readonly operation: OperationId; readonly mapped: true; readonly mapping: OperationMapping }
  | { readonly operation: OperationId; readonly mapped: false; readonly why: string };

/** Every catalogued operation, in catalogue order. */
export function capabilities(): Capability[] {
  return OPERATION_IDS.map((id) => {
    const mapping = mappingById.get(id);
    if (mapping) return { operation: id, mapped: true, mapping };
    return { operation: id, mapped: false, why: legacyOnlyById.get(id)?.why ?? '' };
  });
}
