/**
 * One usage-log stream for a cluster: each worker writes its usage log to its own stdout, a pipe
 * to the primary (src/node/cluster.ts), in batches that may end anywhere, even inside a line. The
 * primary keeps each worker's unfinished tail and hands on whole lines only, so lines of different
 * workers never interleave inside a line, and a worker's lines keep their order.
 *
 * DECISION: workers relay through the primary rather than all writing to the same descriptor:
 * a batch of several KiB written to a pipe (stdout in a container) is not atomic past PIPE_BUF
 * (4 KiB), so concurrent writers could split each other's lines. The cost is one pipe read per
 * batch in the primary, not per line.
 *
 * What is not a usage-log line (a JSON object) goes to `other`: the diagnostics a worker may print
 * (V8's --trace-gc lines, warnings) stay visible and never reach the log.
 */
import type { Readable } from 'node:stream';

export interface LineSinks {
  /** Whole usage-log lines, each ending in a newline, as the worker wrote them (bytes, never decoded here). */
  readonly lines: (bytes: Buffer) => void;
  readonly other: (text: string) => void;
}

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;

/**
 * Works on the bytes as they came: the usual batch holds only log lines, and is handed on as it is
 * (one check per line, one write per batch, no decoding and encoding again).
 */
export function relayLines(stream: Readable, sinks: LineSinks): void {
  let tail: Buffer | undefined;
  stream.on('data', (chunk: Buffer) => {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < 0) {
      tail = tail ? Buffer.concat([tail, chunk]) : chunk;
      return;
    }
    const lines = chunk.subarray(0, last + 1);
    const whole = tail ? Buffer.concat([tail, lines]) : lines;
    tail = last + 1 < chunk.length ? chunk.subarray(last + 1) : undefined;
    hand(whole, sinks);
  });
  stream.on('end', () => {
    if (tail) hand(Buffer.concat([tail, Buffer.from('\n')]), sinks);
    tail = undefined;
  });
}

/** Hands each run of log lines on as one piece, and each other line as text. */
function hand(whole: Buffer, sinks: LineSinks): void {
  let runStart = 0;
  let start = 0;
  while (start < whole.length) {
    const end = whole.indexOf(NEWLINE, start) + 1;
    if (whole[start] !== OPEN_BRACE) {
      if (runStart < start) sinks.lines(whole.subarray(runStart, start));
      sinks.other(whole.toString('utf8', start, end));
      runStart = end;
    }
    start = end;
  }
  if (runStart < whole.length) sinks.lines(whole.subarray(runStart));
}
