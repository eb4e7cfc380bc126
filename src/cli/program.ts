// The command line of the kit: `serve`, and the `check` and `record` commands with their flags.
// The contract runner (check.ts) and the recorder (record.ts) are loaded when their command
// runs: `serve` starts without them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_BUDGET_MS } from '../contract/model/budget.js';
import { GROUPS } from '../contract/run/groups.js';
import { UsageError } from '../contract/errors.js';
import { packageRoot } from '../spec/index.js';
import { addFlags, anchorTime, integer, list, type Flag, type ParsedFlags } from './flag.js';
import { registerServeCommand } from './serve.js';

const env = (name: string) => `MONITORING_API_${name}`;
function percent(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return Number(value);
}

/** The server and its administrator, and how long to wait: each request, a block, the whole run. */
const serverFlags = (what: string, maxDurationSeconds: number) =>
  [
    { name: 'baseUrl', flags: '--base-url <url>', description: `the server to ${what}, e.g. http://127.0.0.1:4010`, env: env('BASE_URL') },
    { name: 'login', flags: '--login <login>', description: 'an administrator login (required)', env: env('LOGIN') },
    { name: 'password', flags: '--password <password>', description: "the administrator's password (required)", env: env('PASSWORD') },
    { name: 'timeout', flags: '--timeout <ms>', description: 'deadline of each request, whole: connecting, the headers and the body', parse: integer(1), defaultValue: 10_000 },
    { name: 'maxWait', flags: '--max-wait <seconds>', description: 'longest wait for a block (Retry-After) to end', parse: integer(0), defaultValue: 30 },
    { name: 'maxDuration', flags: '--max-duration <seconds>', description: 'longest the whole run may take; then it stops with exit 2', parse: integer(1), defaultValue: maxDurationSeconds },
  ] as const satisfies readonly Flag[];

const checkFlags = [
  ...serverFlags('check', 600),
  { name: 'lowLogin', flags: '--low-login <login>', description: 'a low-privilege login, for the permission checks', env: env('LOW_LOGIN') },
  { name: 'lowPassword', flags: '--low-password <password>', description: "the low-privilege user's password", env: env('LOW_PASSWORD') },
  { name: 'operatorLogin', flags: '--operator-login <login>', description: 'a login that holds some permissions, not all (e.g. only manage-event-log), for the permission checks: accepted where it holds what an operation needs, refused where not', env: env('OPERATOR_LOGIN') },
  { name: 'operatorPassword', flags: '--operator-password <password>', description: "the operator user's password", env: env('OPERATOR_PASSWORD') },
  { name: 'token', flags: '--token <token>', description: "the administrator's API token (default: the one its user record shows)", env: env('TOKEN') },
  { name: 'seed', flags: '--seed <n>', description: 'seed of every generated input and choice (printed in every report)', parse: integer(0) },
  { name: 'allowWrites', flags: '--allow-writes', description: 'allow writes that are restored afterwards (default: only on loopback targets)' },
  { name: 'readOnly', flags: '--read-only', description: 'GET requests and session log-in/out only, even on loopback' },
  { name: 'probeLimits', flags: '--probe-limits', description: 'trip a rate limit on purpose and look for the block in the limit-block log' },
  { name: 'probeRequests', flags: '--probe-requests <n>', description: 'requests of the rate-limit probe', parse: integer(1), defaultValue: 300 },
  { name: 'strict', flags: '--strict', description: 'notes (differences from gap-fills) and inconclusive checks fail the run too' },
  { name: 'reporter', flags: '--reporter <name>', description: 'report format', choices: ['console', 'json', 'junit', 'html', 'markdown'] as const, defaultValue: 'console' },
  { name: 'minCoverage', flags: '--min-coverage <percent>', description: 'fail the run (exit 1) when fewer of the documented statuses were seen', parse: percent },
  { name: 'output', flags: '--output <file>', description: 'write the report to this file instead of stdout (with junit, the console summary still goes to stdout)' },
  { name: 'maxRecords', flags: '--max-records <n>', description: 'the explicit large limit of reference lists, and the most records of the window queries are judged in', parse: integer(2), defaultValue: 200 },
  { name: 'budget', flags: '--budget <seconds>', description: 'time for generated cases (queries judged against the model); a failure found is shrunk for up to as long again', parse: integer(1), defaultValue: DEFAULT_BUDGET_MS / 1000 },
  { name: 'cases', flags: '--cases <dir>', description: "folder of contract cases (default: the kit's contracts/)" },
  { name: 'cases', flags: '--no-cases', description: 'run no contract cases', negates: true },
  { name: 'only', flags: '--only <groups>', description: `run only these groups, comma-separated: ${GROUPS.join(', ')}`, parse: list },
  { name: 'compareWith', flags: '--compare-with <url>', description: 'send the same requests to a second server and report where the answers differ, by kind' },
  { name: 'compareLogin', flags: '--compare-login <login>', description: 'an administrator login of the --compare-with server (default: --login and --password, and the low-privilege pair, are used for both)', env: env('COMPARE_LOGIN') },
  { name: 'comparePassword', flags: '--compare-password <password>', description: "that administrator's password", env: env('COMPARE_PASSWORD') },
  { name: 'compareLowLogin', flags: '--compare-low-login <login>', description: 'a low-privilege login of the --compare-with server', env: env('COMPARE_LOW_LOGIN') },
  { name: 'compareLowPassword', flags: '--compare-low-password <password>', description: "that low-privilege user's password", env: env('COMPARE_LOW_PASSWORD') },
  { name: 'quiet', flags: '--quiet', description: 'no progress lines' },
  { name: 'verbose', flags: '--verbose', description: 'the console report lists every finding, the table of every operation and check, and the coverage of each operation (default: each cause of findings once)' },
] as const satisfies readonly Flag[];

