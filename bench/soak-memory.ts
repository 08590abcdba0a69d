/**
 * The soak's memory probe, in its child processes: `{ type: 'soak-memory', id, gc }` from the
 * parent is answered with `{ type: 'soak-memory', id, rss, heapUsed }`, after a full garbage
 * collection when `gc` is asked and the child runs with `--expose-gc` (so start and end figures
 * compare live memory, not where the collector happened to be).
 */
export interface MemoryRequest {
  readonly type: 'soak-memory';
  readonly id: number;
  readonly gc: boolean;
}

export interface MemoryAnswer {
  readonly type: 'soak-memory';
  readonly id: number;
  readonly rss: number;
  readonly heapUsed: number;
}

export function answerMemoryRequests(): void {
  process.on('message', (message: Partial<MemoryRequest> | null) => {
    if (message?.type !== 'soak-memory' || typeof message.id !== 'number') return;
    const collect = (globalThis as { gc?: () => void }).gc;
    if (message.gc && collect) collect();
    const usage = process.memoryUsage();
    const answer: MemoryAnswer = { type: 'soak-memory', id: message.id, rss: usage.rss, heapUsed: usage.heapUsed };
    if (process.connected) process.send?.(answer);
  });
}
