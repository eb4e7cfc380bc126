// Putting a record's original text back after a plan wrote to it.
import type { PlanContext, Row } from './plan.js';

export const textOf = (record: Row): string | undefined => {
  const text = (record.payload as Row | undefined)?.text;
  return typeof text === 'string' ? text : undefined;
};

/** PATCHes the original text back (the sequences judge whether texts persist). Runs in a `finally`. */
export async function restoreText(ctx: PlanContext, record: Row, key: string): Promise<void> {
  const text = textOf(record);
  if (text === undefined) return;
  await ctx.send({ operationId: 'updateEventLogPayload', key, path: { id: String(record._id) }, body: { text } });
}
