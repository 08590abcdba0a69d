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
}

const SCAVENGE = /\bgc=s\b/;
const PROMOTED = /\bpromoted=(\d+)/;

export function readGcTrace(stdout: Readable): GcTrace {
  let promoted = 0;
  let scavenges = 0;
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
      } else if (!match && !line.includes('pause=')) {
        process.stdout.write(`${line}\n`);
      }
    }
  });
  return { promotedBytes: () => promoted, scavenges: () => scavenges };
}
