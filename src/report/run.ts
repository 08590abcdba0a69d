/**
 * Node-only: the report from a source (files or stdin by default, or ClickHouse).
 */
import { buildReport } from './build-report.js';
import { filesSource } from './sources/files.js';
import type { ReportSource } from './sources/source.js';
import { DEFAULT_THRESHOLDS } from './types.js';
import type { Report, Thresholds } from './types.js';

export async function reportFrom(source: ReportSource, thresholds: Thresholds = DEFAULT_THRESHOLDS): Promise<Report> {
  return buildReport(await source.counts(), source.inputs, thresholds);
}

/** Reads every input (files, or `-` for stdin) in one streaming pass and builds the report. */
export function reportFromInputs(inputs: readonly string[], thresholds: Thresholds = DEFAULT_THRESHOLDS): Promise<Report> {
  return reportFrom(filesSource(inputs), thresholds);
}
