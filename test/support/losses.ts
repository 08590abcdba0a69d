/** The gateway's own loss application (src/traffic/losses.ts), re-exported for the tests. */
export { applyLosses } from '../../src/traffic/losses.js';
