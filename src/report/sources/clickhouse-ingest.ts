/**
 * Node-only: `npm run report -- ingest --clickhouse URL FILES...`: loads usage logs (plain or
 * gzipped, or `-` for stdin) into the ClickHouse table, creating it when it is missing and adding
 * the columns of fields declared since it was made (clickhouse-ddl.ts). Rows go
 * in batches (`INSERT … FORMAT JSONEachRow`), each built as UTF-8 bytes in one buffer while the
 * lines are read (no array of row strings to join and encode: less garbage to collect), one batch
 * in flight while the next is built; a failed batch is sent again (up to 3 tries), and
 * running the whole ingest again is harmless: the table keeps one row per dedupe key
 * (clickhouse-ddl.ts), and the ingest ends by merging the days it wrote to, so a backfill or a
 * retried run counts every record once.
 *
 * A malformed line is skipped, counted, and named by its position (`file:line: reason`). A row
 * ClickHouse refuses (a value its column cannot hold: the reader's check makes that the case only
 * for a table made with other column types) costs no other row its place: the batch is split in
 * halves until the refused rows are alone, and those are named like malformed lines.
 */
import { readLines } from '../read-lines.js';
import type { BrokenLine } from '../types.js';
import { addColumnsSql, createTableSql } from './clickhouse-ddl.js';
import type { TableOptions } from './clickhouse-ddl.js';
import { ClickHouseError, execute, executeWithData, tableColumns } from './clickhouse-http.js';
import type { ClickHouseTarget } from './clickhouse-http.js';
import { rowOfLine } from './clickhouse-rows.js';
import type { RowKind } from './clickhouse-rows.js';

/** Rows per INSERT: fewer, larger parts for ClickHouse to merge (about 35 MB of rows each). */
const BATCH_ROWS = 100_000;
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
  for (const alter of addColumnsSql(table, await tableColumns(target, table))) await execute(target, alter);
  const outcome = { records: 0, shadowLines: 0, otherLines: 0, brokenCount: 0, broken: [] as BrokenLine[], batches: 0 };
  /** Buffers of batches sent, for the next batches (their memory is already mapped: writing into it is cheaper). */
  const spare: Buffer[] = [];
  let batch = new Batch(spare);
  /** UTC days (epoch days) written to. */
  const days = new Set<number>();
  // An insert that fails while a file is read stops the reading; it is thrown from here, not reported as the file's end.
  let failure: unknown;
  // One batch in flight while the next is read: reading and inserting overlap.
  let sending: Promise<void> = Promise.resolve();
  const send = async (rows: Batch): Promise<void> => {
    await sending;
    sending = insert(target, table, rows, (at, reason) => {
      const counted = rows.counted(at);
      if (counted === 'shadow') outcome.shadowLines--;
      else if (counted === 'record') outcome.records--;
      else outcome.otherLines--;
      outcome.brokenCount++;
      if (outcome.broken.length < KEEP_BROKEN) outcome.broken.push({ input: rows.inputs[at]!, line: rows.lines[at]!, reason });
    }).finally(() => spare.push(rows.release()));
    sending.catch(() => undefined); // awaited by the next send or at the end
    outcome.batches++;
  };
  for (const input of inputs) {
    const name = input === '-' ? 'stdin' : input;
    const pending: Batch[] = [];
    const read = await readLines(input, (line, lineNumber) => {
      const row = rowOfLine(line, lineNumber);
      if (row.kind === 'row') {
        days.add(Math.floor(row.time / 86_400_000));
        if (row.counted === 'shadow') outcome.shadowLines++;
        else if (row.counted === 'record') outcome.records++;
        else outcome.otherLines++;
        batch.add(row.row, name, lineNumber, row.counted);
        if (batch.rows >= BATCH_ROWS) {
          pending.push(batch);
          batch = new Batch(spare);
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
  if (batch.rows > 0) await send(batch);
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

async function drain(pending: Batch[], send: (rows: Batch) => Promise<void>): Promise<void> {
  while (pending.length > 0) await send(pending.shift()!);
}

/** JSONEachRow rows, one a line, as UTF-8 bytes in a buffer (a spare one when there is one) that grows by doubling, with where each row starts and which line it came from. */
class Batch {
  rows = 0;
  private bytes: Buffer;
  private length = 0;
  private readonly starts: number[] = [];
  private readonly kinds: RowKind[] = [];
  readonly inputs: string[] = [];
  readonly lines: number[] = [];

  constructor(spare: Buffer[]) {
    this.bytes = spare.pop() ?? Buffer.allocUnsafe(1 << 23);
  }

  /** The buffer, for another batch once this one is sent. */
  release(): Buffer {
    return this.bytes;
  }

  add(row: string, input: string, line: number, counted: RowKind): void {
    this.starts.push(this.length);
    this.inputs.push(input);
    this.lines.push(line);
    this.kinds.push(counted);
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit; +1 for the newline.
    const most = row.length * 3 + 1;
    if (this.length + most > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + most));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.length += this.bytes.write(row, this.length, 'utf8');
    this.bytes[this.length++] = 0x0a;
    this.rows++;
  }

  counted(row: number): RowKind {
    return this.kinds[row]!;
  }

  /** The rows from `from` up to (not including) `to`. */
  body(from = 0, to = this.rows): Uint8Array {
    return this.bytes.subarray(this.starts[from] ?? this.length, to < this.rows ? this.starts[to]! : this.length);
  }
}

/** How ClickHouse names an error in the data it was sent (a value of a row), unlike an error of the table or the server. */
const ROW_ERROR = /\(while read the value of key |\(at row \d+\)/;

/**
 * Inserts the batch. When ClickHouse refuses a value in it, the rows are sent again in halves,
 * down to the refused rows alone, which `refused` is told of (by their index in the batch): one
 * bad row never costs another its place. Any other failure is tried again (3 tries), then thrown.
 */
async function insert(target: ClickHouseTarget, table: string, rows: Batch, refused: (row: number, reason: string) => void): Promise<void> {
  const range = async (from: number, to: number): Promise<void> => {
    try {
      await send(target, table, rows.body(from, to));
    } catch (error) {
      if (!(error instanceof ClickHouseError) || !ROW_ERROR.test(error.message)) throw error;
      if (to - from === 1) return refused(from, `ClickHouse refused the row: ${error.message.replace(/^.*? refused the query: /, '')}`);
      const middle = Math.floor((from + to) / 2);
      await range(from, middle);
      await range(middle, to);
    }
  };
  await range(0, rows.rows);
}

async function send(target: ClickHouseTarget, table: string, body: Uint8Array): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await executeWithData(target, `INSERT INTO ${table} FORMAT JSONEachRow`, body);
      return;
    } catch (error) {
      if (attempt >= TRIES || !(error instanceof ClickHouseError) || ROW_ERROR.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}
