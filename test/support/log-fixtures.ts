/**
 * Generated usage logs with known answers, for the report tests: lines shaped exactly as the
 * gateway's pino logger writes them (request records: src/observability/log-fields.ts; shadow
 * comparisons: `UsageLog.event('shadow', record)` in src/observability/node/usage-log.ts), two
 * scenarios whose every figure is worked out by hand below, and helpers to write them to
 * (gzipped) files.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FixtureRecord {
  readonly time: number;
  readonly operation: string;
  readonly mode: string;
  readonly status?: number;
  readonly method?: string;
  readonly latencyMs?: number;
  readonly client?: string;
  readonly clientLabel?: string;
  readonly form?: string;
  readonly versionPrefix?: string;
  readonly scheme?: 'http' | 'https';
  readonly insecure?: boolean;
  readonly cache?: string;
  readonly pathTemplate?: string;
  readonly error?: string;
  /** The route's configured mode; `mode` is the side that answered. */
  readonly routeMode?: 'legacy' | 'api2' | 'canary' | 'shadow';
  readonly fallback?: true;
  readonly jsonBy?: 'accept' | 'content-type';
  readonly deprecation?: 'deprecation' | 'sunset' | 'deprecation+sunset';
  /** The config hash in force. */
  readonly config?: string;
  /** On a rolled-out route, when its step in force began (epoch ms). */
  readonly stepSince?: number;
}

/** A shadow comparison (src/traffic/shadow.ts `ShadowRecord`). */
export interface FixtureShadow {
  readonly time: number;
  readonly operation: string;
  readonly outcome: 'equal' | 'differ' | 'skipped';
  readonly reason?: string;
  readonly diffs?: ReadonlyArray<{ path: string; kind: 'changed' | 'missing' | 'extra' | 'type' }>;
  readonly noise?: readonly string[];
  readonly legacyStatus?: number;
  readonly api2Status?: number;
  readonly config?: string;
  readonly routeMode?: 'legacy' | 'api2' | 'canary' | 'shadow';
  readonly stepSince?: number;
}

let sequence = 0;

/** One line as the gateway writes it. */
export function logLine(r: FixtureRecord): string {
  const status = r.status ?? 200;
  const fields: Record<string, unknown> = {
    level: status >= 500 ? 40 : 30,
    time: r.time,
    ...(r.config !== undefined ? { config: r.config } : {}),
    requestId: `req-${++sequence}`,
    method: r.method ?? 'GET',
    operation: r.operation,
    mode: r.mode,
    ...(r.routeMode !== undefined ? { routeMode: r.routeMode } : {}),
    ...(r.stepSince !== undefined ? { stepSince: r.stepSince } : {}),
    ...(r.fallback ? { fallback: true } : {}),
    insecure: r.insecure ?? false,
    status,
  };
  if (r.pathTemplate !== undefined) fields['pathTemplate'] = r.pathTemplate;
  if (r.form !== undefined) fields['form'] = r.form;
  if (r.versionPrefix !== undefined) fields['versionPrefix'] = r.versionPrefix;
  fields['scheme'] = r.scheme ?? 'https';
  if (r.jsonBy !== undefined) fields['jsonBy'] = r.jsonBy;
  if (r.client !== undefined) fields['client'] = r.client;
  if (r.clientLabel !== undefined) fields['clientLabel'] = r.clientLabel;
  if (r.latencyMs !== undefined) fields['latencyMs'] = r.latencyMs;
  if (r.cache !== undefined) fields['cache'] = r.cache;
  if (r.deprecation !== undefined) fields['deprecation'] = r.deprecation;
  if (r.error !== undefined) fields['error'] = r.error;
  fields['msg'] = 'request';
  return JSON.stringify(fields);
}

/**
 * One shadow comparison as the usage log writes it: pino's `level` and epoch-ms `time` first, the
 * record's own ISO `time` dropped, then the record's fields in order, then `msg`. Taken from real
 * output of `createUsageLog(…).event('shadow', record)`:
 *
 *   {"level":30,"time":1795244762553,"kind":"shadow","requestId":"r-1","operation":"recipes.search",
 *    "outcome":"differ","diffs":[{"path":"Results[].Title","kind":"changed"}],"noise":["ResultCount"],
 *    "legacyStatus":200,"api2Status":200,"msg":"shadow"}
 *   {"level":30,"time":1795244762557,"kind":"shadow","operation":"grocery.list","outcome":"skipped",
 *    "reason":"concurrency-cap","msg":"shadow"}
 */
