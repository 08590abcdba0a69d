/**
 * One measured load on one target: autocannon against its URL, and around it what the process
 * under test spent: CPU (user + system, its whole process tree, from /proc) and the bytes its
 * scavenges promoted (--trace-gc-nvp), each divided by the requests answered.
 */
import type { Child } from './children.js';
import { runLoad } from './load.js';
import type { Measurement } from './load.js';
import { REQUEST_HEADERS } from './scenarios.js';

/** V8 prints a collection's line after it ends; give the last one time to reach the pipe. */
const GC_LINE_SETTLE_MS = 100;

export async function measureTarget(target: Child | undefined, url: string, connections: number, durationS: number): Promise<Measurement> {
  const cpuBefore = target ? await target.cpuMicros() : Number.NaN;
  const promotedBefore = target?.gc?.promotedBytes() ?? Number.NaN;
  const result = await runLoad({ url, headers: REQUEST_HEADERS, connections, durationS });
  const cpuAfter = target ? await target.cpuMicros() : Number.NaN;
  if (target?.gc) await new Promise((resolve) => setTimeout(resolve, GC_LINE_SETTLE_MS));
  const promotedAfter = target?.gc?.promotedBytes() ?? Number.NaN;
  const per = (value: number) => (result.requests > 0 ? value / result.requests : Number.NaN);
  return { ...result, cpuUsPerRequest: per(cpuAfter - cpuBefore), promotedBytesPerRequest: per(promotedAfter - promotedBefore) };
}
