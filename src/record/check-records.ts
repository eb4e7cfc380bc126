// Every recorded record is checked against the document. An invalid one is listed with its
// first problem and left out, or kept apart (--keep-invalid) when the fake can still hold it.
import { describeRecordProblem, eventRecordProblem, schemaProblem, type SpecValidator } from '../spec/index.js';
import type { InvalidRecordNote } from '../shared/recording-layout.js';
import { unstorableReason } from '../shared/storable-record.js';

export interface CheckedRecords {
  readonly valid: unknown[];
  /** Invalid records the fake can hold, when --keep-invalid. */
  readonly kept: unknown[];
  readonly invalid: InvalidRecordNote[];
}

function identity(record: unknown): Pick<InvalidRecordNote, '_id' | 'timestamp'> {
  if (record === null || typeof record !== 'object') return {};
  const { _id, timestamp } = record as { _id?: unknown; timestamp?: unknown };
  return { ...(typeof _id === 'string' ? { _id } : {}), ...(Number.isSafeInteger(timestamp) ? { timestamp: timestamp as number } : {}) };
}

export function checkEvents(records: readonly unknown[], validator: SpecValidator, keepInvalid: boolean): CheckedRecords {
  const out: CheckedRecords = { valid: [], kept: [], invalid: [] };
  for (const record of records) {
    const problem = eventRecordProblem(validator, record);
    if (!problem) {
      out.valid.push(record);
      continue;
    }
    const unstorable = unstorableReason(record);
    const kept = keepInvalid && unstorable === undefined;
    if (kept) out.kept.push(record);
    const why = describeRecordProblem(problem) + (keepInvalid && unstorable ? `; the fake cannot hold it (${unstorable})` : '');
    out.invalid.push({ log: 'event-log', ...identity(record), problem: why, kept });
  }
  return out;
}

export function checkBlocks(records: readonly unknown[], validator: SpecValidator): CheckedRecords {
  const out: CheckedRecords = { valid: [], kept: [], invalid: [] };
  for (const record of records) {
    const problem = schemaProblem(validator, 'BlockedRequest', record);
    if (!problem) out.valid.push(record);
    else out.invalid.push({ log: 'limit-block-log', ...identity(record), problem: describeRecordProblem(problem), kept: false });
  }
  return out;
}
