/**
 * How a finished request record goes to the sink. The core hands it over as soon as the answer
 * is ready (every answer knows its size: src/http/answer.ts); a runtime may first correct it with
 * what it alone knows (on Node, an answer Node wrote itself: src/node/node-refusals.ts).
 */
import type { Context } from 'hono';
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RecordEmitter = (c: Context<any>, record: RequestRecord, sink: RecordSink) => void;

export const emitAtOnce: RecordEmitter = (_c, record, sink) => sink(record);
