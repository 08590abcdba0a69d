/**
 * Node-only: reads every input (files, or `-` for stdin) in one streaming pass and builds the report.
 */
import { Aggregator } from './aggregate.js';
import { buildReport } from './build-report.js';
import { readLines } from './read-lines.js';
import { DEFAULT_THRESHOLDS } from './types.js';
import type { Report, Thresholds } from './types.js';

export async function reportFromInputs(inputs: readonly string[], thresholds: Thresholds = DEFAULT_THRESHOLDS): Promise<Report> {
  const aggregator = new Aggregator();
  for (const input of inputs) {
    const name = input === '-' ? 'stdin' : input;
    const outcome = await readLines(input, (line, lineNumber) => aggregator.addLine(name, line, lineNumber));
    if (outcome.error !== undefined) aggregator.addBroken(name, outcome.lines + 1, `input ends early: ${outcome.error}`);
  }
  return buildReport(aggregator, inputs.map((input) => (input === '-' ? 'stdin' : input)), thresholds);
}
