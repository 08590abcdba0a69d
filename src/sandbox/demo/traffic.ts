/**
 * The demo's traffic: the population of population.ts sent to the gateway at a bounded rate, for
 * a bounded total, to a loopback address only, until stopped (the process stops it on exit; its
 * timer does not keep the process alive). One request in flight per tick at most `maxInFlight`.
 * Seeded: the same seed sends the same sequence of requests.
 */
import { mulberry32 } from '../dataset/dataset.js';
import { installations, nextRequest, remember } from './population.js';
import type { DemoRequest, Memory } from './population.js';

export interface TrafficOptions {
  /** `http://127.0.0.1:<port>` (loopback only). */
  readonly origin: string;
  /** Requests per second, 1 to 200. */
  readonly rate: number;
  /** Requests in all, then it stops. */
  readonly total: number;
  readonly seed?: number;
  readonly maxInFlight?: number;
}

export interface RunningTraffic {
  /** Requests sent and answered so far, by status class. */
  stats(): { readonly sent: number; readonly answered: number; readonly failed: number };
  stop(): Promise<void>;
}

export const MAX_RATE = 200;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function startTraffic(options: TrafficOptions): RunningTraffic {
  const url = new URL(options.origin);
  if (!LOOPBACK.has(url.hostname)) throw new Error(`demo traffic goes to a loopback address only, not ${url.hostname}`);
  if (!(options.rate >= 1 && options.rate <= MAX_RATE)) throw new Error(`demo traffic rate: 1 to ${MAX_RATE} requests a second, got ${options.rate}`);
  const random = mulberry32(options.seed ?? 20_261_126);
  const clients = installations();
  const memory: Memory = { reviews: new Map(), grocery: new Map() };
  const maxInFlight = options.maxInFlight ?? 16;
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let answered = 0;
  let failed = 0;

  const send = async (request: DemoRequest): Promise<void> => {
    const { installation } = request;
    const headers: Record<string, string> = { 'user-agent': installation.program.userAgent };
    if (installation.program.json) headers['accept'] = 'application/json';
    if (installation.user) headers['authorization'] = `Basic ${btoa(`${installation.user.user}:${installation.user.password}`)}`;
    let body: string | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    }
    try {
      const res = await fetch(`${options.origin}${request.target}`, { method: request.method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      answered += 1;
      if (res.ok && installation.program.json && request.method === 'POST') remember(memory, request, safeJson(text));
    } catch {
      failed += 1;
    }
  };

  const tickMs = 100;
  const perTick = options.rate / (1000 / tickMs);
  let credit = 0;
  const timer = setInterval(() => {
    credit += perTick;
    while (credit >= 1 && sent < options.total && inFlight.size < maxInFlight) {
      credit -= 1;
      sent += 1;
      const running = send(nextRequest(random, clients, memory)).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    if (credit > perTick * 2) credit = perTick; // behind (in-flight bound): never burst to catch up
    if (sent >= options.total) clearInterval(timer);
  }, tickMs);
  timer.unref();

  return {
    stats: () => ({ sent, answered, failed }),
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
