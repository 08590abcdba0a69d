/**
 * The migration metrics in /metrics, through a real gateway whose api2 fails: fallbacks, the api2
 * breaker's state and openings, shadow comparisons by outcome, the canary split, the route modes,
 * the config hash (an info metric) and reload failures; the route mode, api2's share and the one
 * state of a rolled-out route in force. Every metric a panel of the Grafana dashboard
 * (deploy/grafana/migration-dashboard.json) queries exists in /metrics with every label the query
 * names, and every panel of an operation's metric follows the dashboard's operation variable.
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
  readonly templating: { readonly list: ReadonlyArray<{ readonly name: string; readonly query?: unknown }> };
  readonly panels: ReadonlyArray<{ readonly title: string; readonly targets: ReadonlyArray<{ readonly expr: string }> }>;
}

/** Label names an expression uses: in selectors (`{a="x", b=~"y"}`) and groupings (`by (a, b)`). */
function labelsOf(expr: string): string[] {
  const inSelectors = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/([a-z_]+)\s*(?:=~|!=|!~|=)/g)].map((l) => l[1]!));
  const grouped = [...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((l) => l.trim()));
  return [...inSelectors, ...grouped];
}

/** Each metric family of an exposition with the label names its samples carry. */
function sampleLabels(exposition: string): Map<string, Set<string>> {
  const families = new Map<string, Set<string>>();
  for (const line of exposition.split('\n')) {
    const m = /^(gateway_[a-z0-9_]+?)(?:_bucket|_sum|_count)?(?:\{(.*)\})? /.exec(line);
    if (!m) continue;
    const labels = families.get(m[1]!) ?? new Set<string>();
    for (const l of (m[2] ?? '').matchAll(/([a-z_]+)="/g)) labels.add(l[1]!);
    families.set(m[1]!, labels);
  }
  return families;
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
      'trysoons.list': { rollout: { steps: [25, 100], minStepMs: 3_600_000 } },
    },
    { extra: { observability: { admin: { listen: { host: '127.0.0.1', port: 0 } } } } },
  ));
  await send(gateway.origin, { target: `/review/1?api_key=${FREE}`, headers: J });
  await waitFor(() => gateway.shadows.length === 1, 10_000);
  for (let i = 0; i < 2; i++) await send(gateway.origin, { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
  for (let i = 0; i < 3; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(200);
  // Two operator actions: the rollout's events have samples (pause, then resume at the same step).
  for (const action of ['pause', 'resume']) expect((await send(gateway.adminOrigin!, { method: 'POST', target: `/admin/rollout/trysoons.list/${action}?by=ops` })).status).toBe(200);
  gateway.running.event('config-rejected', { reason: 'invalid', file: 'gateway.json', errors: [] }); // as src/node/config-watch.ts says it
  metrics = (await send(gateway.adminOrigin!, { target: '/metrics' })).text();
}, 60_000);


describe('migration metrics', () => {
  it('count fallbacks, shadow outcomes, the canary split and the api2 breaker opening, and show its state', () => {
    expect(metrics).toContain('gateway_fallbacks_total{operation="recipes.search"} 3');
    expect(metrics).toContain(`gateway_shadow_comparisons_total{operation="reviews.get",outcome="${({ equal: 'agreed', differ: 'differed', race: 'raced', unavailable: 'api2-unavailable', skipped: 'skipped' } as const)[gateway.shadows[0]?.outcome ?? 'skipped']}"} 1`);
    expect(metrics).toContain('gateway_canary_requests_total{operation="grocery.list",side="api2"} 2');
    expect(metrics).toContain('gateway_breaker_opens_total{upstream="api2"} 1');
    expect(metrics).toContain('gateway_breaker_state{upstream="api2",state="open"} 1');
    expect(metrics).toContain('gateway_breaker_state{upstream="api2",state="closed"} 0');
  });

  it('show the routing and the config in force, and count reload failures', () => {
    expect(metrics).toContain('gateway_route_canary_percent{operation="grocery.list"} 100');
    // A rolled-out route shows its step in force, not its configured mode (legacy).
    expect(metrics).toContain('gateway_route_mode{operation="trysoons.list",mode="canary"} 1');
    expect(metrics).toContain('gateway_route_canary_percent{operation="trysoons.list"} 25');
    expect(metrics).toContain('gateway_rollout_api2_percent{operation="trysoons.list"} 25');
    expect(metrics).toContain('gateway_operation_state{operation="trysoons.list",state="rolling-out"} 1');
    expect(metrics).toContain('gateway_operation_state{operation="favorites.create",state="cannot-move"} 1');
    expect(metrics).toContain('gateway_operation_state{operation="favorites.create",state="done"} 0');
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
    for (const name of ['gateway_rollout_step', 'gateway_rollout_api2_percent', 'gateway_rollout_events_total', 'gateway_operation_state', 'gateway_route_mode']) expect(queried).toContain(name);
  });

  it('queries only labels the metrics carry, and scopes every operation panel by the operation variable', async () => {
    const dashboard = JSON.parse(await readFile('deploy/grafana/migration-dashboard.json', 'utf8')) as Dashboard;
    expect(dashboard.templating.list.find((v) => v.name === 'operation')?.query).toMatchObject({ query: 'label_values(gateway_route_mode, operation)' });
    const families = sampleLabels(metrics);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        const used = metricsOf(expr);
        const carried = new Set(used.flatMap((name) => [...(families.get(name) ?? [])]));
        expect(labelsOf(expr).filter((label) => !carried.has(label)), `${panel.title}: ${expr}`).toEqual([]);
        if (carried.has('operation')) expect(expr, panel.title).toContain('operation=~"$operation"');
      }
    }
  });
});
