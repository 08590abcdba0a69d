/**
 * The child side of the bench's processes (the parent side: bench/children.ts): spec in argv[2], `ready`
 * or `failed`, answers to questions (usage, CPU and allocation profiles), and a stop on `stop` or when
 * the IPC channel closes, so a runner that dies leaves no child behind.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { join } from 'node:path';

export type Question =
  | { readonly type: 'usage'; readonly gc: boolean }
  | { readonly type: 'profile-start' }
  | { readonly type: 'profile-stop'; readonly dir: string; readonly name: string };
export type ParentMessage = { readonly type: 'ask'; readonly id: number; readonly question: Question } | { readonly type: 'stop' };
export type Info = Readonly<Record<string, string | number>>;
export type ChildMessage =
  | { readonly type: 'ready'; readonly info: Info }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'reply'; readonly id: number; readonly value: unknown };

let session: Session | undefined;
const post = <T>(method: string, params: object = {}): Promise<T> =>
  new Promise((resolve, reject) => session?.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));

async function answer(question: Question): Promise<unknown> {
  switch (question.type) {
    case 'usage':
      if (question.gc) (globalThis as { gc?: () => void }).gc?.();
      return { rss: process.memoryUsage().rss };
    case 'profile-start':
      session = new Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 100 });
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      await post('Profiler.start');
      return [];
    case 'profile-stop': {
      const { profile: cpu } = await post<{ profile: unknown }>('Profiler.stop');
      const { profile: heap } = await post<{ profile: unknown }>('HeapProfiler.stopSampling');
      session?.disconnect();
      const files = [join(question.dir, `${question.name}.cpuprofile`), join(question.dir, `${question.name}.heapprofile`)];
      await Promise.all([writeFile(files[0]!, JSON.stringify(cpu)), writeFile(files[1]!, JSON.stringify(heap))]);
      return files;
    }
  }
}

/** Runs a child entry: parses the spec, starts, reports, answers questions, stops on request. */
export function runChild<Spec>(start: (spec: Spec) => Promise<{ readonly info: Info; close(): Promise<void> }>): void {
  const send = (message: ChildMessage) => void (process.connected && process.send?.(message));
  let close: (() => Promise<void>) | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(code), 2000).unref();
    try {
      await close?.();
    } finally {
      process.exit(code);
    }
  };
  process.on('disconnect', () => void stop(0));
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') void stop(0);
    else void answer(message.question).then((value) => send({ type: 'reply', id: message.id, value }));
  });
  start(JSON.parse(process.argv[2] ?? '{}') as Spec).then(
    (child) => {
      close = () => child.close();
      send({ type: 'ready', info: child.info });
    },
    (error: unknown) => {
      send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      void stop(1);
    },
  );
}
