import type { SpecValidator } from './validator.js';

/** The first thing wrong with a record: where (a JSON pointer, `""` for the record itself) and what. */
export interface RecordProblem {
  readonly pointer: string;
  readonly problem: string;
}

type Validator = Pick<SpecValidator, 'validateNamed'>;

/** The first error of a value against a named schema of the document; undefined when it is valid. */
export function schemaProblem(validator: Validator, schemaName: string, value: unknown): RecordProblem | undefined {
  const first = validator.validateNamed(schemaName, value)[0];
  // SchemaError messages start with the path; keep only what is wrong.
  return first && { pointer: first.instancePath, problem: first.message.slice((first.instancePath || '(root)').length + 1) };
}

const SCHEMA_OF_TYPE: Readonly<Record<string, string>> = { 'snmp-trap': 'SnmpTrapRecord', 'mqtt-message': 'MqttMessageRecord' };

/**
 * Checks a value against the document's EventLogRecord; undefined when it is valid. The oneOf
 * reports both branches, so the problem comes from the branch of the record's own type.
 */
export function eventRecordProblem(validator: Validator, record: unknown): RecordProblem | undefined {
  if (validator.validateNamed('EventLogRecord', record).length === 0) return undefined;
  const type = (record as { type?: unknown } | null)?.type;
  const branch = typeof type === 'string' ? SCHEMA_OF_TYPE[type] : undefined;
  return (branch && schemaProblem(validator, branch, record)) || { pointer: '/type', problem: 'must be snmp-trap or mqtt-message' };
}

/** A problem in words: `field /payload/text must be string`. */
export function describeRecordProblem({ pointer, problem }: RecordProblem): string {
  return `field ${pointer || '(the record itself)'} ${problem}`;
}
