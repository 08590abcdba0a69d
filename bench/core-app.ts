/**
 * The gateway's core app (src/app.ts) of a compiled tree, in front of in-memory upstreams, as the
 * `app.fetch` the socketless benches call (bench:core, bench:api2-core). The tree is this
 * checkout's `.bench-build/` or another commit's (bench/base-build.ts), so one process can measure
 * both. Its usage-log line is built for every request and handed to `onLine` (a discarding sink).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type Fetch = (request: Request) => Response | Promise<Response>;

/** What an in-memory upstream answers to every request. */
export type CannedAnswer = () => Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }>;

export async function coreAppOf(
  buildDir: string,
  config: Record<string, unknown>,
  answers: Readonly<Record<'legacy' | 'api2', CannedAnswer | undefined>>,
  onLine: ((line: string) => void) | undefined,
): Promise<Fetch> {
  const load = (path: string) => import(pathToFileURL(join(buildDir, path)).href);
  const { createGatewayApp } = await load('src/app.js');
  const { parseConfig } = await load('src/config/schema.js');
  const { edgeRuntime } = await load('src/edge/runtime.js');
  const { logLine } = await load('src/observability/log-fields.js');
  const parsed = parseConfig(config);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const stats = () => ({ connected: 1, idle: 1, inFlight: 0, waiting: 0 });
  const upstream = (name: 'legacy' | 'api2') => ({
    name,
    request: answers[name] ?? (() => Promise.reject(new Error(`no ${name} call expected`))),
    stats,
    close: async () => {},
  });
  const origin = { instance: 'bench', config: '1' };
  const app = createGatewayApp({
    config: parsed.config,
    upstreams: { legacy: upstream('legacy'), ...(answers.api2 ? { api2: upstream('api2') } : {}) },
    // A socket peer, as on Node (the edge runtime has no peer address).
    runtime: { ...edgeRuntime, peer: () => ({ address: '127.0.0.1', tls: false }) },
    onRecord: onLine ? (record: unknown) => onLine(logLine(record, 30, Date.now(), origin)) : undefined,
  });
  return (request) => app.fetch(request);
}
