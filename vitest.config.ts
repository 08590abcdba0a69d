import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/**
 * The files that must own the machine: they measure the time a thing takes (a drain's deadline, a
 * rollout's periods, a timeout's effect, p99 under load), so another file running beside them would
 * change what they measure. They run after the rest, one at a time. The one place that says so
 * (issue 49). Not here: the bench smoke, only heavy (it checks that every figure is a number): it
 * runs side by side, started first.
 */
const OWNS_THE_MACHINE = [
  // Not a time, but 100,000 requests in one process: beside three other files it took 230 s and more (25 s alone).
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
 * A worker keeps its modules from one file to the next (Vitest's `isolate: false`): importing the
 * gateway's module graph afresh for each of some 180 files cost about 120 of the suite's 760 CPU
 * seconds (measured 2026-11-28: 764 → 643 CPU-s, 7 min 14 s → 6 min 13 s). Sound because the
 * product's modules hold no state beyond constants and pure, bounded memos, and a test file leaves
 * no global behind: no environment variable set, every spy restored, every server it started stopped.
 * The files that own the machine keep their fresh module graph: two of them measure the heap.
 */

/**
 * The files that take longest (a minute or more on two busy cores) start first, so that on a fresh
 * clone, with no timings cached, none of them starts last and runs on alone. Vitest orders by the
 * last run's timings when it has them; this list only puts these ahead of the rest.
 */
const LONG_FILES_FIRST = [
  'test/demo-moves-its-reads-rolls-back-on-a-fault-and-its-console-reads-at-a-glance.test.ts',
  'test/bench-smoke.test.ts',
  'test/adding-an-operation-walkthrough.test.ts',
  'test/adding-a-usage-log-field-walkthrough.test.ts',
  'test/start-writes-only-usage-lines-and-fails-in-one-line.test.ts',
  'test/hostile-input-never-500-never-elsewhere.test.ts',
  'test/dockerfile-builds-and-starts-the-gateway.test.ts',
  'test/rollout-state-survives-an-emptied-redis.test.ts',
  'test/rollout-agreement-gate-holds-a-mapping-that-differs-on-3-percent.test.ts',
  'test/cli-help-version-and-check-config.test.ts',
  'test/reliability-writes-are-sent-once.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_FILES_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? LONG_FILES_FIRST.length : index;
    };
    // Stable: within a group order, the long files by the list, the rest as Vitest had them.
    return sorted
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) => a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder || rank(a.spec) - rank(b.spec) || a.at - b.at)
      .map(({ spec }) => spec);
  }
}

/**
 * A timeout guards against a hang, it measures nothing: files side by side share two cores, so a test
 * that takes 10 s alone may take 30 s beside three others.
 */
const shared = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // The sources transpiled once per run, for the tests that start the product's entry points as child processes.
  globalSetup: ['test/support/transpiled-sources.ts'],
};

export default defineConfig({
  test: {
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'side-by-side',
          include: ['test/**/*.test.ts'],
          exclude: OWNS_THE_MACHINE,
          maxWorkers: SIDE_BY_SIDE_WORKERS,
          isolate: false,
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