export function shadowLine(s: FixtureShadow): string {
  const fields: Record<string, unknown> = { level: 30, time: s.time, ...(s.config !== undefined ? { config: s.config } : {}), kind: 'shadow', requestId: `req-${++sequence}`, operation: s.operation, ...(s.routeMode !== undefined ? { routeMode: s.routeMode } : {}), ...(s.stepSince !== undefined ? { stepSince: s.stepSince } : {}), outcome: s.outcome };
  if (s.reason !== undefined) fields['reason'] = s.reason;
  if (s.outcome !== 'skipped' || s.diffs !== undefined) fields['diffs'] = s.diffs ?? [];
  if (s.outcome !== 'skipped' || s.noise !== undefined) fields['noise'] = s.noise ?? [];
  if (s.legacyStatus !== undefined || s.outcome !== 'skipped') fields['legacyStatus'] = s.legacyStatus ?? 200;
  if (s.api2Status !== undefined || s.outcome !== 'skipped') fields['api2Status'] = s.api2Status ?? s.legacyStatus ?? 200;
  fields['msg'] = 'shadow';
  return JSON.stringify(fields);
}

export function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

export const T0 = Date.parse('2026-01-05T10:00:00.000Z');
export const CLIENT_A = 'aaaaaaaaaaaaaaaa';
export const CLIENT_B = 'bbbbbbbbbbbbbbbb';
export const CLIENT_C = 'cccccccccccccccc';

/** Within the first hour, one second apart per record index. */
const at = (i: number): number => T0 + (i % 3600) * 1000;

/**
 * The scenario (578 records, all between 10:00 and 11:00 UTC):
 *
 * recipes.search, 300: legacy 200 (A 150 of which 20 with /v1/, B 50 over plain http with the key:
 *   insecure), latencies 1..100 ms twice, 2 answers 500; api2 100 (A), 10 ms each, 3 answers 502.
 *   → errors 5/300, legacy p50 50 p95 95, api2 error rate 3 % > legacy 1 %: not ready.
 * grocery.update, 40 (B, legacy): 30 malformed form, 10 regular → no api2 traffic, 1 client on
 *   malformed forms (30 requests): not ready.
 * grocery.list, 200 (A): legacy 50, api2 150 (cache HIT 100, MISS 30, STALE 20 → hit rate 0.8),
 *   all 200, 5 ms → ready.
 * favorites.list, 20 (A, api2) → only 20 requests in api2 mode: not ready.
 * uncatalogued GET /recipe/{n}, 10 (C, legacy) → not ready.
 * reviews.get, 5 without api_key (legacy, 403).
 * 3 refused before routing (unrouted, gateway, 400).
 */
export function scenarioLines(): string[] {
  const records: FixtureRecord[] = [];
  let i = 0;
  const push = (r: Omit<FixtureRecord, 'time'>): void => void records.push({ time: at(i++), ...r });

  for (let k = 0; k < 200; k++) {
    const client = k < 150 ? CLIENT_A : CLIENT_B;
    push({
      operation: 'recipes.search',
      mode: 'legacy',
      form: 'canonical',
      latencyMs: (k % 100) + 1,
      status: k === 10 || k === 160 ? 500 : 200,
      client,
      ...(client === CLIENT_A ? { clientLabel: 'ios-app' } : {}),
      ...(k < 20 ? { versionPrefix: 'v1' } : {}),
      ...(client === CLIENT_B ? { scheme: 'http' as const, insecure: true } : {}),
    });
  }
  for (let k = 0; k < 100; k++) {
    push({ operation: 'recipes.search', mode: 'api2', form: 'canonical', latencyMs: 10, status: k < 3 ? 502 : 200, client: CLIENT_A, clientLabel: 'ios-app' });
  }
  for (let k = 0; k < 40; k++) {
    push({
      operation: 'grocery.update',
      method: k < 30 ? 'POST' : 'PUT',
      mode: 'legacy',
      form: k < 30 ? 'malformed' : 'regular',
      latencyMs: 7,
      client: CLIENT_B,
    });
  }
  for (let k = 0; k < 50; k++) push({ operation: 'grocery.list', mode: 'legacy', form: 'canonical', latencyMs: 5, client: CLIENT_A, clientLabel: 'ios-app' });
  for (let k = 0; k < 150; k++) {
    push({
      operation: 'grocery.list',
      mode: 'api2',
      form: 'canonical',
      latencyMs: 5,
      client: CLIENT_A,
      clientLabel: 'ios-app',
      cache: k < 100 ? 'HIT' : k < 130 ? 'MISS' : 'STALE',
    });
  }
  for (let k = 0; k < 20; k++) push({ operation: 'favorites.list', mode: 'api2', form: 'canonical', latencyMs: 4, client: CLIENT_A, clientLabel: 'ios-app' });
  for (let k = 0; k < 10; k++) push({ operation: 'uncatalogued', pathTemplate: '/recipe/{n}', mode: 'legacy', latencyMs: 3, client: CLIENT_C });
  for (let k = 0; k < 5; k++) push({ operation: 'reviews.get', mode: 'legacy', form: 'canonical', status: 403, latencyMs: 2 });
  for (let k = 0; k < 3; k++) push({ operation: 'unrouted', mode: 'gateway', status: 400, error: 'bad-target', latencyMs: 0.1 });
  return records.map(logLine);
}

