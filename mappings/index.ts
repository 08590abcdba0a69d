/**
 * Each catalogue entry carries its api2 mapping or its legacy-only reason (src/catalogue/entries/);
 * the catalogue's view of them is src/catalogue/movability.ts, which the gateway, the capability
 * matrix and the tests import. This re-export is left only for bench/soak.ts: once that imports
 * src/catalogue/movability.ts, this file goes (mappings/ then imports nothing of the catalogue).
 */
export { capabilities, mappingFor, movability } from '../src/catalogue/movability.js';
export type { Capability, Movability } from '../src/catalogue/movability.js';
