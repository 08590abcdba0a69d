/**
 * Node-only: the report from a source (files or stdin by default, or ClickHouse).
 */
import { buildReport } from './build-report.js';
import { filesSource } from './sources/files.js';
import type { ReportSource } from './sources/source.js';
import type { Report, ReportOptions } from './types.js';

export async function reportFrom(source: ReportSource, options: ReportOptions = {}): Promise<Report> {
  return buildReport(await source.counts(), source.inputs, options);
}

/** Reads every input (files, or `-` for stdin) in one streaming pass and builds the report. */
export function reportFromInputs(inputs: readonly string[], options: ReportOptions = {}): Promise<Report> {
  return reportFrom(filesSource(inputs, options.since, options.stepBucketMs), options);
}
