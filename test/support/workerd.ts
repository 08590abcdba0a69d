/**
 * The edge entry, bundled as Wrangler bundles it (edge-bundle.ts), in a real workerd (miniflare) on
 * 127.0.0.1, its outbound connections kept on loopback and its console output discarded.
 */
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { EDGE_BUNDLE_OPTIONS } from './edge-bundle.js';

const ROOT = new URL('../..', import.meta.url).pathname;

let bundled: Promise<string> | undefined;

/** The edge entry's bundle, built once per file. */
export function edgeScript(): Promise<string> {
  bundled ??= build({ ...EDGE_BUNDLE_OPTIONS, entryPoints: [`${ROOT}src/edge/worker.ts`] }).then((bundle) => bundle.outputFiles[0]?.text ?? '');
  return bundled;
}

export interface StartedWorker {
  readonly mf: Miniflare;
  readonly origin: string;
}

/** A Worker of the edge entry with this GATEWAY_CONFIG. */
export async function startEdgeWorker(config: unknown): Promise<StartedWorker> {
  const mf = new Miniflare({
    modules: true,
    script: await edgeScript(),
    compatibilityDate: '2025-07-01',
    host: '127.0.0.1',
    port: 0,
    bindings: { GATEWAY_CONFIG: JSON.stringify(config) },
    outboundService: { network: { allow: ['local'] } },
    handleRuntimeStdio(stdout, stderr) {
      stdout.resume();
      stderr.resume();
    },
  });
  return { mf, origin: (await mf.ready).origin };
}
