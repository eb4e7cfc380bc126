// A recording (`monitoring-api-kit record --out DIR`) read back as seed data: its event log
// records (the valid ones checked against the document again, the kept invalid ones only for
// what the store needs), its block log and its users file. Only a whole recording is read.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDING_FILES, type RecordingManifest } from '../shared/recording-layout.js';
import { unstorableReason } from '../shared/storable-record.js';
import { describeRecordProblem, schemaProblem } from '../spec/event-record-input.js';
import type { BlockedRequest, EventLogRecord } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';
import { FixtureError, loadEventFixtures } from './event-fixtures.js';

export interface LoadedRecording {
  readonly manifest: RecordingManifest;
  /** The valid records, then the kept invalid ones. */
  readonly events: readonly EventLogRecord[];
  readonly blocks: readonly BlockedRequest[];
}

function readJson(dir: string, name: string): unknown {
  const file = join(dir, name);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new FixtureError(`Recording ${dir}: cannot read ${name} (${reason})`, file);
  }
}

function arrayIn(dir: string, name: string): unknown[] {
  const data = readJson(dir, name);
  if (!Array.isArray(data)) throw new FixtureError(`Recording ${dir}: ${name} must hold a JSON array.`, join(dir, name));
  return data;
}

/** The manifest, when it describes a whole recording of a format this kit reads. */
function manifestOf(dir: string): RecordingManifest {
  const manifest = readJson(dir, RECORDING_FILES.manifest) as Partial<RecordingManifest> | null;
  const file = join(dir, RECORDING_FILES.manifest);
  if (manifest === null || typeof manifest !== 'object' || manifest.format !== 1) throw new FixtureError(`Recording ${dir}: ${RECORDING_FILES.manifest} is not a recording of format 1.`, file);
  if (manifest.complete !== true) throw new FixtureError(`Recording ${dir}: the recording is not complete (manifest.json says so); record it again.`, file);
  return manifest as RecordingManifest;
}

/** Records `record --keep-invalid` kept: ones the store can hold, each _id once. */
function keptInvalid(dir: string, taken: ReadonlySet<string>): EventLogRecord[] {
  const file = join(dir, RECORDING_FILES.keptInvalid);
  const seen = new Set(taken);
  return arrayIn(dir, RECORDING_FILES.keptInvalid).map((record, index) => {
    const problem = unstorableReason(record);
    if (problem) throw new FixtureError(`Recording ${dir}: ${RECORDING_FILES.keptInvalid} record ${index}: ${problem}.`, file, index);
    const { _id } = record as EventLogRecord;
    if (seen.has(_id)) throw new FixtureError(`Recording ${dir}: ${RECORDING_FILES.keptInvalid} record ${index}: _id "${_id}" is used twice.`, file, index, _id, '/_id');
    seen.add(_id);
    return record as EventLogRecord;
  });
}

function blocksOf(dir: string, validator: Pick<SpecValidator, 'validateNamed'>): BlockedRequest[] {
  const file = join(dir, RECORDING_FILES.blocks);
  return arrayIn(dir, RECORDING_FILES.blocks).map((record, index) => {
    const problem = schemaProblem(validator, 'BlockedRequest', record);
    if (problem) throw new FixtureError(`Recording ${dir}: ${RECORDING_FILES.blocks} record ${index}: ${describeRecordProblem(problem)}`, file, index, undefined, problem.pointer);
    return record as BlockedRequest;
  });
}

/** Reads a recording; throws a FixtureError naming the folder, the file and the record. */
export async function loadRecording(dir: string, validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>): Promise<LoadedRecording> {
  const manifest = manifestOf(dir);
  const { files } = manifest;
  const valid = files.events ? await loadEventFixtures([join(dir, RECORDING_FILES.events)], validator) : [];
  const kept = files.keptInvalid ? keptInvalid(dir, new Set(valid.map((r) => r._id))) : [];
  return { manifest, events: [...valid, ...kept], blocks: files.blocks ? blocksOf(dir, validator) : [] };
}

/** The recording's users file, when it has one (the recorded user with a placeholder password). */
export function recordingUsersFile(dir: string): string | undefined {
  const file = join(dir, RECORDING_FILES.users);
  return existsSync(file) ? file : undefined;
}
