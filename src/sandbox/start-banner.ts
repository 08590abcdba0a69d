/**
 * The lines `npm start` writes for people once the gateway listens (stderr when the usage log owns
 * stdout): where it listens, its upstreams, in a sandbox run the backends, the settings the sandbox
 * applied and the credentials to try, then health, the console, metrics and the usage log.
 */
import type { GatewayConfig } from '../config/schema.js';
import { describeFault } from './api2-fault-setting.js';
import type { RunningSandbox } from './sandbox-run.js';

export interface BannerFacts {
  readonly httpOrigin: string;
  readonly httpsOrigin: string | undefined;
  readonly adminOrigin: string | undefined;
  readonly metricsUrl: string | undefined;
  readonly notes: readonly string[];
  readonly config: GatewayConfig;
  readonly sandbox?: { readonly running: RunningSandbox; readonly settings: ReadonlyArray<readonly [string, string, string]>; readonly routes: string } | undefined;
  readonly demo?: { readonly rate: number; readonly total: number } | undefined;
}

export function startBanner(facts: BannerFacts): string {
  const { config, sandbox } = facts;
  const local = `http://127.0.0.1:${new URL(facts.httpOrigin).port}`;
  const log = config.observability.log;
  const console = facts.adminOrigin ? `${facts.adminOrigin}/admin` : facts.metricsUrl?.endsWith('(bearer token)') ? `${facts.httpOrigin}/admin (bearer token)` : 'not served';
  const lines = [`recipe-gateway listening on ${facts.httpOrigin}${facts.httpsOrigin ? ` and ${facts.httpsOrigin}` : ''}`, `  legacy upstream: ${config.upstreams.legacy.baseUrl}`];
  if (sandbox) {
    const { running } = sandbox;
    lines.push(
      `  sandbox legacy backend: ${running.legacy.origin}  (api keys sandbox-free-key, sandbox-paid-key, sandbox-key-01..40; users alice:alice-pass, bob:bob-pass, user01:user01-pass .. user40:user40-pass)`,
      `  sandbox api2 backend:   ${running.api2.origin}  (TLS, CA ${running.api2.caFile})`,
      `  sandbox settings applied: ${sandbox.settings.map(([key, value]) => `${key}=${value}`).join('; ')}`,
      `  sandbox api2 fault: ${describeFault(running.faults.state().fault)}  (set or clear: the console, or POST ${facts.adminOrigin ?? ''}/admin/sandbox/api2-fault)`,
      `  routes: ${sandbox.routes}`,
    );
  }
  if (facts.demo) lines.push(`  demo traffic: ${facts.demo.rate} requests a second from the sandbox's clients, ${facts.demo.total} at most; stops with the gateway`);
  if (sandbox) {
    lines.push(
      'try:',
      `  curl '${local}/recipes?title_kw=soup&pg=1&rpp=5&api_key=sandbox-free-key' -H 'Accept: application/json'`,
      `  curl -u alice:alice-pass '${local}/grocerylist?api_key=sandbox-free-key' -H 'Accept: application/json'`,
    );
  }
  lines.push(
    `  health: ${local}/healthz`,
    `  console: ${console}`,
    `  usage log: ${log.enabled ? log.destination : 'off'}${log.enabled ? '  (report: npm run report -- FILE)' : ''}`,
    `  metrics: ${facts.metricsUrl ?? 'not served'}`,
    ...facts.notes.map((note) => `  note: ${note}`),
  );
  return `${lines.join('\n')}\n`;
}
