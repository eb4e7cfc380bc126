import { citeOperation, citeParameter } from '../citations.js';
import type { Exchange, Failure } from '../types.js';
import { failure, inconclusive, notAList } from './failure.js';
import { describeValue, isSuccess, type Json, recordsOf } from './records.js';
import { defineCheck } from './define.js';

function withoutText(record: Json): string {
  const payload = { ...(record.payload as Json | undefined) };
  delete payload.text;
  return JSON.stringify({ ...record, payload });
}

export interface PayloadUpdateFacts {
  /** The update, its read-back, putting the original text back, and that read-back. */
  readonly stage: 'update' | 'read-back' | 'restore' | 'restored';
  readonly recordId: string;
  /** The text the record should have after this stage. */
  readonly text: string;
  /** The record as it was before, to see that nothing else changed. */
  readonly original?: Json;
}

/**
 * A payload update of an SNMP trap is accepted and persists, and touches nothing but `text`
 * (4.5); the original text is put back afterwards and that persists too. A read-back is a GET
 * of the event log, reported on the update.
 */
export const payloadUpdatePersists = defineCheck({
  name: 'payload-update-persists',
  title: 'A payload update persists and the original is restored',
  run(exchange: Exchange, context, facts: PayloadUpdateFacts) {
    const { stage, text } = facts;
    const update = context.spec.operation('updateEventLogPayload');
    const citation = citeOperation(update, 'Updates the payload of one record; the field text is used.');
    if (stage === 'update' || stage === 'restore') {
      if (isSuccess(exchange)) return [];
      if (exchange.response === undefined || exchange.response.status >= 500) return inconclusive(`answered ${exchange.response?.status ?? 'nothing'}`);
      return [
        failure(this, exchange, {
          message: `${stage === 'update' ? 'the update' : 'putting the original text back'} was refused with ${exchange.response.status}`,
          expected: 'the update of an SNMP trap by an administrator accepted',
          citation,
        }),
      ];
    }
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const id = facts.recordId;
    const record = records.find((r) => r._id === id);
    if (!record) {
      return [
        failure(this, exchange, {
          message: `record ${id} could not be read back`,
          expected: 'the record in the answer to a filter on its _id',
          citation: citeParameter(context.spec.operation(exchange.operationId), 'filter'),
        }),
      ];
    }
    const failures: Failure[] = [];
    const actual = (record.payload as Json | undefined)?.text;
    if (actual !== text) {
      failures.push(
        failure(this, exchange, {
          message: `${stage === 'restored' ? 'after the restore' : 'after the update'} the text is ${describeValue(actual)}`,
          expected: `payload.text = ${describeValue(text)}`,
          citation,
        }),
      );
    }
    const { original } = facts;
    if (original && withoutText(original) !== withoutText(record)) {
      failures.push(
        failure(this, exchange, {
          message: 'fields other than payload.text changed',
          expected: 'only payload.text changed',
          citation: citeOperation(update, 'Request body: JSON object with payload fields to change.'),
        }),
      );
    }
    return failures;
  },
});
