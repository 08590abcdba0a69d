import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The files that must own the machine: they measure CPU, memory or the time a thing takes, so another
 * file running beside them would change what they measure. They run after the rest, one at a time.
 * The one place that says so (issue 49).
 */
const OWNS_THE_MACHINE = [
  'test/bench-smoke.test.ts',
  'test/hundred-thousand-clients-keep-the-gateway-memory-bounded.test.ts',
  'test/judgement-evidence-stays-in-fixed-memory-over-a-day-of-traffic.test.ts',
  'test/reliability-soak-short-run-has-no-errors.test.ts',
  'test/reliability-client-faults-and-limits.test.ts',
  'test/reliability-upstream-faults-leave-nothing-behind.test.ts',
  'test/rollout-moves-routes-by-itself-and-back.test.ts',
  'test/shutdown-drains-in-flight-requests.test.ts',
  'test/usage-log-records-refusals-made-by-node.test.ts',
];

/**
 * Everything else runs side by side, more files than cores: most of a test's time is spent waiting on
 * sockets, timers and child processes, not computing. Each file takes its own free ports, temp folders
 * and server processes.
 */
const SIDE_BY_SIDE_WORKERS = Math.max(4, availableParallelism() * 2);

/**
 * A timeout guards against a hang, it measures nothing: files side by side share two cores, so a test
 * that takes 10 s alone may take 30 s beside three others.
 */
const shared = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'side-by-side',
          include: ['test/**/*.test.ts'],
          exclude: OWNS_THE_MACHINE,
          maxWorkers: SIDE_BY_SIDE_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'owns-the-machine',
          include: OWNS_THE_MACHINE,
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
