// The `record` command and its flags; the recorder itself (record.ts, src/record) is loaded when it runs.
import { type Command, Option } from 'commander';
import { addServerOptions, addWaitOptions } from './check-command.js';
import type { RecordOptions } from '../record/record-server.js';
import { anchorTime, integer } from './flag-values.js';

export interface RecordFlags extends Partial<Pick<RecordOptions, 'since' | 'until' | 'keepInvalid' | 'anonymize'>>, Pick<RecordOptions, 'maxRecords' | 'pageSize'> {
  readonly baseUrl?: string;
  readonly login?: string;
  readonly password?: string;
  readonly out?: string;
  readonly timeout?: number;
  readonly maxWait?: number;
  readonly maxDuration?: number;
  readonly quiet?: boolean;
}

/** Most records a recording holds: all of them are in memory until written. */
export const MAX_RECORDS_CEILING = 1_000_000;

export function addRecordOptions(command: Command): Command {
  const time = anchorTime(() => Date.now());
  return addWaitOptions(addServerOptions(command, 'record'), 3600)
    .addOption(new Option('--out <dir>', 'the folder to write the recording to: new or empty (required)'))
    .addOption(new Option('--since <time>', 'oldest records to take: an ISO date-time or epoch ms').argParser(time))
    .addOption(new Option('--until <time>', 'newest records to take: "now", an ISO date-time or epoch ms (default: the newest when the run starts)').argParser(time))
    .addOption(new Option('--max-records <n>', 'most event log records (and most block log records) to take').argParser(integer(1, MAX_RECORDS_CEILING)).default(100_000))
    .addOption(new Option('--page-size <n>', 'records asked for in one request').argParser(integer(1, 10_000)).default(1000))
    .addOption(new Option('--keep-invalid', 'keep event log records the document refuses, when the fake can still serve them (in events-kept-invalid.json)'))
    .addOption(new Option('--anonymize', 'map IP addresses to documentation ranges and entity names, logins and ids to stand-ins, consistently'))
    .addOption(new Option('--quiet', 'no progress lines'));
}

export function registerRecordCommand(program: Command): Command {
  const command = program
    .command('record')
    .description("record a server's event log, block log and current user, read-only, into a folder `serve --recording` serves")
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : 2);
    });
  addRecordOptions(command).action(async (flags: RecordFlags) => {
    const { runRecord } = await import('./record.js');
    process.exitCode = await runRecord(flags);
  });
  return command;
}
