/**
 * `workers: 2` (src/node/cluster.ts): `npm start` as a real child process runs two node:cluster
 * workers that answer as one gateway. Both share the listener, each keeps its own cache (a write
 * answered through one is seen through the other), their
 * lines go to one usage log (whole JSON lines), the admin listener sums both workers' metrics,
 * a reload (SIGHUP) reaches both, and SIGTERM drains both and exits 0 with no worker left.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { workerCount } from '../src/node/cluster.js';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { mainChildrenKilledAfterEach } from './support/started-process.js';
import { waitFor } from './support/wait.js';

const PAGE = JSON.stringify({ ResultCount: 0, Results: [], SpellSuggest: null });
const SLOW_MS = 1500;

let dir: string;
let first: RecordingUpstream;
let second: RecordingUpstream;
const answer = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(PAGE);
  }, req.url?.includes('slow') ? SLOW_MS : 0);
};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cluster-'));
  first = await startRecordingUpstream(answer);
  second = await startRecordingUpstream(answer);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await rm(dir, { recursive: true, force: true });
});

const startMainChild = mainChildrenKilledAfterEach();

/** Pids of the live processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('worker-main');
      } catch {
        return false;
      }
    })
    .map(Number);
}

function configFor(upstream: string, logFile: string, cache: boolean): object {
  return {
    workers: 2,
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: upstream } },
    cache: { enabled: cache },
    observability: { log: { destination: logFile }, admin: { listen: { host: '127.0.0.1', port: 0 } } },
  };
}

async function startMain(file: string) {
  const main = await startMainChild(file, /metrics: http:\/\/\S+/, 90_000);
  const origin = /listening on (http:\/\/\S+)/.exec(main.output())?.[1];
  const metrics = /metrics: (http:\/\/\S+)/.exec(main.output())?.[1];
  if (!origin || !metrics) throw new Error(`the gateway did not start:\n${main.output()}`);
  return { ...main, origin, metrics };
}

/** Each request on a connection of its own, so node:cluster hands them to the workers in turn. */
const search = (origin: string, keyword: string) =>
  send(origin, { target: `/recipes?title_kw=${keyword}&pg=1&rpp=5&api_key=cluster-key`, headers: { accept: 'application/json' }, timeoutMs: 20_000 });

function requestLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line['msg'] === 'request');
}

describe('workers: 2', () => {
  it('shares the listener, keeps a cache per worker, one usage log, metrics summed, reloads every worker', { timeout: 240_000 }, async () => {
    const logFile = join(dir, 'shared.log');
    const file = join(dir, 'shared.json');
    await writeFile(file, JSON.stringify(configFor(first.origin, logFile, true)));
    const gateway = await startMain(file);
    expect(childrenOf(gateway.child.pid ?? -1)).toHaveLength(2);

    const answers = await Promise.all(Array.from({ length: 10 }, () => search(gateway.origin, 'soup')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    // The same page, cached by each worker once: exactly two upstream fetches, one per worker.
    expect(first.requests.length).toBe(2);

    const scraped = await fetch(gateway.metrics).then((r) => r.text());
    const counted = [...scraped.matchAll(/^gateway_requests_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(counted).toBe(10);

    // SIGHUP: both workers take the new file (a second upstream, cache off): every request goes there.
    await writeFile(file, JSON.stringify(configFor(second.origin, logFile, false)));
    gateway.child.kill('SIGHUP');
    await waitFor(() => /in force \(version 2\)/.test(gateway.output()), 30_000, 'the reload');
    const after = await Promise.all(Array.from({ length: 10 }, () => search(gateway.origin, 'stew')));
    expect(after.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(second.requests.length).toBe(10);
    expect(first.requests.length).toBe(2);

    gateway.child.kill('SIGTERM');
    expect((await gateway.exited).code).toBe(0);
    // One stream of whole lines: every line parses, one per request answered.
    const lines = requestLines(await readFile(logFile, 'utf8'));
    expect(lines).toHaveLength(20);
    expect(new Set(lines.map((l) => l['requestId'])).size).toBe(20);
  });

  it('a write answered through one worker is seen through every worker (no redis)', { timeout: 240_000 }, async () => {
    const state = { reviews: 0 };
    const counting = await startRecordingUpstream((req, res) => {
      if (req.method === 'POST') state.reviews += 1;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(req.method === 'POST' ? '{"ReviewID":1}' : JSON.stringify({ ResultCount: state.reviews, Results: [], SpellSuggest: null }));
    });
    try {
      const file = join(dir, 'writes.json');
      await writeFile(file, JSON.stringify(configFor(counting.origin, join(dir, 'writes.log'), true)));
      const gateway = await startMain(file);
      const count = async () => ((await search(gateway.origin, 'soup')).json() as { ResultCount: number }).ResultCount;
      // Both workers hold the page.
      expect([await count(), await count()]).toEqual([0, 0]);
      const stale: string[] = [];
      for (let i = 1; i <= 20; i += 1) {
        const written = await send(gateway.origin, {
          method: 'POST',
          target: '/reviews?api_key=cluster-key',
          headers: { accept: 'application/json', authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' },
          body: JSON.stringify({ rid: 7, rating: 5, makeagain: 'yes', message: 'Again', totaltime: 20, activetime: 5 }),
        });
        expect(written.status).toBe(200);
        // Each read on a connection of its own: the workers answer in turn.
        for (let read = 0; read < 4; read += 1) {
          const seen = await count();
          if (seen !== i) stale.push(`write ${i}, read ${read}: ${seen}`);
        }
      }
      expect(stale).toEqual([]);
      // Still cached between writes: each worker fetched the page about once per write.
      expect(counting.requests.filter((r) => r.method === 'GET').length).toBeLessThanOrEqual(2 + 20 * 2);
      gateway.child.kill('SIGTERM');
      expect((await gateway.exited).code).toBe(0);
    } finally {
      await counting.close();
    }
  });

  it('SIGTERM drains the requests in flight on every worker, then exits 0 with no worker left', { timeout: 240_000 }, async () => {
    const logFile = join(dir, 'drain.log');
    const file = join(dir, 'drain.json');
    await writeFile(file, JSON.stringify(configFor(first.origin, logFile, false)));
    const gateway = await startMain(file);
    const workers = childrenOf(gateway.child.pid ?? -1);
    expect(workers).toHaveLength(2);
    const before = first.requests.length;

    const inFlight = Array.from({ length: 6 }, (_, i) => search(gateway.origin, `slow${i}`));
    await waitFor(() => first.requests.length - before >= 6, 30_000, 'requests in flight');
    gateway.child.kill('SIGTERM');

    const answered = await Promise.all(inFlight);
    expect(answered.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect((await gateway.exited).code).toBe(0);
    for (const pid of workers) expect(existsSync(`/proc/${pid}`), `worker ${pid}`).toBe(false);
    expect(requestLines(await readFile(logFile, 'utf8'))).toHaveLength(6);
  });
});

describe('the workers setting', () => {
  it('takes a whole number from 1 or "auto" (one per core), and refuses anything else', () => {
    const base = { upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } } };
    expect(parseConfig(base).ok && parseConfig(base)).toMatchObject({ config: { workers: 1 } });
    expect(parseConfig({ ...base, workers: 'auto' }).ok).toBe(true);
    for (const bad of [0, -1, 1.5, 'many']) expect(parseConfig({ ...base, workers: bad }).ok, String(bad)).toBe(false);
    expect(workerCount('auto')).toBe(availableParallelism());
    expect(workerCount(3)).toBe(3);
  });
});
