/**
 * A request record as the fields of its usage-log line (one JSON object per request; the Node
 * logger adds `level`, `time` and `msg: "request"`). The field names are the contract with the
 * migration report (src/report/parse-record.ts). Only fields that are known are written.
 */
import type { RequestRecord } from '../gateway/request-record.js';

export const REQUEST_MESSAGE = 'request';

/** Operation value when the target was refused before routing (bad target, foreign host). */
export const UNROUTED = 'unrouted';

export interface LogFields {
  requestId: string;
  method: string;
  operation: string;
  pathTemplate?: string;
  mode: string;
  /** The route's configured mode (legacy, api2, canary, shadow). */
  routeMode?: string;
  /** api2 failed and legacy answered. */
  fallback?: true;
  form?: string;
  versionPrefix?: string;
  absoluteForm?: true;
  scheme?: string;
  insecure: boolean;
  client?: string;
  clientLabel?: string;
  user?: string;
  status: number;
  latencyMs?: number;
  upstreamMs?: number;
  cache?: string;
  bytesIn?: number;
  bytesOut?: number;
  error?: string;
}

/** The mode a record is counted under: set by dispatch, else `gateway` (answered by the gateway itself). */
export function modeOf(record: Readonly<RequestRecord>): string {
  return record.mode ?? 'gateway';
}

export function toLogFields(record: Readonly<RequestRecord>): LogFields {
  const fields: LogFields = {
    requestId: record.requestId,
    method: record.method,
    operation: record.operation ?? UNROUTED,
    mode: modeOf(record),
    insecure: record.insecure,
    status: record.status ?? 0,
  };
  if (record.routeMode !== undefined) fields.routeMode = record.routeMode;
  if (record.fallback) fields.fallback = true;
  if (record.pathTemplate !== undefined) fields.pathTemplate = record.pathTemplate;
  if (record.form !== undefined) fields.form = record.form;
  if (record.versionPrefix) fields.versionPrefix = record.versionPrefix;
  if (record.absoluteForm) fields.absoluteForm = true;
  if (record.scheme !== undefined) fields.scheme = record.scheme;
  if (record.client !== undefined) fields.client = record.client;
  if (record.clientLabel !== undefined) fields.clientLabel = record.clientLabel;
  if (record.user !== undefined) fields.user = record.user;
  if (record.latencyMs !== undefined) fields.latencyMs = record.latencyMs;
  if (record.upstreamMs !== undefined) fields.upstreamMs = record.upstreamMs;
  if (record.cache !== undefined) fields.cache = record.cache;
  if (record.bytesIn !== undefined) fields.bytesIn = record.bytesIn;
  if (record.bytesOut !== undefined) fields.bytesOut = record.bytesOut;
  if (record.error !== undefined) fields.error = record.error;
  return fields;
}

const str = JSON.stringify;

/**
 * The whole usage-log line of a record, `{"level":…,"time":…,<fields>,"msg":"request"}` with the
 * fields exactly as `JSON.stringify(toLogFields(record))` writes them, in the same order, built
 * without the intermediate object (the line is written once per request; test/usage-log-line-is-
 * the-json-of-its-fields.test.ts holds the two to the same bytes). No trailing newline.
 */
export function logLine(record: Readonly<RequestRecord>, level: number, time: number): string {
  let line = `{"level":${level},"time":${time},"requestId":${str(record.requestId)},"method":${str(record.method)},"operation":${str(record.operation ?? UNROUTED)},"mode":${str(modeOf(record))},"insecure":${record.insecure},"status":${str(record.status ?? 0)}`;
  if (record.routeMode !== undefined) line += `,"routeMode":${str(record.routeMode)}`;
  if (record.fallback) line += ',"fallback":true';
  if (record.pathTemplate !== undefined) line += `,"pathTemplate":${str(record.pathTemplate)}`;
  if (record.form !== undefined) line += `,"form":${str(record.form)}`;
  if (record.versionPrefix) line += `,"versionPrefix":${str(record.versionPrefix)}`;
  if (record.absoluteForm) line += ',"absoluteForm":true';
  if (record.scheme !== undefined) line += `,"scheme":${str(record.scheme)}`;
  if (record.client !== undefined) line += `,"client":${str(record.client)}`;
  if (record.clientLabel !== undefined) line += `,"clientLabel":${str(record.clientLabel)}`;
  if (record.user !== undefined) line += `,"user":${str(record.user)}`;
  if (record.latencyMs !== undefined) line += `,"latencyMs":${str(record.latencyMs)}`;
  if (record.upstreamMs !== undefined) line += `,"upstreamMs":${str(record.upstreamMs)}`;
  if (record.cache !== undefined) line += `,"cache":${str(record.cache)}`;
  if (record.bytesIn !== undefined) line += `,"bytesIn":${str(record.bytesIn)}`;
  if (record.bytesOut !== undefined) line += `,"bytesOut":${str(record.bytesOut)}`;
  if (record.error !== undefined) line += `,"error":${str(record.error)}`;
  return `${line},"msg":"${REQUEST_MESSAGE}"}`;
}
