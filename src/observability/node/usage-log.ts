/**
 * Node-only: the usage log, one pino JSON line per request, written asynchronously through a
 * sonic-boom destination (`sync: false`): lines queue in memory and are written in batches of at
 * least 4 KiB, and at least every second, never one blocking write per request. At most 64 MiB
 * wait in memory when the destination stalls; beyond that lines are dropped (and counted), the
 * gateway does not stop answering. Pino writes what is queued when the process exits. Records
 * are `info`, answers 5xx `warn`.
 *
 *   {"level":30,"time":1732170000000,"instance":"pod-7","config":"3","requestId":"…","method":"GET","operation":"recipes.search",
 *    "mode":"legacy","insecure":false,"status":200,…,"msg":"request"}
 */
import pino from 'pino';
import type { RecordSink } from '../../gateway/request-record.js';
import type { ObservabilityConfig } from '../../config/observability.js';
import { logLine } from '../log-fields.js';
import type { LogOrigin } from '../log-fields.js';

const BATCH_BYTES = 4096;
const MAX_QUEUED_BYTES = 64 * 1024 * 1024;
const FLUSH_EVERY_MS = 1000;

export interface UsageLog {
  readonly sink: RecordSink;
  /** Other lines for the same stream (startup notes, warnings). */
  readonly logger: pino.Logger;
  /**
   * Another kind of record on the same stream (for example `shadow` comparisons), `msg` naming
   * it; its own `time` is dropped (pino writes one). The report counts these as other lines.
   */
  event(msg: string, fields: object): void;
  /**
   * Lines another process already wrote in this format (cluster workers, src/node/log-relay.ts),
   * whole lines ending in a newline, queued as they are on this stream.
   */
  relay(lines: string): void;
  /** Writes what is queued. */
  flush(): Promise<void>;
  /** Lines dropped because the destination stalled. */
  dropped(): number;
  /** Flushes, then closes a file destination (stdout and stderr stay open). */
  close(): Promise<void>;
}

function isDestroyed(stream: object): boolean {
  return (stream as { destroyed?: boolean }).destroyed === true;
}

export function createUsageLog(config: ObservabilityConfig['log'], origin: () => LogOrigin): UsageLog {
  const fd = config.destination === 'stdout' ? 1 : config.destination === 'stderr' ? 2 : undefined;
  const destination = pino.destination({
    dest: fd ?? config.destination,
    sync: false,
    mkdir: fd === undefined,
    minLength: BATCH_BYTES,
    maxLength: MAX_QUEUED_BYTES,
  });
  let dropped = 0;
  destination.on('drop', () => void dropped++);
  const logger = pino({ level: config.level, base: null }, destination);
  // The destination's own flush, without a callback: pino's logger.flush() passes one, and
  // sonic-boom then adds 'drain' and 'error' listeners on every call, which pile up under load.
  const timer = setInterval(() => {
    if (!isDestroyed(destination)) destination.flush();
  }, FLUSH_EVERY_MS);
  timer.unref();
  const info = logger.isLevelEnabled('info');
  const warn = logger.isLevelEnabled('warn');

  const flush = (): Promise<void> =>
    new Promise((resolve) => {
      if (isDestroyed(destination)) return resolve();
      logger.flush(() => resolve());
    });

  return {
    logger,
    // The line pino would write for logger.info(fields, 'request'), built directly (logLine):
    // the fields are a flat set of known keys, so pino's per-key serialiser is not needed on the
    // hot path. Same stream, same batching, same drop accounting.
    sink(record) {
      const failed = (record.status ?? 0) >= 500;
      if (failed ? !warn : !info) return;
      destination.write(`${logLine(record, failed ? 40 : 30, Date.now(), origin())}\n`);
    },
    event(msg, fields) {
      if (!info) return;
      const { time: _time, ...rest } = fields as Record<string, unknown>;
      logger.info({ ...origin(), ...rest }, msg);
    },
    relay(lines) {
      destination.write(lines);
    },
    flush,
    dropped: () => dropped,
    async close() {
      clearInterval(timer);
      await flush();
      if (fd !== undefined || isDestroyed(destination)) return;
      await new Promise<void>((resolve) => {
        destination.once('close', () => resolve());
        destination.end();
      });
    },
  };
}
