/** The anchors' usage-log line: pino `info`, a dozen fields, async to /dev/null in ≥ 4 KiB batches, as the gateway's log (usage-log.ts). */
import { randomUUID } from 'node:crypto';
import pino from 'pino';

export type AnchorLog = (fields: { status: number; bytesOut: number; startedAt: number; upstreamMs?: number }) => void;

export function createAnchorLog(): { log: AnchorLog; close(): void } {
  const destination = pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 });
  const logger = pino({ base: null }, destination);
  const timer = setInterval(() => destination.flush(), 1000);
  timer.unref();
  return {
    log: ({ status, bytesOut, startedAt, upstreamMs }) =>
      logger.info(
        {
          requestId: randomUUID(), method: 'GET', operation: 'recipes.search', pathTemplate: '/recipes', mode: 'legacy', form: 'query', scheme: 'http',
          insecure: false, client: 'c0ffee00c0ffee00', status, latencyMs: Math.round((performance.now() - startedAt) * 100) / 100,
          upstreamMs: upstreamMs ?? 0, bytesIn: 0, bytesOut,
        },
        'request',
      ),
    close: () => {
      clearInterval(timer);
      destination.flushSync();
    },
  };
}
