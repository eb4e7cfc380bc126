import { join } from 'node:path';
import { createObjectIdGenerator } from '../shared/object-id.js';
import { completeEventRecord, eventRecordProblems, type Completion } from '../spec/event-record-input.js';
import { packageRoot } from '../spec/paths.js';
import type { EventLogRecord } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';
import { describeRecordProblem } from '../spec/event-record-input.js';
import { readFixtureFile } from './fixture-file.js';
import { problemList } from './problem-list.js';

/** The kit's own hand-written event log records, merged into the seed by default. */
export const defaultEventFixturesPath = join(packageRoot, 'fixtures', 'events.json');

/** One thing wrong with fixture files: the file, and when it is about a record, its index, _id and field. */
export interface FixtureProblem {
  readonly file: string;
  readonly index?: number;
  readonly recordId?: string;
  readonly instancePath?: string;
  readonly message: string;
}

/**
 * Fixtures that cannot be used; `problems` holds every problem found (all files, all records),
 * each naming the file, the record and the field. The other fields are those of the first.
 * Made from one message (and where it is) or from a list of problems.
 */
export class FixtureError extends Error {
  readonly problems: readonly FixtureProblem[];
  readonly file: string;
  readonly index?: number;
  readonly recordId?: string;
  readonly instancePath?: string;

  constructor(problems: readonly FixtureProblem[]);
  constructor(message: string, file: string, index?: number, recordId?: string, instancePath?: string);
  constructor(given: string | readonly FixtureProblem[], file?: string, index?: number, recordId?: string, instancePath?: string) {
    const problems: readonly FixtureProblem[] = typeof given === 'string' ? [{ message: given, file: file as string, index, recordId, instancePath }] : given;
    const lines = problems.map((p) => p.message);
    super(problems.length === 1 ? (lines[0] as string) : `${problems.length} problems in the fixture files:\n${problemList(lines)}`);
    this.name = 'FixtureError';
    this.problems = problems;
    const first = problems[0] as FixtureProblem;
    this.file = first.file;
    if (first.index !== undefined) this.index = first.index;
    if (first.recordId !== undefined) this.recordId = first.recordId;
    if (first.instancePath !== undefined) this.instancePath = first.instancePath;
  }
}

const origins = new WeakMap<object, { file: string; index: number }>();

/** Where a record loaded by loadEventFixtures came from, e.g. `fixtures/events.json record 3`. */
export function fixtureOrigin(record: object): string | undefined {
  const o = origins.get(record);
  return o && `${o.file} record ${o.index}`;
}

function idOf(record: unknown): string | undefined {
  const id = record !== null && typeof record === 'object' ? (record as { _id?: unknown })._id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Reads a file's JSON array, or says why it cannot. */
async function readArray(file: string): Promise<unknown[] | FixtureProblem> {
  let data: unknown;
  try {
    data = JSON.parse(await readFixtureFile(file));
  } catch (e) {
    return { file, message: `Fixture file ${file} cannot be read as JSON: ${(e as Error).message}` };
  }
  return Array.isArray(data) ? data : { file, message: `Fixture file ${file} must hold a JSON array of event log records.` };
}

export interface EventFixtureOptions {
  /** Files known to be valid, whose records are not checked against the schema again (see checkedByTheKitsTests). */
  readonly alreadyChecked?: (file: string) => boolean;
  /**
   * How a record without `_id` or `timestamp` is completed, as the control API completes an
   * added record; default: the current time and a new ObjectId.
   */
  readonly completion?: Completion;
}

/**
 * Reads JSON files that each hold an array of event log records, completes records given
 * without `_id` or `timestamp`, and checks every record against the document's EventLogRecord
 * schema. Throws one FixtureError listing every problem of every file, each naming the file,
 * the record (index and _id) and the field; an _id used twice is one too.
 */
export async function loadEventFixtures(
  paths: readonly string[],
  validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>,
  options: EventFixtureOptions = {},
): Promise<EventLogRecord[]> {
  const { alreadyChecked = () => false, completion = { now: () => Date.now(), nextId: createObjectIdGenerator() } } = options;
  const records: EventLogRecord[] = [];
  const problems: FixtureProblem[] = [];
  const seen = new Map<string, string>();
  for (const file of paths) {
    const data = await readArray(file);
    if (!Array.isArray(data)) {
      problems.push(data);
      continue;
    }
    const checkSchema = !alreadyChecked(file);
    data.forEach((given: unknown, index) => {
      const record = completeEventRecord(given, completion);
      const recordId = idOf(given);
      const where = `Fixture file ${file}, record ${index} (${recordId === undefined ? 'no _id' : `_id "${recordId}"`})`;
      const found = checkSchema ? eventRecordProblems(validator, record) : [];
      for (const problem of found) problems.push({ file, index, recordId, instancePath: problem.pointer, message: `${where}: ${describeRecordProblem(problem)}` });
      if (found.length > 0) return;
      const r = record as EventLogRecord;
      const earlier = seen.get(r._id);
      if (earlier) {
        problems.push({ file, index, recordId: r._id, instancePath: '/_id', message: `${where}: _id "${r._id}" is already used by ${earlier}.` });
        return;
      }
      seen.set(r._id, `${file} record ${index}`);
      origins.set(r, { file, index });
      records.push(r);
    });
  }
  if (problems.length > 0) throw new FixtureError(problems);
  return records;
}
