/**
 * The export never stands between a client and its answer (docs/tracing.md, "Cost and bounds"):
 * with the OTLP receiver hanging every export (past the export's deadline) or gone, every answer
 * is the same and comes without waiting for the export (each well under the export's deadline);
 * kept traces past the queue are dropped, said on their usage line (`traced: dropped`) and
 * counted in /metrics, as are the spans the receiver did not take.
 */
import { describe, expect, it } from 'vitest';
import { send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { waitFor } from './support/wait.js';

const KEY = 'sandbox-free-key';
const EXPORT_DEADLINE_MS = 2000;
/** What an answer may take here: far below the export's deadline, which an answer waiting on the export would take. */
const ANSWER_BOUND_MS = 500;
const cleanup = closedAfterEachTest();

async function rig() {
  const receiver = await startOtlpReceiver();
  cleanup.push(() => receiver.close());
  const legacy = await startRecordingUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"ok":true}');
  });
  cleanup.push(() => legacy.close());
  const gateway = await startTestGateway(legacy.origin, {
    observability: {
      admin: { listen: { port: 0 } },
      tracing: { enabled: true, endpoint: receiver.url, headRatio: 1, queueSize: 2, batchSize: 1, flushMs: 10, timeoutMs: EXPORT_DEADLINE_MS },
    },
  });
  cleanup.push(() => gateway.close());
  return { receiver, gateway };
}

async function metric(adminOrigin: string, name: string): Promise<number> {
  const text = await (await fetch(`${adminOrigin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

async function answers(origin: string, count: number): Promise<Array<{ status: number; body: string; ms: number }>> {
  const seen = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await send(origin, { target: `/review/${i + 1}?api_key=${KEY}`, headers: { accept: 'application/json' } });
    seen.push({ status: res.status, body: res.body.toString(), ms: performance.now() - started });
  }
  return seen;
}

describe('a receiver that hangs or is gone', () => {
  it('hanging: every answer as usual and without waiting; traces past the queue dropped, said and counted', async () => {
    const { receiver, gateway } = await rig();
    receiver.delayMs = 10_000;
    const seen = await answers(gateway.origin, 20);
    for (const answer of seen) {
      expect(answer).toMatchObject({ status: 200, body: '{"ok":true}' });
      expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
    }
    const dropped = gateway.records.filter((r) => r.traced === 'dropped');
    expect(dropped.length, 'the queue holds 2 traces while one export hangs').toBeGreaterThan(0);
    expect(await metric(gateway.adminOrigin!, 'gateway_trace_spans_dropped_total')).toBe(dropped.length * 2);
    // The hanging export is cut at its deadline and counted.
    await waitFor(async () => (await metric(gateway.adminOrigin!, 'gateway_trace_spans_failed_total')) > 0, EXPORT_DEADLINE_MS + 3000, 'failed spans counted');
  });

  it('gone: every answer as usual and without waiting; the spans it could not take counted', async () => {
    const { receiver, gateway } = await rig();
    await receiver.close();
    const seen = await answers(gateway.origin, 10);
    for (const answer of seen) {
      expect(answer).toMatchObject({ status: 200, body: '{"ok":true}' });
      expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
    }
    await waitFor(async () => (await metric(gateway.adminOrigin!, 'gateway_trace_spans_failed_total')) > 0, EXPORT_DEADLINE_MS + 3000, 'failed spans counted');
    expect(await metric(gateway.adminOrigin!, 'gateway_trace_spans_exported_total')).toBe(0);
  });
});