/**
 * The traffic-control scenario (418 request records and 174 shadow lines, from 10:20 UTC, one
 * second apart; each shadow line follows the request it compares):
 *
 * recipes.search, route in shadow mode: 104 requests (legacy answered, A). 100 compared: 97
 *   equal, 3 differ on Results[].Title (changed), one of those also on Results[].Poster.UserName
 *   (missing); legacy varied on Results[].StarRating in 5 comparisons, on ResultCount in 2 of
 *   those (noise); 4 skipped (3 concurrency-cap, 1 api2 answer invalid-json).
 *   → agreement 0.97 < 0.99 over 100 ≥ 50 comparisons: not ready, naming Results[].Title (3).
 * grocery.list, shadow: 10 requests, 10 compared, all equal → agreement 1, but too few
 *   comparisons (10 < 50) and no api2 traffic: not ready.
 * trysoons.list, shadow: 60 requests, 60 compared, all equal → ready (60 ≥ 50 comparisons stand
 *   in for api2 traffic).
 * reviews.list, route in api2 mode with fallback: 120 answered by api2 (10 ms), 4 by legacy after
 *   api2 failed (fallback, 30 ms) → api2 errors 0, p95 fine: not ready, 4 fallbacks to legacy.
 * favorites.list, route in canary mode: 80 answered by api2, 40 by legacy (mode = the side) →
 *   only 80 requests in api2 mode: not ready.
 */
export function shadowScenarioLines(): string[] {
  const lines: string[] = [];
  let i = 0;
  const time = (): number => T0 + 20 * 60_000 + (i++) * 1000;
  const request = (r: Omit<FixtureRecord, 'time'>): void => void lines.push(logLine({ time: time(), form: 'canonical', client: CLIENT_A, clientLabel: 'ios-app', ...r }));
  const shadow = (s: Omit<FixtureShadow, 'time'>): void => void lines.push(shadowLine({ time: time(), ...s }));

  for (let k = 0; k < 104; k++) {
    request({ operation: 'recipes.search', mode: 'legacy', routeMode: 'shadow', latencyMs: 20 });
    if (k < 97) {
      shadow({ operation: 'recipes.search', outcome: 'equal', noise: k < 2 ? ['Results[].StarRating', 'ResultCount'] : k < 5 ? ['Results[].StarRating'] : [] });
    } else if (k < 100) {
      const diffs = [{ path: 'Results[].Title', kind: 'changed' as const }, ...(k === 99 ? [{ path: 'Results[].Poster.UserName', kind: 'missing' as const }] : [])];
      shadow({ operation: 'recipes.search', outcome: 'differ', diffs });
    } else if (k < 103) {
      shadow({ operation: 'recipes.search', outcome: 'skipped', reason: 'concurrency-cap' });
    } else {
      shadow({ operation: 'recipes.search', outcome: 'skipped', reason: 'api2 answer invalid-json', legacyStatus: 200, api2Status: 200 });
    }
  }
  for (let k = 0; k < 10; k++) {
    request({ operation: 'grocery.list', mode: 'legacy', routeMode: 'shadow', latencyMs: 5 });
    shadow({ operation: 'grocery.list', outcome: 'equal' });
  }
  for (let k = 0; k < 60; k++) {
    request({ operation: 'trysoons.list', mode: 'legacy', routeMode: 'shadow', latencyMs: 8 });
    shadow({ operation: 'trysoons.list', outcome: 'equal' });
  }
  for (let k = 0; k < 124; k++) {
    if (k % 31 === 30) request({ operation: 'reviews.list', mode: 'legacy', routeMode: 'api2', fallback: true, latencyMs: 30, error: 'fallback: api2-unavailable' });
    else request({ operation: 'reviews.list', mode: 'api2', routeMode: 'api2', latencyMs: 10 });
  }
  for (let k = 0; k < 120; k++) request({ operation: 'favorites.list', mode: k % 3 === 2 ? 'legacy' : 'api2', routeMode: 'canary', latencyMs: 4 });
  return lines;
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'usage-log-'));
}

