/**
 * Which writes the gateway saw, by the scope the page cache invalidates (every page, or one user's
 * pages: src/cache/search-cache.ts), so that a shadow comparison can tell whether a write to its
 * scope overlapped it: a race (docs/rollout.md "Races"), counted apart from the mapping's evidence.
 *
 * A write is seen from the moment it is sent until it is answered (`began`, `ended`: this replica's
 * writes), or when another replica's invalidation of the scope arrives through the shared cache
 * tier (`ended` alone: the fleet's mechanism for invalidation). A comparison takes a `mark` before
 * its first answer is asked and asks `overlapped` once its last is read: true when a write of its
 * scope ended since, or is in flight now.
 *
 * Memory is bounded: at most MAX_GROUPS users' last writes are kept; a user forgotten for room is
 * answered as if written at the newest forgotten write (a comparison may then be called a race it
 * was not, never the other way round).
 */

/** null: every page (a write that drops every page, or one without a user); else a user's group. */
export type WriteScope = string | null;

const MAX_GROUPS = 10_000;

export class WriteClock {
  private seq = 0;
  private lastAll = 0;
  private inFlightAll = 0;
  private forgotten = 0;
  private readonly lastByGroup = new Map<string, number>();
  private readonly inFlightByGroup = new Map<string, number>();

  /** The clock now: a comparison starting takes it. */
  mark(): number {
    return this.seq;
  }

  /** A write of `scope` is sent. */
  began(scope: WriteScope): void {
    this.seq += 1;
    if (scope === null) this.inFlightAll += 1;
    else this.inFlightByGroup.set(scope, (this.inFlightByGroup.get(scope) ?? 0) + 1);
  }

  /** A write of `scope` was answered (`sent`: this replica had told `began`), or another replica invalidated it. */
  ended(scope: WriteScope, sent = false): void {
    this.seq += 1;
    if (scope === null) {
      this.lastAll = this.seq;
      if (sent) this.inFlightAll = Math.max(0, this.inFlightAll - 1);
      return;
    }
    this.lastByGroup.delete(scope);
    this.lastByGroup.set(scope, this.seq);
    if (this.lastByGroup.size > MAX_GROUPS) {
      const [oldest, at] = this.lastByGroup.entries().next().value as [string, number];
      this.lastByGroup.delete(oldest);
      this.forgotten = Math.max(this.forgotten, at);
    }
    if (!sent) return;
    const left = (this.inFlightByGroup.get(scope) ?? 1) - 1;
    if (left > 0) this.inFlightByGroup.set(scope, left);
    else this.inFlightByGroup.delete(scope);
  }

  /** Whether a write of `scope` (or of every page) ended after `mark` or is in flight now. */
  overlapped(mark: number, scope: WriteScope): boolean {
    if (this.lastAll > mark || this.inFlightAll > 0) return true;
    if (scope === null) return false;
    if (this.inFlightByGroup.has(scope)) return true;
    return (this.lastByGroup.get(scope) ?? this.forgotten) > mark;
  }
}
