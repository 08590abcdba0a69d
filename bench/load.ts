/**
 * Load: autocannon in this process against one origin (sub-millisecond latencies from its per-response
 * times); `measureTarget` adds the CPU and promoted bytes of the process under test per request.
 */
import autocannon from 'autocannon';
import type { Child } from './children.js';
import { REQUEST_HEADERS } from './pages.js';
import { treeCpuMicros } from './proc.js';

/** `amount`: exactly this many requests instead of a duration; `requests`: a sequence each connection loops over (bench/soak.ts). */
export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationS?: number;
  readonly amount?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly requests?: autocannon.Request[];
  readonly timeoutS?: number;
}

/** `errors`: connection errors (timeouts included) + non-2xx; per request: the CPU (user + system, µs) and the bytes promoted by the process under test. */
export interface Measurement {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly timeouts: number;
  readonly requests: number;
  readonly durationS: number;
  readonly cpuUsPerRequest?: number;
  readonly promotedBytesPerRequest?: number;
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** The measurement, and every response time (ms, sorted). */
export function runLoad(options: LoadOptions): Promise<Measurement & { readonly latencies: Float64Array }> {
  const durationS = options.durationS ?? 0;
  // autocannon only checks its deadline on a sample tick: ticks that divide the duration exactly.
  const timing = options.amount ? { amount: options.amount } : { duration: durationS, sampleInt: (durationS * 1000) / Math.max(1, Math.ceil(durationS)) };
  const sequence = options.requests ? { requests: options.requests } : {};
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: options.url, connections: options.connections, ...timing, ...sequence, headers: { ...options.headers }, timeout: options.timeoutS ?? 10 },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const sorted = Float64Array.from(latencies).sort();
        const seconds = result.duration > 0 ? result.duration : durationS;
        resolve({
          reqPerSec: result.requests.total / seconds,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          errors: result.errors + result.non2xx,
          non2xx: result.non2xx,
          timeouts: result.timeouts,
          requests: result.requests.total,
          durationS: seconds,
          latencies: sorted,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => void latencies.push(responseTime));
  });
}

/** V8 prints a collection's line after it ends; give the last one time to reach the pipe. */
const GC_LINE_SETTLE_MS = 100;

export async function measureTarget(target: Child, url: string, connections: number, durationS: number): Promise<Measurement> {
  const cpuBefore = treeCpuMicros(target.pid);
  const promotedBefore = target.gc?.promotedBytes() ?? Number.NaN;
  const { latencies: _, ...result } = await runLoad({ url, headers: REQUEST_HEADERS, connections, durationS });
  const cpuAfter = treeCpuMicros(target.pid);
  if (target.gc) await new Promise((resolve) => setTimeout(resolve, GC_LINE_SETTLE_MS));
  const promotedAfter = target.gc?.promotedBytes() ?? Number.NaN;
  const per = (value: number) => (result.requests > 0 ? value / result.requests : Number.NaN);
  return { ...result, cpuUsPerRequest: per(cpuAfter - cpuBefore), promotedBytesPerRequest: per(promotedAfter - promotedBefore) };
}