export async function writeLog(lines: readonly string[], options: { gzip?: boolean; name?: string } = {}): Promise<string> {
  const dir = await tempDir();
  const file = join(dir, options.name ?? (options.gzip ? 'access.log.gz' : 'access.log'));
  const text = `${lines.join('\n')}\n`;
  await writeFile(file, options.gzip ? gzipSync(text) : text);
  return file;
}

/**
 * `count` realistic request lines (seeded, so the same every run), as the gateway's writer puts
 * them (instance and config included), with a shadow comparison after about one in 20 requests:
 * skewed towards recipes.search in legacy mode (about 40 % of records, so that cell's latency
 * sketch passes its exact limit), every catalogue form, 200 clients, latencies at 0.01 ms
 * resolution, 50 ms apart from index `first`. For the ClickHouse comparison and the throughput
 * figures (scripts/analytics-throughput.ts).
 */
export function generatedLines(count: number, seed = 42, first = 0, operations: readonly string[] = GENERATED_OPERATIONS): string[] {
  let state = seed;
  const random = (): number => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const clients = Array.from({ length: 200 }, (_, i) => i.toString(16).padStart(16, '0'));
  const modes = ['legacy', 'legacy', 'api2', 'api2', 'gateway'];
  const lines: string[] = [];
  for (let i = first; i < first + count; i++) {
    const hot = random() < 0.4;
    const operation = hot ? 'recipes.search' : pick(operations);
    const client = random() < 0.05 ? undefined : pick(clients);
    const status = random() < 0.02 ? 502 : random() < 0.05 ? 400 : 200;
    const fields: Record<string, unknown> = {
      level: status >= 500 ? 40 : 30,
      time: T0 + i * 50,
      instance: `pod-${i % 3}`,
      config: 'c0ffee01',
      requestId: `00000000-0000-4000-8000-${(seed * 1e9 + i).toString(16).padStart(12, '0')}`,
      method: operation === 'grocery.update' ? pick(['POST', 'PUT']) : 'GET',
      operation,
      mode: hot ? 'legacy' : operation === 'unrouted' ? 'gateway' : pick(modes),
      insecure: random() < 0.1,
      status,
      ...(random() < 0.3 ? { routeMode: pick(['legacy', 'api2', 'canary', 'shadow']) } : {}),
      ...(random() < 0.01 ? { fallback: true } : {}),
      ...(operation === 'uncatalogued' ? { pathTemplate: pick(['/recipe/{n}', '/old/{s}']) } : operation === 'unrouted' ? {} : { form: pick(['canonical', 'canonical', 'regular', 'malformed']) }),
      ...(random() < 0.05 ? { versionPrefix: pick(['v1', 'v2']) } : {}),
      scheme: random() < 0.2 ? 'http' : 'https',
      ...(client !== undefined ? { client, ...(client.endsWith('1') ? { clientLabel: 'partner-app' } : {}) } : {}),
      // A client program on four lines of five, without drawing from the sequence.
      ...(i % 5 !== 0 ? { clientProgram: ['RecipeBox', 'CookingPal', 'MealPlanner.NET', 'RecipeWidget'][i % 4] } : {}),
      latencyMs: random() < 0.01 ? 0 : Math.round(random() * random() * 50_000) / 100,
      upstreamMs: Math.round(random() * 15_000) / 100,
      ...(random() < 0.3 ? { cache: pick(['HIT', 'MISS', 'STALE', 'BYPASS']) } : {}),
      bytesIn: 0,
      bytesOut: 1500 + Math.floor(random() * 3000),
      // The deprecation signal on every 7th catalogued answer, without drawing from the sequence.
      ...(i % 7 === 0 && operation !== 'uncatalogued' && operation !== 'unrouted' ? { deprecation: i % 2 === 0 ? 'deprecation' : 'deprecation+sunset' } : {}),
      msg: 'request',
    };
    lines.push(JSON.stringify(fields));
    if (random() < 0.05) {
      const outcome = pick(['equal', 'equal', 'equal', 'differ', 'skipped'] as const);
      lines.push(
        shadowLine({
          time: T0 + i * 50 + 1,
          operation,
          outcome,
          ...(outcome === 'skipped' ? { reason: pick(['concurrency-cap', 'api2 answer invalid-json']) } : {}),
          ...(outcome === 'differ' ? { diffs: [{ path: pick(['Results[].Title', 'ResultCount']), kind: 'changed' as const }, { path: 'Results[].Title', kind: 'changed' as const }] } : {}),
          ...(random() < 0.2 ? { noise: ['Results[].StarRating'] } : {}),
        }),
      );
    }
  }
  return lines;
}

const GENERATED_OPERATIONS = ['recipes.search', 'trysoons.list', 'grocery.list', 'grocery.update', 'reviews.get', 'favorites.list', 'uncatalogued', 'unrouted'];
