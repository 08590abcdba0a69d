/**
 * One sink from several (usage log, metrics, a test's collector). A failing sink never breaks the
 * answer to the client, nor the other sinks.
 */
import type { RecordSink } from '../gateway/request-record.js';

export function fanOut(sinks: ReadonlyArray<RecordSink | undefined>, onError: (error: unknown) => void = () => {}): RecordSink | undefined {
  const present = sinks.filter((sink): sink is RecordSink => sink !== undefined);
  if (present.length === 0) return undefined;
  return (record) => {
    for (const sink of present) {
      try {
        sink(record);
      } catch (error) {
        onError(error);
      }
    }
  };
}
