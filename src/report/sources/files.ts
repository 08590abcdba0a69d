/**
 * Node-only: the files-or-stdin source: reads every input (files, or `-` for stdin) in one
 * streaming pass.
 */
import { Aggregator } from '../aggregate.js';
import { readLines } from '../read-lines.js';
import type { ReportSource } from './source.js';

const nameOf = (input: string): string => (input === '-' ? 'stdin' : input);

/** `since`: epoch ms; earlier request, shadow and breaker lines are left out (rollout decisions never). */
export function filesSource(inputs: readonly string[], since?: number, stepBucketMs?: number): ReportSource {
  return {
    inputs: inputs.map(nameOf),
    async counts() {
      const aggregator = new Aggregator(since, stepBucketMs);
      for (const input of inputs) {
        const name = nameOf(input);
        const outcome = await readLines(input, (line, lineNumber) => aggregator.addLine(name, line, lineNumber));
        if (outcome.error !== undefined) aggregator.addBroken(name, outcome.lines + 1, `input ends early: ${outcome.error}`);
      }
      return aggregator;
    },
  };
}
