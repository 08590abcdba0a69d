/**
 * One measurement: autocannon (programmatic, in this process) against one URL for a fixed duration
 * and connection count. req/s is completed requests over the measured time; latencies are recorded
 * from autocannon's per-response times (sub-millisecond, unlike its 1 ms histogram) and reduced to
 * p50/p99 here. Errors are connection errors and timeouts plus non-2xx answers.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationS: number;
}

export interface Measurement {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Connection errors (timeouts included) + non-2xx answers. */
  readonly errors: number;
  readonly non2xx: number;
  readonly timeouts: number;
  readonly requests: number;
  readonly durationS: number;
  /** CPU (user + system) the process under test spent per request, in µs (bench/measure.ts). */
  readonly cpuUsPerRequest?: number;
  /** Bytes its scavenges promoted to the old generation per request (bench/measure.ts). */
  readonly promotedBytesPerRequest?: number;
}

export function percentile(sorted: Float64Array | readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function runLoad(options: LoadOptions): Promise<Measurement> {
  // autocannon only checks its deadline on a sample tick: ticks that divide the duration exactly.
  const ticks = Math.max(1, Math.ceil(options.durationS));
  const sampleInt = (options.durationS * 1000) / ticks;
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationS,
        sampleInt,
        headers: { ...options.headers },
        timeout: 10,
      },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const sorted = Float64Array.from(latencies).sort();
        const seconds = result.duration > 0 ? result.duration : options.durationS;
        resolve({
          reqPerSec: result.requests.total / seconds,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          errors: result.errors + result.non2xx,
          non2xx: result.non2xx,
          timeouts: result.timeouts,
          requests: result.requests.total,
          durationS: seconds,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
}
