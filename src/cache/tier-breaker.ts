/**
 * The breaker around a shared cache tier: up, or down (every call answers its fallback at once,
 * the gateway runs on its L1 only). One failure (an error, a timeout, a lost connection) puts it
 * down; the tier's own probe puts it back up. Each change is told once, with its reason.
 */
export type TierState = 'up' | 'down';

export class TierBreaker {
  private current: TierState = 'down';
  private failures = 0;

  constructor(private readonly onChange: (state: TierState, reason: string) => void) {}

  get state(): TierState {
    return this.current;
  }

  /** Calls that failed (down since, or failing while up). */
  get errors(): number {
    return this.failures;
  }

  /** Runs `op` while up; its fallback while down or when it fails. Never rejects. */
  async run<T>(op: () => Promise<T>, fallback: T): Promise<T> {
    if (this.current === 'down') return fallback;
    try {
      return await op();
    } catch (error) {
      this.trip(error instanceof Error ? error.message : String(error));
      return fallback;
    }
  }

  trip(reason: string): void {
    this.failures += 1;
    if (this.current === 'down') return;
    this.current = 'down';
    this.onChange('down', reason);
  }

  recover(reason: string): void {
    if (this.current === 'up') return;
    this.current = 'up';
    this.onChange('up', reason);
  }
}
