// Reading one event-log record back and putting its original text back: shared by the plans that write.
import { apply } from '../checks/define.js';
import { payloadUpdatePersists, type PayloadUpdateFacts } from '../checks/payload-update-persists.js';
import type { Evaluation } from '../run/recorder.js';
import type { Exchange } from '../types.js';
import type { PlanContext, Row } from './plan.js';
import { rows } from './plan.js';

/** Reads a record by a filter on its _id; when the filter is refused, by its timestamp as both bounds. */
export async function readRecord(ctx: PlanContext, record: Row, key: string, after: Pick<PayloadUpdateFacts, 'stage' | 'text'>): Promise<Exchange> {
  // Reported on the update operation, though the read-back is a GET of the event log.
  const evaluation: Evaluation = {
    checks: [apply(payloadUpdatePersists, { recordId: String(record._id), original: record, ...after })],
    reportAs: { operationId: 'updateEventLogPayload' },
  };
  const byId = await ctx.send({ operationId: 'getEventLog', key, query: { filter: JSON.stringify({ _id: record._id }) } });
  if (rows(byId).some((r) => r._id === record._id)) {
    ctx.evaluate(byId, evaluation);
    return byId;
  }
  const stamp = String(record.timestamp);
  return ctx.send({ operationId: 'getEventLog', key: `${key}/by-time`, query: { from: stamp, to: stamp, limit: String(ctx.maxRecords) } }, evaluation);
}

export const textOf = (record: Row): string | undefined => {
  const text = (record.payload as Row | undefined)?.text;
  return typeof text === 'string' ? text : undefined;
};

/** Puts the original text back and checks that it stays. Runs in a `finally`. */
export async function restoreText(ctx: PlanContext, record: Row, key: string): Promise<void> {
  const text = textOf(record);
  if (text === undefined) return;
  const facts: PayloadUpdateFacts = { stage: 'restore', recordId: String(record._id), text, original: record };
  await ctx.send({ operationId: 'updateEventLogPayload', key, path: { id: String(record._id) }, body: { text } }, { checks: [apply(payloadUpdatePersists, facts)] });
  await readRecord(ctx, record, `${key}/read-back`, { stage: 'restored', text });
}
