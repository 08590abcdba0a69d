/**
 * Promoted bytes of a child run with `--trace-gc-nvp`: V8 prints one line per collection on the
 * child's stdout; a scavenge line (`gc=s`) carries `promoted=N`, the bytes moved from the young
 * generation to the old one. What survives a scavenge because a request was still in flight (or
 * because an allocation site was pretenured under load) becomes old-generation work and, later,
 * mark-compact pauses: the figure the issue asks to bring from ~4 KB to ≤ 0.5 KB per request.
 * Lines that are not V8's are passed through to the runner's stdout.
 */
import type { Readable } from 'node:stream';

export interface GcTrace {
  /** Bytes promoted by scavenges so far. */
  promotedBytes(): number;
  scavenges(): number;
  /** Every scavenge so far: its pause, the bytes it promoted and the bytes that survived it young. */
  scavengeLog(): readonly Scavenge[];
  /** Mark-compacts so far. */
  markCompacts(): number;
}

export interface Scavenge {
  readonly pauseMs: number;
  readonly promoted: number;
  readonly survived: number;
}

const SCAVENGE = /\bgc=s\b/;
const MARK_COMPACT = /\bgc=mc\b/;
const PROMOTED = /\bpromoted=(\d+)/;
const PAUSE = /\bpause=([\d.]+)/;
const SURVIVED = /\bnew_space_survived=(\d+)/;

export function readGcTrace(stdout: Readable): GcTrace {
  let promoted = 0;
  let scavenges = 0;
  let markCompacts = 0;
  const log: Scavenge[] = [];
  let pending = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = PROMOTED.exec(line);
      if (match && SCAVENGE.test(line)) {
        promoted += Number(match[1]);
        scavenges += 1;
        log.push({ pauseMs: Number(PAUSE.exec(line)?.[1] ?? Number.NaN), promoted: Number(match[1]), survived: Number(SURVIVED.exec(line)?.[1] ?? Number.NaN) });
      } else if (MARK_COMPACT.test(line)) {
        markCompacts += 1;
      } else if (!match && !line.includes('pause=')) {
        process.stdout.write(`${line}\n`);
      }
    }
  });
  return { promotedBytes: () => promoted, scavenges: () => scavenges, scavengeLog: () => log, markCompacts: () => markCompacts };
}
