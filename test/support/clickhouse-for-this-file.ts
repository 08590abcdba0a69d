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

/** A report with what names its source and its making time set aside. */
export const comparable = (r: Report): Report => ({ ...r, generatedAt: '', inputs: [] });
