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
  /** Whole usage-log lines, each ending in a newline. */
  readonly lines: (text: string) => void;
  readonly other: (text: string) => void;
}

export function relayLines(stream: Readable, sinks: LineSinks): void {
  let tail = '';
  stream.setEncoding('utf8');
  const hand = (text: string): void => {
    let json = '';
    let start = 0;
    while (start < text.length) {
      const end = text.indexOf('\n', start) + 1;
      const line = text.slice(start, end);
      if (line.charCodeAt(0) === 123 /* { */) json += line;
      else sinks.other(line);
      start = end;
    }
    if (json) sinks.lines(json);
  };
  stream.on('data', (chunk: string) => {
    const last = chunk.lastIndexOf('\n');
    if (last < 0) {
      tail += chunk;
      return;
    }
    const whole = tail + chunk.slice(0, last + 1);
    tail = chunk.slice(last + 1);
    // The usual batch holds only log lines: one check per line, one write per batch.
    hand(whole);
  });
  stream.on('end', () => {
    if (tail) hand(`${tail}\n`);
    tail = '';
  });
}
