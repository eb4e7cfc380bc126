import { errorField } from './error-field.js';
import type { EventLogRecord } from './types.js';
import type { SpecValidator } from './validator.js';
import type { RecordProblem } from './record-problem.js';

/** A problem of one record of a list: its index, the field (a JSON pointer) and what is wrong. */
export interface IndexedProblem extends RecordProblem {
  readonly index: number;
}

/** How records without `_id` or `timestamp` are completed: the current time and a new id for it. */
export interface Completion {
  readonly now: () => number;
  readonly nextId: (timestampMs: number) => string;
}

const SCHEMA_OF_TYPE: Readonly<Record<string, string>> = { 'snmp-trap': 'SnmpTrapRecord', 'mqtt-message': 'MqttMessageRecord' };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A record given without `_id` or `timestamp` gets a new id and the current time; anything else is kept as given. */
export function completeEventRecord(input: unknown, { now, nextId }: Completion): unknown {
  if (!isObject(input)) return input;
  const timestamp = input.timestamp === undefined ? now() : input.timestamp;
  const _id = input._id === undefined ? nextId(typeof timestamp === 'number' ? timestamp : now()) : input._id;
  return { ...input, _id, timestamp };
}

/**
 * Every problem of a record against the document's EventLogRecord. The oneOf reports both
 * branches, so the problems come from the branch of the record's own type.
 */
export function eventRecordProblems(validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>, record: unknown): RecordProblem[] {
  if (validator.validateNamed('EventLogRecord', record).length === 0) return [];
  const type = isObject(record) ? record.type : undefined;
  const branch = typeof type === 'string' ? SCHEMA_OF_TYPE[type] : undefined;
  if (branch === undefined) return [{ pointer: '/type', problem: 'must be snmp-trap or mqtt-message' }];
  return validator.validateNamed(branch, record).map((error) => {
    const { pointer, problem } = errorField(error, validator.problemWords);
    return { pointer: pointer === '/' ? '' : pointer, problem };
  });
}

/**
 * Completes records (see completeEventRecord) and checks them all: every problem of every
 * record, and `_id`s repeated within the list. The records are usable only when `problems` is empty.
 */
export function completeEventRecords(
  inputs: readonly unknown[],
  completion: Completion,
  validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>,
): { records: EventLogRecord[]; problems: IndexedProblem[] } {
  const problems: IndexedProblem[] = [];
  const seen = new Set<unknown>();
  const records = inputs.map((input, index) => {
    const record = completeEventRecord(input, completion);
    for (const problem of eventRecordProblems(validator, record)) problems.push({ index, ...problem });
    const id = isObject(record) ? record._id : undefined;
    if (typeof id === 'string') {
      if (seen.has(id)) problems.push({ index, pointer: '/_id', problem: `repeats the _id "${id}" of an earlier record` });
      seen.add(id);
    }
    return record as EventLogRecord;
  });
  return { records, problems };
}
