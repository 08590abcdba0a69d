/**
 * The record of a request refused before the core app saw it (the Node listener's raw-target
 * checks: 400 bad target, 421 foreign host in an absolute-form target; and what Node's HTTP parser
 * refuses before any request exists: 431, 408, 400, 413, and CONNECT's 405). Same fields, same
 * hashes as the records the core fills, so the usage log and the metrics count these too.
 */
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';
import { carriesCredentials } from '../http/client-view.js';
import type { Identifier } from './identity.js';
import { roundMs } from './measure.js';
import { requestIdFrom } from './request-id.js';

export interface RefusalObserver {
  readonly sink: RecordSink;
  /** Present when the usage log is on (request id, hashes). */
  readonly identifier: Identifier | undefined;
}

export interface Refusal {
  /** `UNKNOWN` when the request line could not be read. */
  readonly method: string;
  /** The raw request target, as received (`''` when unknown). Only its api_key is used, hashed; it is not kept. */
  readonly rawTarget: string;
  /** The headers below are absent when Node refused the request before parsing them. */
  readonly requestIdHeader?: string | undefined;
  readonly authorization?: string | undefined;
  readonly contentLength?: string | undefined;
  readonly tls: boolean;
  readonly absoluteForm: boolean;
  readonly startedAt: number;
  /** `performance.now()` at arrival. */
  readonly startedPerf: number;
}

export function startRefusal(observer: RefusalObserver, refusal: Refusal): RequestRecord {
  const question = refusal.rawTarget.indexOf('?');
  const query = question === -1 ? '' : refusal.rawTarget.slice(question + 1).split('#')[0] ?? '';
  const scheme = refusal.tls ? 'https' : 'http';
  const record: RequestRecord = {
    requestId: requestIdFrom(refusal.requestIdHeader),
    startedAt: refusal.startedAt,
    method: refusal.method,
    operation: null,
    scheme,
    insecure: scheme === 'http' && carriesCredentials(query, refusal.authorization === undefined ? {} : { authorization: refusal.authorization }),
  };
  if (refusal.absoluteForm) record.absoluteForm = true;
  if (observer.identifier) {
    observer.identifier.identify(record, query, refusal.authorization);
    record.bytesIn = Number(refusal.contentLength ?? 0) || 0;
  }
  return record;
}

export function finishRefusal(observer: RefusalObserver, record: RequestRecord, status: number, error: string, bytesOut: number, startedPerf: number): void {
  record.status = status;
  record.error = error;
  if (observer.identifier) record.bytesOut = bytesOut;
  record.latencyMs = roundMs(performance.now() - startedPerf);
  observer.sink(record);
}
