import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../spec/paths.js';
import type { EventLogRecord } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';
import { describeRecordProblem, eventRecordProblem } from '../spec/record-problem.js';

/** The kit's own hand-written event log records, merged into the seed by default. */
export const defaultEventFixturesPath = join(packageRoot, 'fixtures', 'events.json');

/** A fixture that cannot be used; the message names the file, the record and the field. */
export class FixtureError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly index?: number,
    readonly recordId?: string,
    readonly instancePath?: string,
  ) {
    super(message);
    this.name = 'FixtureError';
  }
}

const origins = new WeakMap<object, { file: string; index: number }>();

/** Where a record loaded by loadEventFixtures came from, e.g. `fixtures/events.json record 3`. */
export function fixtureOrigin(record: object): string | undefined {
  const o = origins.get(record);
  return o && `${o.file} record ${o.index}`;
}

function describeId(record: unknown): string {
  const id = record !== null && typeof record === 'object' ? (record as { _id?: unknown })._id : undefined;
  return typeof id === 'string' ? `_id "${id}"` : 'no _id';
}

/**
 * Reads JSON files that each hold an array of event log records and checks every record
 * against the document's EventLogRecord schema. Throws a FixtureError naming the file, the
 * record (index and _id), the field (instancePath) and the problem; also on an _id used twice.
 */
export function loadEventFixtures(
  paths: readonly string[],
  validator: Pick<SpecValidator, 'validateNamed'>,
  /** Files known to be valid, whose records are not checked against the schema again (see checkedByTheKitsTests). */
  alreadyChecked: (file: string) => boolean = () => false,
): EventLogRecord[] {
  const records: EventLogRecord[] = [];
  const seen = new Map<string, string>();
  for (const file of paths) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new FixtureError(`Fixture file ${file} cannot be read as JSON: ${(e as Error).message}`, file);
    }
    if (!Array.isArray(data)) throw new FixtureError(`Fixture file ${file} must hold a JSON array of event log records.`, file);
    const checkSchema = !alreadyChecked(file);
    data.forEach((record: unknown, index) => {
      const where = `Fixture file ${file}, record ${index} (${describeId(record)})`;
      const problem = checkSchema ? eventRecordProblem(validator, record) : undefined;
      if (problem) {
        const id = (record as { _id?: unknown } | null)?._id;
        throw new FixtureError(`${where}: ${describeRecordProblem(problem)}`, file, index, typeof id === 'string' ? id : undefined, problem.pointer);
      }
      const r = record as EventLogRecord;
      const earlier = seen.get(r._id);
      if (earlier) throw new FixtureError(`${where}: _id "${r._id}" is already used by ${earlier}.`, file, index, r._id, '/_id');
      seen.set(r._id, `${file} record ${index}`);
      origins.set(r, { file, index });
      records.push(r);
    });
  }
  return records;
}
