/**
 * L1: the per-process tier, on lru-cache, read synchronously (a HIT is answered in the tick it
 * arrived). Bounded by entry count and bytes (the stored bytes plus headers and key); it never
 * grows past either, and a page larger than the whole cache is not kept.
 *
 * Each copy remembers its group (pages dropped together, e.g. one user's) and the shared tier's
 * stamp it was filled under (undefined without one, or when it was out). Invalidations are
 * counted in epochs: a fill reads `epoch` when it starts and hands it back to `put`, which refuses
 * the copy when an invalidation dropped its group since (the answer may predate the write).
 */
import { LRUCache } from 'lru-cache';
import { keepForMs } from './freshness.js';
import type { StoredAnswer, TierEntry } from './types.js';

export interface LocalEntry extends TierEntry {
  readonly size: number;
  readonly group: string | null;
  readonly stamp: string | undefined;
}

export interface MemoryTierOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly now: () => number;
  readonly onEvicted: () => void;
}

const ENTRY_OVERHEAD_BYTES = 256;
/** Past this many groups dropped, a fill in flight is judged against "everything dropped" (bounded memory). */
const MAX_GROUP_MARKS = 10_000;

function sizeOf(key: string, answer: StoredAnswer): number {
  let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + answer.body.byteLength;
  for (const name in answer.headers) size += (name.length + (answer.headers[name]?.length ?? 0)) * 2;
  return size;
}

export class MemoryTier {
  private readonly entries: LRUCache<string, LocalEntry>;
  private readonly groups = new Map<string, Set<string>>();
  private current = 0;
  private allMark = 0;
  private readonly groupMarks = new Map<string, number>();

  constructor(private readonly options: MemoryTierOptions) {
    this.entries = new LRUCache<string, LocalEntry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (entry) => entry.size,
      dispose: (entry, key, reason) => {
        if (reason === 'evict') options.onEvicted();
        if (entry.group) {
          const members = this.groups.get(entry.group);
          members?.delete(key);
          if (members?.size === 0) this.groups.delete(entry.group);
        }
      },
    });
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /** Read when a fill starts, handed back to `put`. */
  get epoch(): number {
    return this.current;
  }

  get(key: string): LocalEntry | undefined {
    return this.entries.get(key);
  }

  /** Keeps a copy unless its group was dropped after `since`, it is past every freshness rule, or it is larger than the cache. */
  put(key: string, group: string | null, entry: TierEntry, stamp: string | undefined, since: number): boolean {
    if (this.allMark > since || (group !== null && (this.groupMarks.get(group) ?? 0) > since)) return false;
    const keepFor = keepForMs(entry.policy, entry.storedAt, this.options.now());
    if (keepFor <= 0) return false;
    const local: LocalEntry = { answer: entry.answer, storedAt: entry.storedAt, policy: entry.policy, size: sizeOf(key, entry.answer), group, stamp };
    this.entries.set(key, local, { ttl: keepFor });
    if (!this.entries.has(key)) return false; // larger than the whole cache: not kept
    if (group) {
      let members = this.groups.get(group);
      if (!members) this.groups.set(group, (members = new Set()));
      members.add(key);
    }
    return true;
  }

  /** Drops this copy (not a newer one stored under the key meanwhile). */
  drop(key: string, entry: LocalEntry): void {
    if (this.entries.peek(key) === entry) this.entries.delete(key);
  }

  dropAll(): void {
    this.current += 1;
    this.allMark = this.current;
    this.groupMarks.clear();
    this.entries.clear();
  }

  dropGroup(group: string): void {
    this.current += 1;
    if (this.groupMarks.size >= MAX_GROUP_MARKS) {
      this.allMark = this.current;
      this.groupMarks.clear();
    } else this.groupMarks.set(group, this.current);
    for (const key of [...(this.groups.get(group) ?? [])]) this.entries.delete(key);
  }

  /** Every copy held now, for a sweep (e.g. comparing stamps with the shared tier's). */
  copies(): Array<[string, LocalEntry]> {
    return [...this.entries.entries()];
  }
}
