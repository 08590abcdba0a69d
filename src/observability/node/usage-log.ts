/**
 * Node-only: the usage log, one pino JSON line per request, written asynchronously through a
 * sonic-boom destination (`sync: false`): request lines are gathered here into batches of 16 KiB
 * (`Batch`), handed to the destination as one Buffer each (one file write per batch), and written
 * at least every second, never one blocking write per request. At most 64 MiB wait in memory when
 * the destination stalls; beyond that lines are dropped (and counted), the gateway does not stop
 * answering. What is queued is written when the process exits. Records are `info`, answers 5xx
 * `warn`.
 *
 * Why batches of 16 KiB, and bytes rather than strings: docs/benchmarks-anchors.md, "The usage
 * log's batches" (each line written on its own was promoted to the old generation under load).
 *
 *   {"level":30,"time":1732170000000,"instance":"pod-7","config":"9c1e…","requestId":"…","method":"GET","operation":"recipes.search",
 *    "mode":"legacy","insecure":false,"status":200,…,"msg":"request"}
 */
import { mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import onExit from 'on-exit-leak-free';
import pino from 'pino';
import type { RecordSink } from '../../gateway/request-record.js';
import type { ObservabilityConfig } from '../../config/observability.js';
import { logLine } from '../log-fields.js';
import type { LogOrigin } from '../log-fields.js';

/** Request lines handed to the destination at once (bytes). */
const BATCH_BYTES = 16 * 1024;
/** sonic-boom writes what it holds once it reaches this (a batch the flush timer hands over is flushed at once). */
const MIN_WRITE_BYTES = 4096;
const MAX_QUEUED_BYTES = 64 * 1024 * 1024;
const FLUSH_EVERY_MS = 1000;

export interface UsageLog {
  readonly sink: RecordSink;
  /** Other lines for the same stream (startup notes, warnings). */
  readonly logger: pino.Logger;
  /**
   * Another kind of record on the same stream (for example `shadow` comparisons), `msg` naming
   * it; its own ISO `time`, when it has one, is the line's epoch-ms `time` (the live counters count
   * a comparison at that instant too), else now. The report counts these as other lines.
   */
  event(msg: string, fields: object): void;
  /**
   * Lines another process already wrote in this format (cluster workers, src/node/log-relay.ts),
   * whole lines ending in a newline, queued as they are on this stream.
   */
  relay(lines: Uint8Array): void;
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

/** sonic-boom in `contentMode: 'buffer'`, which takes bytes (its types know only strings). */
type Destination = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(bytes: Buffer): boolean };

/**
 * Request lines not yet handed to the destination, encoded as they arrive into one buffer (no
 * joined string). A hand-over gives the destination a copy of exactly the bytes gathered, so what
 * waits in a stalled destination is what its `maxLength` counts, and the buffer is used again.
 */
class Batch {
  private bytes = Buffer.allocUnsafe(2 * BATCH_BYTES);
  private length = 0;
  /** Set once the destination exists (the batch's exit hook is registered before it, to run first). */
  destination: Destination | undefined;

  add(line: string): void {
    // A UTF-8 character is at most 3 bytes per UTF-16 code unit.
    if (this.length + 3 * line.length > this.bytes.length) {
      this.handOver();
      if (3 * line.length > this.bytes.length) this.bytes = Buffer.allocUnsafe(3 * line.length);
    }
    this.length += this.bytes.write(line, this.length);
    if (this.length >= BATCH_BYTES) this.handOver();
  }

  /** Hands what is gathered to the destination (before any other line, so none overtakes them). */
  handOver(): void {
    if (this.length === 0) return;
    const bytes = Buffer.from(this.bytes.subarray(0, this.length));
    this.length = 0;
    if (this.destination && !isDestroyed(this.destination)) this.destination.write(bytes);
  }
}

export function createUsageLog(config: ObservabilityConfig['log'], origin: () => LogOrigin): UsageLog {
  const standard = config.destination === 'stdout' ? 1 : config.destination === 'stderr' ? 2 : undefined;
  const fd = standard ?? openLogFile(config.destination);
  const batch = new Batch();
  // Registered before pino registers the destination's own exit flush, so it runs first: the
  // gathered lines are handed over, then pino writes everything out.
  onExit.register(batch, (gathered) => gathered.handOver());
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: MIN_WRITE_BYTES,
    // A full batch (16 KiB or more) is written alone or with the few lines after it; two share a
    // write only when each is exactly 16 KiB.
    maxWrite: 2 * BATCH_BYTES,
    maxLength: MAX_QUEUED_BYTES,
    contentMode: 'buffer',
  }) as unknown as Destination;
  batch.destination = destination;
  let dropped = 0;
  // A dropped write is a batch: count its lines.
  destination.on('drop', (bytes: Buffer) => void (dropped += countLines(bytes)));
  // The time of the event being written, when it names its own (event below).
  let eventTime: number | undefined;
  const logger = pino({ level: config.level, base: null, timestamp: () => `,"time":${eventTime ?? Date.now()}` }, orderedAfter(batch, destination));
  // The destination's own flush, without a callback: pino's logger.flush() passes one, and
  // sonic-boom then adds 'drain' and 'error' listeners on every call, which pile up under load.
  const timer = setInterval(() => {
    batch.handOver();
    if (!isDestroyed(destination)) destination.flush();
  }, FLUSH_EVERY_MS);
  timer.unref();
  const info = logger.isLevelEnabled('info');
  const warn = logger.isLevelEnabled('warn');

  const flush = (): Promise<void> =>
    new Promise((resolve) => {
      batch.handOver();
      if (isDestroyed(destination)) return resolve();
      destination.flush(() => resolve());
    });

  return {
    logger,
    // The line pino would write for logger.info(fields, 'request'), built directly (logLine):
    // the fields are a flat set of known keys, so pino's per-key serialiser is not needed on the
    // hot path. Same stream; gathered into batches here (see the top of this file).
    sink(record) {
      const failed = (record.status ?? 0) >= 500;
      if (failed ? !warn : !info) return;
      batch.add(`${logLine(record, failed ? 40 : 30, record.answeredAt ?? Date.now(), origin())}\n`);
    },
    event(msg, fields) {
      if (!info) return;
      const { time, ...rest } = fields as Record<string, unknown>;
      const at = typeof time === 'string' ? Date.parse(time) : Number.NaN;
      eventTime = Number.isNaN(at) ? undefined : at;
      try {
        logger.info({ ...origin(), ...rest }, msg);
      } finally {
        eventTime = undefined;
      }
    },
    relay(lines) {
      batch.handOver();
      destination.write(Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength));
    },
    flush,
    dropped: () => dropped,
    async close() {
      clearInterval(timer);
      await flush();
      onExit.unregister(batch);
      if (standard !== undefined || isDestroyed(destination)) return;
      await new Promise<void>((resolve) => {
        destination.once('close', () => resolve());
        destination.end();
      });
    },
  };
}

/**
 * A file destination, opened (for appending, its folder made) before the destination exists: a
 * file sonic-boom opened itself is written to only once it is open, and in its byte mode a flush
 * asked for before that throws inside sonic-boom (4.2 and 5.0) when nothing is queued. A path that
 * cannot be opened fails the start, in one line, instead of an error event later.
 */
function openLogFile(path: string): number {
  try {
    mkdirSync(dirname(path), { recursive: true });
    return openSync(path, 'a');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`observability.log.destination: ${path} cannot be opened for appending (${code})`);
  }
}

/** Lines in a dropped batch. */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1;
  return lines;
}

/**
 * The destination as pino's logger writes to it: any gathered request lines are handed over
 * first, so a startup note or a warning never overtakes a request line written before it.
 */
function orderedAfter(batch: Batch, destination: Destination): pino.DestinationStream {
  return {
    write(line: string) {
      batch.handOver();
      destination.write(Buffer.from(line));
    },
  };
}
