/**
 * Single requests outside the measured load: the probe that checks a target answers what the
 * scenario expects (status, size, X-Cache), and bounded-concurrency request batches (cache fill).
 */
import { Agent, request } from 'undici';

export interface ProbeResult {
  readonly status: number;
  readonly bytes: number;
  readonly xCache: string | undefined;
  readonly contentType: string | undefined;
}

/** The probes' connection pool; closed at the end of a run and made anew for the next (`--runs`). */
let agent: Agent | undefined;
const probes = (): Agent => (agent ??= new Agent({ connections: 64, keepAliveTimeout: 2000 }));

export async function probe(url: string, headers: Readonly<Record<string, string>>): Promise<ProbeResult> {
  const response = await request(url, { method: 'GET', headers: { ...headers }, dispatcher: probes(), headersTimeout: 10_000, bodyTimeout: 10_000 });
  const body = Buffer.from(await response.body.arrayBuffer());
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return { status: response.statusCode, bytes: body.byteLength, xCache: header('x-cache'), contentType: header('content-type') };
}

/** Runs `count` tasks with at most `concurrency` at a time; stops starting new ones after `deadline` (ms epoch). */
export async function inBatches(count: number, concurrency: number, deadline: number, task: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < count && Date.now() < deadline) {
      const index = next++;
      await task(index);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return done;
}

export async function closeProbes(): Promise<void> {
  const closing = agent;
  agent = undefined;
  await closing?.close();
}
