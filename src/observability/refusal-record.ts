/**
 * The record of a request refused before the core app saw it (the Node listener's raw-target
 * checks: 400 bad target, 421 foreign host in an absolute-form target; and what Node's HTTP parser
 * refuses before any request exists: 431, 408, 400, 413, and CONNECT's 405), written by the
 * core's own `recordOf` from what is known of the request, so the usage log and the metrics count
 * these too, with the same fields and hashes.
 */
import { recordOf } from '../gateway/request-record.js';
import type { RecordedArrival, RecordSink } from '../gateway/request-record.js';
import { credentialsOf } from '../request/credentials.js';
import { readPairs } from '../request/pairs.js';
import type { Identifier } from '../request/identity.js';
import { roundMs } from './measure.js';
import { requestIdFrom } from '../request/request-id.js';

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

/** The refused request as it arrived, as far as it is known: what its record is written from. */
export type RefusalArrival = RecordedArrival & { readonly startedPerf: number };

export function refusalArrival(refusal: Refusal): RefusalArrival {
  const question = refusal.rawTarget.indexOf('?');
  const query = question === -1 ? '' : refusal.rawTarget.slice(question + 1).split('#')[0] ?? '';
  const scheme = refusal.tls ? 'https' : 'http';
  const pairs = readPairs(query);
  const credentials = credentialsOf(pairs, refusal.authorization);
  const headers: Record<string, string> = {};
  if (refusal.authorization !== undefined) headers['authorization'] = refusal.authorization;
  if (refusal.contentLength !== undefined) headers['content-length'] = refusal.contentLength;
  return {
    requestId: requestIdFrom(refusal.requestIdHeader),
    startedAt: refusal.startedAt,
    startedPerf: refusal.startedPerf,
    method: refusal.method,
    headers,
    routed: false,
    path: '',
    pairs,
    credentials,
    match: null,
    routeMode: undefined,
    client: { scheme },
    absoluteForm: refusal.absoluteForm,
    insecure: scheme === 'http' && credentials.carried,
  };
}

/** Hands the refusal's record to the observer once its answer is written (`bytesOut`: its body's size). */
export function recordRefusal(observer: RefusalObserver, arrival: RefusalArrival, status: number, error: string, bytesOut: number): void {
  const latencyMs = roundMs(performance.now() - arrival.startedPerf);
  const answered = { status, bytesOut: observer.identifier ? bytesOut : undefined, latencyMs };
  observer.sink(recordOf(arrival, { error }, answered, observer.identifier));
}
