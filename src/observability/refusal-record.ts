/**
 * The record of a request refused before the core app saw it (the Node listener's raw-target
 * checks: 400 bad target, 421 foreign host in an absolute-form target). Same fields, same hashes
 * as the records the core fills, so the usage log and the metrics count these too.
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
  readonly method: string;
  /** The raw request target, as received. */
  readonly rawTarget: string;
  readonly requestIdHeader: string | undefined;
  readonly authorization: string | undefined;
  readonly contentLength: string | undefined;
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
