// `monitoring-api-kit record`: exit 0 with a whole recording written, 2 on a usage or connection
// error, a long block, dropped connections or answers that cannot be paged safely, with
// nothing written then. Everything printed goes through the run's secret masking.
import { BlockedError, StoppedError, UnreachableError, UsageError } from '../contract/errors.js';
import { createSecrets } from '../shared/redaction/secret-values.js';
import { PagingError } from '../record/paging.js';
import { recordServer, type RecordResult } from '../record/record-server.js';
import { SourceError } from '../record/read-server.js';
import { kit, processIo, serverOf, type CheckIo, type RecordFlags } from './program.js';

const SHOWN_INVALID = 20;
const count = (n: number): string => n.toLocaleString('en-US');

function summary(result: RecordResult): string[] {
  const { manifest } = result;
  const c = manifest.counts;
  const lines = manifest.invalid.slice(0, SHOWN_INVALID).map((note) => `invalid ${note.log} record${note._id ? ` ${note._id}` : ''}${note.timestamp === undefined ? '' : ` (${note.timestamp})`}: ${note.problem} (${note.kept ? 'kept' : 'skipped'})`);
  const invalid = c.invalidKept + c.invalidSkipped;
  if (invalid > SHOWN_INVALID) lines.push(`... and ${count(invalid - SHOWN_INVALID)} more invalid records (the first 1,000 are listed in manifest.json)`);
  lines.push(
    `Recorded ${count(c.events)} event log records${invalid > 0 ? ` (${count(c.invalidSkipped)} invalid skipped, ${count(c.invalidKept)} kept)` : ''}, ` +
      `${manifest.blockLog === 'recorded' ? `${count(c.blocks)} blocked requests` : `no block log (${manifest.blockLog})`} and ${c.users === 1 ? 'the current user' : 'no user'} into ${result.out}`,
  );
  if (manifest.maxRecordsReached) lines.push(`--max-records stopped the event log before its end: newer records are not in the recording`);
  if (manifest.anonymized) lines.push('IP addresses, entity names, logins and ids are anonymized.');
  if (result.masked > 0) lines.push(`${count(result.masked)} value(s) held a secret and were masked (***).`);
  lines.push(`Serve it: monitoring-api-kit serve --recording ${result.out} (add --anchor now to make it end now)`);
  lines.push(result.login ? `Log in to it as ${result.login.login} with the placeholder password ${result.login.password} (the real password is not stored).` : `No users file: ${result.userProblem ?? 'no user'}.`);
  return lines;
}

export async function runRecord(flags: RecordFlags, rawIo: CheckIo = processIo): Promise<number> {
  const secrets = createSecrets();
  secrets.addUrl(flags.baseUrl);
  if (flags.login !== undefined && flags.password !== undefined) secrets.addCredentials({ login: flags.login, password: flags.password });
  const io: CheckIo = { stdout: (t) => rawIo.stdout(secrets.mask(t)), stderr: (t) => rawIo.stderr(secrets.mask(t)) };
  try {
    const server = serverOf(flags);
    if (!flags.out) throw new UsageError('--out is required: the folder to write the recording to');
    const result = await recordServer({
      ...server,
      out: flags.out,
      since: flags.since,
      until: flags.until,
      maxRecords: flags.maxRecords,
      pageSize: flags.pageSize,
      keepInvalid: flags.keepInvalid === true,
      anonymize: flags.anonymize === true,
      timeoutMs: flags.timeout,
      maxWaitMs: (flags.maxWait ?? 30) * 1000,
      ...(flags.maxDuration === undefined ? {} : { maxDurationMs: flags.maxDuration * 1000 }),
      secrets,
      kit: { name: kit.name, version: kit.version },
      progress: flags.quiet ? undefined : (line) => io.stderr(`${line}\n`),
    });
    io.stdout(`${summary(result).join('\n')}\n`);
    return 0;
  } catch (error) {
    const known = [UsageError, UnreachableError, BlockedError, StoppedError, PagingError, SourceError].some((type) => error instanceof type);
    if (!known) throw error;
    io.stderr(`monitoring-api-kit record: ${(error as Error).message}; nothing was written\n`);
    return 2;
  }
}
