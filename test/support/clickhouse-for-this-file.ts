import { afterAll, beforeAll } from 'vitest';
import { startClickHouse } from './clickhouse-server.js';
import type { ClickHouseServer } from './clickhouse-server.js';
import type { Report } from '../../src/report/types.js';

/**
 * One clickhouse-server for the calling test file: started before its tests, stopped after them.
 * The returned function gives its URL once started.
 */
export function clickHouseForThisFile(): () => string {
  let server: ClickHouseServer | undefined;
  beforeAll(async () => {
    server = await startClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 60_000);
  return () => {
    if (!server) throw new Error('clickhouse-server is not started');
    return server.url;
  };
}

/**
 * A report with what names its source and its making time set aside, and the api2 breaker's
 * openings: ClickHouse does not ingest breaker lines, so its report says it does not know them (null).
 */
export const comparable = (r: Report): Report => ({
  ...r,
  generatedAt: '',
  inputs: [],
  readiness: { ...r.readiness, api2BreakerOpens: null, operations: r.readiness.operations.map((op) => ({ ...op, evidence: { ...op.evidence, breakerOpens: null } })) },
});
