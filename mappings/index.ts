/**
 * The mapping registry, as the gateway and the capability matrix read it: each catalogue entry
 * carries its api2 mapping or its legacy-only reason (src/catalogue/entries/); this module
 * re-exports the catalogue's view of them (src/catalogue/movability.ts).
 */
export { capabilities, mappingFor, movability } from '../src/catalogue/movability.js';
export type { Capability, Movability } from '../src/catalogue/movability.js';
