/**
 * When a finished request record goes to the sink. The core hands it over as soon as the answer
 * is ready; a runtime may instead wait until the answer has been written, to count the bytes of
 * answers without a Content-Length (src/observability/node/emit-after-write.ts).
 */
import type { Context } from 'hono';
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RecordEmitter = (c: Context<any>, record: RequestRecord, sink: RecordSink) => void;

export const emitAtOnce: RecordEmitter = (_c, record, sink) => sink(record);
