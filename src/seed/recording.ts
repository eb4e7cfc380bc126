// A recording (`monitoring-api-kit record --out DIR`) read back as seed data: its event log
// records (the valid ones checked against the document again, the kept invalid ones only for
// what the store needs), its block log and its users file. Only a whole recording is read.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDING_FILES, type RecordingManifest } from '../shared/recording-layout.js';
import { unstorableReason } from '../shared/storable-record.js';
import { describeRecordProblem, schemaProblem } from '../spec/event-record-input.js';
import type { BlockedRequest, EventLogRecord } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';
import { FixtureError, loadEventFixtures, readFixtureFile } from './fixtures.js';

export type LoadedRecording = Awaited<ReturnType<typeof loadRecording>>;

/** Reads a recording; throws a FixtureError naming the folder, the file and the record. */
export async function loadRecording(dir: string, validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>) {
  const refuse = (problem: string): never => {
    throw new FixtureError(`Recording ${dir}: ${problem}`);
  };
  // As fixture files are read: a regular file of bounded size, so a FIFO or /dev/zero is refused, never read.
  const read = (name: string): Promise<unknown> =>
    readFixtureFile(join(dir, name))
      .then(JSON.parse)
      .catch((error: NodeJS.ErrnoException) => refuse(`cannot read ${name} (${error.code === 'ENOENT' ? 'no such file' : error.message})`));
  /** The records of a file, each checked by `problem`. */
  const records = async <T>(name: string, problem: (record: unknown) => string | undefined): Promise<T[]> => {
    const data = await read(name);
    if (!Array.isArray(data)) return refuse(`${name} must hold a JSON array.`);
    return data.map((record, index) => {
      const why = problem(record);
      return why === undefined ? (record as T) : refuse(`${name} record ${index}: ${why}`);
    });
  };
  const manifest = (await read(RECORDING_FILES.manifest)) as Partial<RecordingManifest> | null;
  if (manifest === null || typeof manifest !== 'object' || manifest.format !== 1) refuse(`${RECORDING_FILES.manifest} is not a recording of format 1.`);
  if (manifest?.complete !== true) refuse('the recording is not complete (manifest.json says so); record it again.');
  const { files } = manifest as RecordingManifest;
  const valid = files.events ? await loadEventFixtures([join(dir, RECORDING_FILES.events)], validator) : [];
  // Records `record --keep-invalid` kept: ones the store can hold, each _id once.
  const seen = new Set(valid.map((r) => r._id));
  const kept = !files.keptInvalid ? [] : await records<EventLogRecord>(RECORDING_FILES.keptInvalid, (record) => {
    const unstorable = unstorableReason(record);
    if (unstorable) return `${unstorable}.`;
    const { _id } = record as EventLogRecord;
    if (seen.has(_id)) return `_id "${_id}" is used twice.`;
    seen.add(_id);
    return undefined;
  });
  const blocks = !files.blocks ? [] : await records<BlockedRequest>(RECORDING_FILES.blocks, (record) => {
    const problem = schemaProblem(validator, 'BlockedRequest', record);
    return problem && describeRecordProblem(problem);
  });
  // The valid records, then the kept invalid ones.
  return { manifest: manifest as RecordingManifest, events: [...valid, ...kept], blocks };
}

/** The recording's users file, when it has one (the recorded user with a placeholder password). */
export function recordingUsersFile(dir: string): string | undefined {
  const file = join(dir, RECORDING_FILES.users);
  return existsSync(file) ? file : undefined;
}
