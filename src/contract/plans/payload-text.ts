// Reading one event-log record back and putting its original text back: shared by the plans that write.
import type { Exchange } from '../types.js';
import type { PlanContext, Row } from './plan.js';
import { rows } from './plan.js';

/** Reads a record by a filter on its _id; when the filter is refused, by its timestamp as both bounds. */
export async function readRecord(ctx: PlanContext, record: Row, key: string, facts: Record<string, unknown>): Promise<Exchange> {
  // Reported on the update operation, though the read-back is a GET of the event log.
  const evaluation = {
    checks: ['payload-update-persists'],
    facts: { recordId: record._id, original: record, ...facts },
    reportAs: { operationId: 'updateEventLogPayload', check: 'payload-update-persists' },
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
  const facts = { stage: 'restore', recordId: record._id, text, original: record };
  await ctx.send({ operationId: 'updateEventLogPayload', key, path: { id: String(record._id) }, body: { text } }, { checks: ['payload-update-persists'], facts });
  await readRecord(ctx, record, `${key}/read-back`, { stage: 'restored', text });
}
