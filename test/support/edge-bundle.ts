/**
 * How the edge entry is bundled for edge runtimes (workerd), as Wrangler bundles a Worker: an ESM
 * bundle on esbuild's `browser` platform (Wrangler's default: a package's `browser` field picks its
 * builds without Node modules, as OpenTelemetry's packages need) with the worker conditions. The
 * build-rule test checks this bundle for Node-only imports and the workerd tests run it, so both
 * must bundle the same way: they take these options from here.
 */
import type { BuildOptions } from 'esbuild';

export const EDGE_BUNDLE_OPTIONS = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  logLevel: 'silent',
} as const satisfies BuildOptions;
