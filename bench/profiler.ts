/**
 * In a benchmark child, on the runner's request (bench/profile.ts): the V8 CPU profiler (100 µs
 * sampling) and the allocation sampling profiler (a sample every 4 KiB allocated, objects the
 * scavenger or mark-compact collected kept in the profile, so it shows every allocation, not only
 * what survived), over exactly the measured load: start-up is not in the profiles.
 */
import { Session } from 'node:inspector';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

let session: Session | undefined;

function post<T>(method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session?.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T)));
  });
}

export async function startProfiling(): Promise<void> {
  session = new Session();
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await post('Profiler.start');
}

export async function stopProfiling(dir: string, name: string): Promise<string[]> {
  const { profile: cpu } = await post<{ profile: unknown }>('Profiler.stop');
  const { profile: heap } = await post<{ profile: unknown }>('HeapProfiler.stopSampling');
  session?.disconnect();
  session = undefined;
  const files = [join(dir, `${name}.cpuprofile`), join(dir, `${name}.heapprofile`)];
  await writeFile(files[0]!, JSON.stringify(cpu));
  await writeFile(files[1]!, JSON.stringify(heap));
  return files;
}