/** Most records a recording holds: all of them are in memory until written. */
const MAX_RECORDS_CEILING = 1_000_000;

const recordFlags = [
  ...serverFlags('record', 3600),
  { name: 'out', flags: '--out <dir>', description: 'the folder to write the recording to: new or empty (required)' },
  { name: 'since', flags: '--since <time>', description: 'oldest records to take: an ISO date-time or epoch ms', parse: anchorTime(() => Date.now()) },
  { name: 'until', flags: '--until <time>', description: 'newest records to take: "now", an ISO date-time or epoch ms (default: the newest when the run starts)', parse: anchorTime(() => Date.now()) },
  { name: 'maxRecords', flags: '--max-records <n>', description: 'most event log records (and most block log records) to take', parse: integer(1, MAX_RECORDS_CEILING), defaultValue: 100_000 },
  { name: 'pageSize', flags: '--page-size <n>', description: 'records asked for in one request', parse: integer(1, 10_000), defaultValue: 1000 },
  { name: 'keepInvalid', flags: '--keep-invalid', description: 'keep event log records the document refuses, when the fake can still serve them (in events-kept-invalid.json)' },
  { name: 'anonymize', flags: '--anonymize', description: 'map IP addresses to documentation ranges and entity names, logins and ids to stand-ins, consistently' },
  { name: 'quiet', flags: '--quiet', description: 'no progress lines' },
] as const satisfies readonly Flag[];

/** The flags as `runCheck` and `runRecord` take them: those with a default may be left out by a caller other than Commander. */
export type CheckFlags = Partial<Omit<ParsedFlags<typeof checkFlags>, 'cases'>> & Pick<ParsedFlags<typeof checkFlags>, 'reporter'> & { readonly cases?: string | false };
export type RecordFlags = Partial<ParsedFlags<typeof recordFlags>> & Pick<ParsedFlags<typeof recordFlags>, 'maxRecords' | 'pageSize'>;

/** Where `check` and `record` write (tests pass their own). */
export interface CheckIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}
export const processIo: CheckIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/** The kit's name and version, as reports and recordings name it. */
export const kit = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };

/** The server and administrator that `check` and `record` need; a usage error when one is missing. */
export function serverOf(flags: { baseUrl?: string; login?: string; password?: string }): { baseUrl: string; admin: { login: string; password: string } } {
  if (!flags.baseUrl) throw new UsageError('--base-url is required (or MONITORING_API_BASE_URL)');
  if (!flags.login || flags.password === undefined) {
    throw new UsageError('administrator credentials are required: --login and --password (or MONITORING_API_LOGIN and MONITORING_API_PASSWORD)');
  }
  return { baseUrl: flags.baseUrl, admin: { login: flags.login, password: flags.password } };
}

/** The program; `check` and `record` exit with 2 on a usage error, like a connection error (a run with violations exits with 1). */
export function createProgram(): Command {
  const program = new Command('monitoring-api-kit').description('Mock server and contract test kit for the monitoring service REST API').version(kit.version);
  registerServeCommand(program);
  const exit = (error: { exitCode: number }) => process.exit(error.exitCode === 0 ? 0 : 2);
  addFlags(program.command('check').description('run the contract suite against a server that claims to implement the API').exitOverride(exit), checkFlags).action(async (flags: CheckFlags) => {
    process.exitCode = await (await import('./check.js')).runCheck(flags);
  });
  const record = program.command('record').description("record a server's event log, block log and current user, read-only, into a folder `serve --recording` serves");
  addFlags(record.exitOverride(exit), recordFlags).action(async (flags: RecordFlags) => {
    process.exitCode = await (await import('./record.js')).runRecord(flags);
  });
  return program;
}
