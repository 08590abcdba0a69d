/**
 * How the edge entry is bundled for edge runtimes (workerd): a neutral-platform ESM bundle with the
 * worker conditions. The build-rule test checks this bundle for Node-only imports and the workerd
 * test runs it, so both must bundle the same way: they take these options from here.
 */
import type { BuildOptions } from 'esbuild';

export const EDGE_BUNDLE_OPTIONS = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  logLevel: 'silent',
} as const satisfies BuildOptions;
