/**
 * Node-only: `npm run report -- ingest --clickhouse URL FILES...`: loads usage logs (plain or
 * gzipped, or `-` for stdin) into the ClickHouse table, creating it when it is missing. Rows go
 * in batches (`INSERT … FORMAT JSONEachRow`), a failed batch is sent again (up to 3 tries), and
 * running the whole ingest again is harmless: the table keeps one row per dedupe key
 * (clickhouse-ddl.ts), and the ingest ends by merging the days it wrote to, so a backfill or a
 * retried run counts every record once.
 *
 * A malformed line is skipped, counted, and named by its position (`file:line: reason`).
 */
import { readLines } from '../read-lines.js';
import type { BrokenLine } from '../types.js';
import { createTableSql } from './clickhouse-ddl.js';
import type { TableOptions } from './clickhouse-ddl.js';
import { ClickHouseError, execute } from './clickhouse-http.js';
import type { ClickHouseTarget } from './clickhouse-http.js';
import { rowOfLine } from './clickhouse-rows.js';

const BATCH_ROWS = 20_000;
const TRIES = 3;
const KEEP_BROKEN = 100;

export interface IngestOutcome {
  readonly records: number;
  readonly shadowLines: number;
  readonly otherLines: number;
  readonly brokenCount: number;
  /** The first KEEP_BROKEN malformed lines. */
  readonly broken: readonly BrokenLine[];
  readonly batches: number;
}

export async function ingest(target: ClickHouseTarget, table: string, inputs: readonly string[], options: TableOptions = {}): Promise<IngestOutcome> {
  await execute(target, createTableSql(table, options));
  const outcome = { records: 0, shadowLines: 0, otherLines: 0, brokenCount: 0, broken: [] as BrokenLine[], batches: 0 };
  let batch: string[] = [];
  /** UTC days (epoch days) written to. */
  const days = new Set<number>();
  // An insert that fails while a file is read stops the reading; it is thrown from here, not reported as the file's end.
  let failure: unknown;
  // One batch in flight while the next is read: reading and inserting overlap.
  let sending: Promise<void> = Promise.resolve();
  const send = async (rows: string[]): Promise<void> => {
    await sending;
    sending = insert(target, table, rows);
    sending.catch(() => undefined); // awaited by the next send or at the end
    outcome.batches++;
  };
  for (const input of inputs) {
    const name = input === '-' ? 'stdin' : input;
    const pending: string[][] = [];
    const read = await readLines(input, (line, lineNumber) => {
      const row = rowOfLine(line);
      if (row.kind === 'row') {
        days.add(Math.floor(row.time / 86_400_000));
        if (row.shadow) outcome.shadowLines++;
        else outcome.records++;
        batch.push(row.row);
        if (batch.length >= BATCH_ROWS) {
          pending.push(batch);
          batch = [];
        }
      } else if (row.kind === 'other') {
        outcome.otherLines++;
      } else {
        outcome.brokenCount++;
        if (outcome.broken.length < KEEP_BROKEN) outcome.broken.push({ input: name, line: lineNumber, reason: row.reason });
      }
    }, () => drain(pending, send).catch((error: unknown) => {
      failure ??= error;
      throw error;
    }));
    if (failure !== undefined) throw failure;
    await drain(pending, send);
    if (read.error !== undefined) {
      outcome.brokenCount++;
      if (outcome.broken.length < KEEP_BROKEN) outcome.broken.push({ input: name, line: read.lines + 1, reason: `input ends early: ${read.error}` });
    }
  }
  if (batch.length > 0) await send(batch);
  await sending;
  await mergeDays(target, table, days);
  return outcome;
}

/**
 * Merges every day partition the ingest wrote to into one part, which collapses duplicates (a
 * file ingested again, a batch sent twice): the report then reads the table without FINAL.
 */
async function mergeDays(target: ClickHouseTarget, table: string, days: ReadonlySet<number>): Promise<void> {
  for (const day of days) {
    const id = new Date(day * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    await execute(target, `OPTIMIZE TABLE ${table} PARTITION ID '${id}' FINAL`);
  }
}

async function drain(pending: string[][], send: (rows: string[]) => Promise<void>): Promise<void> {
  while (pending.length > 0) await send(pending.shift()!);
}

async function insert(target: ClickHouseTarget, table: string, rows: readonly string[]): Promise<void> {
  const body = `${rows.join('\n')}\n`;
  for (let attempt = 1; ; attempt++) {
    try {
      await execute(target, `INSERT INTO ${table} FORMAT JSONEachRow`, body);
      return;
    } catch (error) {
      if (attempt >= TRIES || !(error instanceof ClickHouseError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}
