/**
 * The messages between the bench runner (parent) and the processes it measures (children), and the
 * child side of the protocol:
 *
 *   parent → child  { type: 'rss', id }      child → parent  { type: 'rss', id, rss, cpuMicros }
 *   parent → child  { type: 'stop' }         child closes its servers and exits
 *   child → parent  { type: 'ready', info }  once listening (info: ports, files)
 *   child → parent  { type: 'failed', message }
 *
 * A child's start spec is its first argument (JSON). A child exits as soon as its IPC channel
 * closes, so a runner that dies (even by SIGKILL) leaves no child behind.
 */
import { startProfiling, stopProfiling } from './profiler.js';

export type ParentMessage =
  | { readonly type: 'rss'; readonly id: number }
  | { readonly type: 'stop' }
  /** bench/profile.ts: start the CPU and allocation sampling profilers; stop and write them to `dir`. */
  | { readonly type: 'profile-start' }
  | { readonly type: 'profile-stop'; readonly dir: string; readonly name: string };

export type ChildMessage =
  | { readonly type: 'ready'; readonly info: Readonly<Record<string, string | number>> }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'rss'; readonly id: number; readonly rss: number; readonly cpuMicros: number }
  | { readonly type: 'profiled'; readonly files: readonly string[] };

export interface StartedChild {
  readonly info: Readonly<Record<string, string | number>>;
  close(): Promise<void>;
}

/** Runs a child entry: parses the spec, starts, reports, answers RSS requests, stops on request. */
export function runChild<Spec>(start: (spec: Spec) => Promise<StartedChild>): void {
  const send = (message: ChildMessage) => {
    if (process.connected) process.send?.(message);
  };
  let started: StartedChild | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(code), 2000);
    force.unref();
    try {
      await started?.close();
    } finally {
      process.exit(code);
    }
  };
  process.on('disconnect', () => void stop(0));
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'rss') {
      const cpu = process.cpuUsage();
      send({ type: 'rss', id: message.id, rss: process.memoryUsage().rss, cpuMicros: cpu.user + cpu.system });
    }
    else if (message.type === 'stop') void stop(0);
    else if (message.type === 'profile-start') void startProfiling().then(() => send({ type: 'profiled', files: [] }));
    else if (message.type === 'profile-stop') void stopProfiling(message.dir, message.name).then((files) => send({ type: 'profiled', files }));
  });
  const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
  start(spec).then(
    (child) => {
      started = child;
      send({ type: 'ready', info: child.info });
    },
    (error: unknown) => {
      send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      void stop(1);
    },
  );
}
