/**
 * The migration metrics in /metrics, through a real gateway whose api2 fails: fallbacks, the api2
 * breaker's state and openings, shadow comparisons by outcome, the canary split, the route modes,
 * the config hash (an info metric) and reload failures. Every metric a panel of the Grafana
 * dashboard (deploy/grafana/migration-dashboard.json) queries exists in /metrics.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import type { TestGateway } from './support/gateway.js';
import { waitFor } from './support/wait.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { startGatewayWithApi2Down } from './support/misbehaving-api2.js';

const J = { accept: 'application/json' };
const FREE = 'sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');
const cleanup = closedAfterAllTests();
let gateway: TestGateway;
let metrics: string;

interface Dashboard {
  readonly panels: ReadonlyArray<{ readonly title: string; readonly targets: ReadonlyArray<{ readonly expr: string }> }>;
}

/** The metric families a PromQL expression reads (a histogram's _bucket/_sum/_count series belong to its family). */
function metricsOf(expr: string): string[] {
  return [...expr.matchAll(/\b(gateway_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|sum|count)$/, ''));
}

beforeAll(async () => {
  ({ gateway } = await startGatewayWithApi2Down(
    cleanup,
    {
      'recipes.search': { mode: 'api2', fallback: true },
      'grocery.list': { mode: 'canary', canaryPercent: 100 },
      'reviews.get': { mode: 'shadow' },
    },
    { extra: { observability: { admin: { listen: { host: '127.0.0.1', port: 0 } } } } },
  ));
  await send(gateway.origin, { target: `/review/1?api_key=${FREE}`, headers: J });
  await waitFor(() => gateway.shadows.length === 1, 10_000);
  for (let i = 0; i < 2; i++) await send(gateway.origin, { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
  for (let i = 0; i < 3; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(200);
  gateway.running.event('config-rejected', { reason: 'invalid', file: 'gateway.json', errors: [] }); // as src/node/config-watch.ts says it
  metrics = (await send(gateway.adminOrigin!, { target: '/metrics' })).text();
}, 60_000);


describe('migration metrics', () => {
  it('count fallbacks, shadow outcomes, the canary split and the api2 breaker opening, and show its state', () => {
    expect(metrics).toContain('gateway_fallbacks_total{operation="recipes.search"} 3');
    expect(metrics).toContain(`gateway_shadow_comparisons_total{operation="reviews.get",outcome="${gateway.shadows[0]?.outcome === 'equal' ? 'agreed' : gateway.shadows[0]?.outcome === 'differ' ? 'differed' : 'skipped'}"} 1`);
    expect(metrics).toContain('gateway_canary_requests_total{operation="grocery.list",side="api2"} 2');
    expect(metrics).toContain('gateway_breaker_opens_total{upstream="api2"} 1');
    expect(metrics).toContain('gateway_breaker_state{upstream="api2",state="open"} 1');
    expect(metrics).toContain('gateway_breaker_state{upstream="api2",state="closed"} 0');
  });

  it('show the routing and the config in force, and count reload failures', () => {
    expect(metrics).toContain('gateway_route_canary_percent{operation="grocery.list"} 100');
    expect(metrics).toContain('gateway_route_mode{operation="reviews.get",mode="shadow"} 1');
    expect(metrics).toContain('gateway_route_mode{operation="favorites.create",mode="legacy"} 1');
    expect(metrics).toContain(`gateway_config_info{hash="${gateway.running.configHash()}",version="1"} 1`);
    expect(metrics).toContain('gateway_config_reload_failures_total 1');
    expect(metrics).toMatch(/gateway_requests_total\{operation="recipes\.search",mode="legacy",status_class="2xx"\} 3/);
  });

  it('has every metric the Grafana dashboard queries', async () => {
    const dashboard = JSON.parse(await readFile('deploy/grafana/migration-dashboard.json', 'utf8')) as Dashboard;
    const queried = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricsOf(target.expr))));
    expect(queried.size).toBeGreaterThanOrEqual(10);
    const exposed = new Set([...metrics.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
  });
});
