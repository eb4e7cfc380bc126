import { errorField, type ErrorField } from './error-field.js';
import type { EventLogRecord } from './types.js';
import type { SpecValidator } from './validator.js';

/** A thing wrong with a record: where (a JSON pointer, `""` for the record itself) and what. */
export type RecordProblem = ErrorField;

/** A problem of one record of a list: its index, the field and what is wrong. */
export interface IndexedProblem extends RecordProblem {
  readonly index: number;
}

/** How records without `_id` or `timestamp` are completed: the current time and a new id for it. */
export interface Completion {
  readonly now: () => number;
  readonly nextId: (timestampMs: number) => string;
}

type Validator = Pick<SpecValidator, 'validateNamed'>;
// EventLogRecord is a oneOf of these, told apart by `type`: a record is judged by its type's alone.
const SCHEMA_OF_TYPE = new Map<unknown, string>([['snmp-trap', 'SnmpTrapRecord'], ['mqtt-message', 'MqttMessageRecord']]);
const UNKNOWN_TYPE: RecordProblem = { pointer: '/type', problem: 'must be snmp-trap or mqtt-message' };
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A problem in words: `field /payload/text must be string`. */
export const describeRecordProblem = ({ pointer, problem }: RecordProblem): string => `field ${pointer || '(the record itself)'} ${problem}`;

/** The first error of a value against a named schema of the document; undefined when it is valid. */
export function schemaProblem(validator: Validator, schemaName: string, value: unknown): RecordProblem | undefined {
  const first = validator.validateNamed(schemaName, value)[0];
  // SchemaError messages start with the path; keep only what is wrong.
  return first && { pointer: first.instancePath, problem: first.message.slice((first.instancePath || '(root)').length + 1) };
}

/** Every problem of a record against the document's EventLogRecord, each naming its field and what is allowed. */
export function eventRecordProblems(validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>, record: unknown): RecordProblem[] {
  const branch = SCHEMA_OF_TYPE.get(isObject(record) ? record.type : undefined);
  if (!branch) return [UNKNOWN_TYPE];
  return validator.validateNamed(branch, record).map((error) => {
    const { pointer, problem } = errorField(error, validator.problemWords);
    return { pointer: pointer === '/' ? '' : pointer, problem };
  });
}

/** The first problem of a record against the document's EventLogRecord; undefined when it is valid. */
export const eventRecordProblem = (validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>, record: unknown): RecordProblem | undefined => eventRecordProblems(validator, record)[0];

/** A record given without `_id` or `timestamp` gets a new id and the current time; anything else is kept as given. */
export function completeEventRecord(input: unknown, { now, nextId }: Completion): unknown {
  if (!isObject(input)) return input;
  const timestamp = input.timestamp === undefined ? now() : input.timestamp;
  return { ...input, _id: input._id === undefined ? nextId(typeof timestamp === 'number' ? timestamp : now()) : input._id, timestamp };
}

/** Completes records and checks them all: every problem of each, and `_id`s repeated in the list; usable only when `problems` is empty. */
export function completeEventRecords(inputs: readonly unknown[], completion: Completion, validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>): { records: EventLogRecord[]; problems: IndexedProblem[] } {
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
