/**
 * Node-only: ClickHouse over its HTTP interface (fetch; node:http for the large bodies of inserts,
 * sent as the bytes they are built in), which every version answers alike, from Debian's 18.16
 * to current releases. Every failure becomes a `ClickHouseError` whose message is
 * one line for the operator: unreachable, too slow, no such table, or the server's own refusal.
 * Credentials in the URL (`http://user:password@host:8123/`) are sent as HTTP Basic and never
 * appear in a message.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isTableName } from './clickhouse-ddl.js';

export class ClickHouseError extends Error {}

export interface ClickHouseTarget {
  /** Without credentials, for messages and the report's inputs. */
  readonly shown: string;
  readonly endpoint: URL;
  readonly authorization: string | undefined;
  readonly timeoutMs: number;
}

export function clickHouseTarget(url: string, timeoutMs = 60_000): ClickHouseTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ClickHouseError(`--clickhouse: not a URL: ${url.replace(/\/\/[^/@]*@/, '//')}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ClickHouseError('--clickhouse: must be an http:// or https:// URL');
  const authorization = parsed.username !== '' ? `Basic ${btoa(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`)}` : undefined;
  parsed.username = '';
  parsed.password = '';
  return { shown: parsed.origin + parsed.pathname, endpoint: parsed, authorization, timeoutMs };
}

/** Runs one statement; `body` (for INSERT … FORMAT JSONEachRow) follows it. Resolves with the answer's text. */
export async function execute(target: ClickHouseTarget, sql: string, body?: string): Promise<string> {
  const url = new URL(target.endpoint);
  if (body !== undefined) url.searchParams.set('query', sql);
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (target.authorization) headers['authorization'] = target.authorization;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: 'POST', headers, body: body ?? sql, signal: AbortSignal.timeout(target.timeoutMs) });
    text = await response.text();
  } catch (error) {
    throw new ClickHouseError(unreachable(target, error));
  }
  if (!response.ok) throw new ClickHouseError(refused(target, text));
  return text;
}

/**
 * Runs one statement whose data (`INSERT … FORMAT …`) is `body`, bytes sent as they are (fetch
 * would copy them once more into a web stream). Resolves with the answer's text.
 */
export async function executeWithData(target: ClickHouseTarget, sql: string, body: Uint8Array): Promise<string> {
  const url = new URL(target.endpoint);
  url.searchParams.set('query', sql);
  const headers: Record<string, string | number> = { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.byteLength };
  if (target.authorization) headers['authorization'] = target.authorization;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  let status: number;
  let text: string;
  try {
    [status, text] = await new Promise<[number, string]>((resolve, reject) => {
      const request = send(url, { method: 'POST', headers, signal: AbortSignal.timeout(target.timeoutMs) }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve([response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')]));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  } catch (error) {
    throw new ClickHouseError(unreachable(target, error));
  }
  if (status < 200 || status >= 300) throw new ClickHouseError(refused(target, text));
  return text;
}

/** Runs a SELECT and gives its rows (`FORMAT JSONCompact`). */
export async function select(target: ClickHouseTarget, sql: string): Promise<unknown[][]> {
  const text = await execute(target, `${sql}\nFORMAT JSONCompact`);
  try {
    return (JSON.parse(text) as { data: unknown[][] }).data;
  } catch {
    throw new ClickHouseError(`ClickHouse at ${target.shown} answered something that is not JSON (is it ClickHouse's HTTP port?)`);
  }
}

/** The column names of a table (`db.table`, or a table of the current database), from system.columns; empty when it does not exist. */
export async function tableColumns(target: ClickHouseTarget, table: string): Promise<Set<string>> {
  if (!isTableName(table)) throw new Error(`not a table name: ${table}`);
  const [database, name] = table.includes('.') ? table.split('.') : [undefined, table];
  const where = database === undefined ? 'database = currentDatabase()' : `database = ${sqlString(database)}`;
  const rows = await select(target, `SELECT name FROM system.columns WHERE ${where} AND table = ${sqlString(name!)}`);
  return new Set(rows.map(([column]) => String(column)));
}

function unreachable(target: ClickHouseTarget, error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `ClickHouse at ${target.shown} did not answer within ${target.timeoutMs / 1000} s`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const reason = code === 'ECONNREFUSED' ? 'connection refused' : typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
  return `cannot reach ClickHouse at ${target.shown}: ${reason}`;
}

function refused(target: ClickHouseTarget, text: string): string {
  const code = /Code: (\d+)/.exec(text)?.[1];
  if (code === '60') {
    const table = /Table (\S+?)\.? doesn't exist/.exec(text)?.[1] ?? 'the usage-log table';
    return `ClickHouse at ${target.shown} has no table ${table}: fill it first with npm run report -- ingest --clickhouse URL FILES...`;
  }
  if (code === '81') return `ClickHouse at ${target.shown}: no such database (${firstLine(text)})`;
  if (code === '192' || code === '193' || code === '516') return `ClickHouse at ${target.shown} refused the credentials`;
  return `ClickHouse at ${target.shown} refused the query: ${firstLine(text)}`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const message = /e\.displayText\(\) = (?:DB::Exception: )?(.*?)(?:, e\.what\(\)|$)/.exec(line)?.[1] ?? line;
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
