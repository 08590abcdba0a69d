/**
 * A child run with `--trace-gc-nvp` prints one line per collection on its stdout; a scavenge line
 * (`gc=s`) carries `promoted=N`, the bytes moved from the young generation to the old one: what
 * survived a scavenge because a request was still reachable becomes old-generation work and,
 * later, mark-compact pauses. Lines that are not V8's are passed through to the runner's stdout.
 */
import type { Readable } from 'node:stream';

export interface Scavenge {
  readonly pauseMs: number;
  readonly promoted: number;
  /** Bytes that survived it and stayed young. */
  readonly survived: number;
}

export interface GcTrace {
  /** Every scavenge so far. */
  readonly scavenges: readonly Scavenge[];
  /** Bytes promoted by those scavenges. */
  promotedBytes(): number;
  markCompacts(): number;
}

const field = (line: string, name: string): number => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? Number.NaN);

export function readGcTrace(stdout: Readable): GcTrace {
  const scavenges: Scavenge[] = [];
  let promoted = 0;
  let markCompacts = 0;
  let pending = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (/\bgc=s\b/.test(line) && /\bpromoted=\d/.test(line)) {
        scavenges.push({ pauseMs: field(line, 'pause'), promoted: field(line, 'promoted'), survived: field(line, 'new_space_survived') });
        promoted += field(line, 'promoted');
      } else if (/\bgc=mc\b/.test(line)) markCompacts += 1;
      else if (!line.includes('pause=') && !line.includes('promoted=')) process.stdout.write(`${line}\n`);
    }
  });
  return { scavenges, promotedBytes: () => promoted, markCompacts: () => markCompacts };
}
