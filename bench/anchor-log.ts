/**
 * The usage-log line the anchors write (floor + log, bare Hono + log): one pino `info` line per
 * request with a dozen fields, to /dev/null through an async sonic-boom destination in batches of
 * at least 4 KiB, as the gateway's usage log is configured (src/observability/node/usage-log.ts).
 * It goes through pino's ordinary `logger.info(fields, msg)`: what any Node service pays for one
 * structured log line, the yardstick for the gateway's own line.
 */
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
          requestId: randomUUID(),
          method: 'GET',
          operation: 'recipes.search',
          pathTemplate: '/recipes',
          mode: 'legacy',
          form: 'query',
          scheme: 'http',
          insecure: false,
          client: 'c0ffee00c0ffee00',
          status,
          latencyMs: Math.round((performance.now() - startedAt) * 100) / 100,
          upstreamMs: upstreamMs ?? 0,
          bytesIn: 0,
          bytesOut,
        },
        'request',
      ),
    close: () => {
      clearInterval(timer);
      destination.flushSync();
    },
  };
}
