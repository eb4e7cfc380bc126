import { Option, type Command } from 'commander';
import { MAX_LIVE_RATE } from '../live/live-feed.js';
import { DEFAULT_EVENT_COUNT, DEFAULT_SEED } from '../seed/generate-events.js';
import { defaultConnectionLimits } from '../server/connection-limits.js';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from '../server/options.js';
import { LOCAL_ORIGINS } from '../server/cors.js';
import { allowedHost, anchorFlag, integer, list, origin, yesNo } from './flag-values.js';

export interface Flag {
  /** The key of the parsed value: Commander's attribute name of the flag (checked when added). */
  readonly name: string;
  readonly flags: string;
  readonly description: string;
  /** The environment variable that gives the flag's value when the flag is not given. */
  readonly env?: string;
  readonly parse?: (value: string, previous: never) => unknown;
  readonly defaultValue?: unknown;
  /** How the default shows in --help, when not the value itself. */
  readonly defaultDescription?: string;
  readonly choices?: readonly string[];
  /** A `--no-…` flag: sets the value of `name` to false; shown with that flag in the README. */
  readonly negates?: boolean;
}

const ENV = 'MONITORING_FAKE_';
const port = integer(0, 65535);
const MAX_RECORDS = 2_000_000;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Every flag of `serve`, in one place: a new option of the fake adds its flag here. The type
 * of the parsed flags (ServeFlags), `--help` and the README's table of flags (a test compares
 * it) all come from this list.
 */
const declaredFlags = [
  { name: 'port', flags: '--port <port>', description: 'port of the API, docs and control API (0 picks a free one)', env: `${ENV}PORT`, parse: port, defaultValue: 4010 },
  { name: 'host', flags: '--host <host>', description: 'address to listen on (the SNMP and MQTT ports too)', env: `${ENV}HOST`, defaultValue: '127.0.0.1' },
  { name: 'seed', flags: '--seed <n>', description: 'seed of the generated data: the same seed gives the same data', env: `${ENV}SEED`, parse: integer(0, 2 ** 31 - 1), defaultValue: DEFAULT_SEED },
  {
    name: 'records',
    flags: '--records <n>',
    description: `generated event log records (up to ${count(MAX_RECORDS)})`,
    env: `${ENV}RECORDS`,
    parse: integer(0, MAX_RECORDS),
    defaultDescription: `${DEFAULT_EVENT_COUNT} (0 with \`--recording\`)`,
  },
  {
    name: 'fixture',
    flags: '--fixture <file>',
    description: 'extra records (a JSON array), added to `fixtures/events.json` (or to the recording); repeatable or comma-separated',
    env: `${ENV}FIXTURES`,
    parse: list,
    defaultValue: [],
    defaultDescription: 'none',
  },
  {
    name: 'recording',
    flags: '--recording <dir>',
    description:
      'serve a recording (`monitoring-api-kit record --out`): its event log, block log and user, instead of the generated data and `fixtures/events.json`',
    env: `${ENV}RECORDING`,
    defaultDescription: 'none',
  },
  {
    name: 'anchor',
    flags: '--anchor <time>',
    description: "move the data's timeline, offsets kept, so that its newest record is at this instant: `now`, an ISO date-time or epoch ms",
    env: `${ENV}ANCHOR`,
    parse: anchorFlag,
    defaultDescription: 'now (the start); with `--recording`: the recorded times',
  },
  { name: 'users', flags: '--users <file>', description: 'users fixture (JSON)', env: `${ENV}USERS`, defaultDescription: "fixtures/users.json, or the recording's" },
  {
    name: 'watch',
    flags: '--watch [yes|no]',
    description: 'reload the users file and the fixture files when they change, without a restart (sessions stay; a file with problems keeps the old data, and every problem is logged)',
    env: `${ENV}WATCH`,
    parse: yesNo,
    defaultValue: false,
    defaultDescription: 'no',
  },
  {
    name: 'tokenAuth',
    flags: '--token-auth [yes|no]',
    description: 'token authentication (`server.user.auth_token_enabled`)',
    env: `${ENV}TOKEN_AUTH`,
    parse: yesNo,
    defaultValue: true,
    defaultDescription: 'yes',
  },
  { name: 'tokenAuth', flags: '--no-token-auth', description: 'switch token authentication off (same as --token-auth no)', negates: true },
  { name: 'rateLimit', flags: '--rate-limit <preset|file>', description: 'rate limits: `lenient`, `strict`, `off`, or a JSON file of rules', env: `${ENV}RATE_LIMIT`, defaultValue: 'lenient' },
  {
    name: 'latency',
    flags: '--latency <ms>',
    description: 'milliseconds added before every answer of `/node/api`',
    env: `${ENV}LATENCY`,
    parse: integer(0, 60_000),
    defaultValue: 0,
  },
  {
    name: 'prefer',
    flags: '--prefer [yes|no]',
    description: 'honour a one-request `Prefer: code=<status>` or `latency=<ms>` header from loopback clients and allowed origins',
    env: `${ENV}PREFER`,
    parse: yesNo,
    defaultValue: true,
    defaultDescription: 'yes',
  },
  { name: 'prefer', flags: '--no-prefer', description: 'ignore the `Prefer` header (same as --prefer no)', negates: true },
  {
    name: 'requireCsrf',
    flags: '--require-csrf [yes|no]',
    description: "writes made with the session cookie must send the `csrf` cookie's value in `x-csrf-token`",
    env: `${ENV}REQUIRE_CSRF`,
    parse: yesNo,
    defaultValue: false,
    defaultDescription: 'no',
  },
  {
    name: 'liveRate',
    flags: '--live-rate <n>',
    description: `new seeded records per second (up to ${count(MAX_LIVE_RATE)}), timestamped now`,
    env: `${ENV}LIVE_RATE`,
    parse: integer(0, MAX_LIVE_RATE),
    defaultValue: 0,
  },
  {
    name: 'snmpPort',
    flags: '--snmp-port <port>',
    description: 'receive SNMP v1/v2c traps on this UDP port into the event log',
    env: `${ENV}SNMP_PORT`,
    parse: port,
    defaultDescription: 'off',
  },
  {
    name: 'snmpCommunity',
    flags: '--snmp-community <name>',
    description: 'communities accepted; repeatable or comma-separated',
    env: `${ENV}SNMP_COMMUNITY`,
    parse: list,
    defaultValue: ['public'],
    defaultDescription: 'public',
  },
  {
    name: 'mqttPort',
    flags: '--mqtt-port <port>',
    description: 'an MQTT broker on this TCP port; published messages go into the event log',
    env: `${ENV}MQTT_PORT`,
    parse: port,
    defaultDescription: 'off',
  },
  {
    name: 'corsOrigin',
    flags: '--cors-origin <origin>',
    description: 'pages allowed to call the fake (replaces the default); repeatable or comma-separated',
    env: `${ENV}CORS_ORIGINS`,
    parse: origin,
    defaultDescription: `any ${LOCAL_ORIGINS.map((o) => `\`${o}\``).join(', ')}`,
  },
  {
    name: 'controlAnyAddress',
    flags: '--control-any-address [yes|no]',
    description: 'answer `/__control` from any address, not only loopback',
    env: `${ENV}CONTROL_ANY_ADDRESS`,
    parse: yesNo,
    defaultValue: false,
    defaultDescription: 'no',
  },
  {
    name: 'controlHost',
    flags: '--control-host <name>',
    description:
      'more Host names `/__control` answers (besides `localhost`, loopback addresses and `--host`), e.g. the name containers reach the fake by; `/node/api` answers them too; repeatable or comma-separated',
    env: `${ENV}CONTROL_HOSTS`,
    parse: list,
    defaultDescription: 'none',
  },
  {
    name: 'allowedHost',
    flags: '--allowed-host <name>',
    description:
      'more Host names `/node/api` answers (besides IP addresses, `localhost`, `*.localhost`, `--host` and `--control-host`), e.g. a name in /etc/hosts or of a proxy; `.example.test` also allows its subdomains, and `*` any Host (unsafe: it gives up the guard against DNS rebinding); repeatable or comma-separated',
    env: `${ENV}ALLOWED_HOSTS`,
    parse: allowedHost,
    defaultDescription: 'none',
  },
  {
    name: 'maxConnections',
    flags: '--max-connections <n>',
    description: 'most connections open at once (e.g. raise it for a load test with more clients); more are closed at once, without an answer',
    env: `${ENV}MAX_CONNECTIONS`,
    parse: integer(1, 1_000_000),
    defaultValue: defaultConnectionLimits.maxConnections,
  },
  {
    name: 'sendTimeout',
    flags: '--send-timeout <ms>',
    description: 'milliseconds a client has to take a whole answer, from its first byte; a client still reading then loses the connection (raise it to read millions of records over a slow network)',
    env: `${ENV}SEND_TIMEOUT`,
    parse: integer(1000, 86_400_000),
    defaultValue: defaultConnectionLimits.sendTimeoutMs,
    defaultDescription: `${defaultConnectionLimits.sendTimeoutMs} (${defaultConnectionLimits.sendTimeoutMs / 60_000} minutes)`,
  },
  {
    name: 'journalSize',
    flags: '--journal-size <n>',
    description: `requests of \`/node/api\` kept for \`/__control/requests\` and the \`/__inspector\` page (up to ${count(MAX_JOURNAL_SIZE)}; 0 switches the journal off)`,
    env: `${ENV}JOURNAL_SIZE`,
    parse: integer(0, MAX_JOURNAL_SIZE),
    defaultValue: DEFAULT_JOURNAL_SIZE,
  },
  {
    name: 'logLevel',
    flags: '--log-level <level>',
    description: `request log level: ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1)}`,
    env: `${ENV}LOG_LEVEL`,
    choices: LOG_LEVELS,
    defaultValue: 'info',
  },
  {
    name: 'logFormat',
    flags: '--log-format <format>',
    description: '`pretty` (one line a person reads: method, path, status, ms, user), `json` (one JSON object a line), or `auto`: pretty when stdout is a terminal, json otherwise',
    env: `${ENV}LOG_FORMAT`,
    choices: LOG_FORMATS,
    defaultValue: 'auto',
  },
] as const satisfies readonly Flag[];
export const serveFlags: readonly Flag[] = declaredFlags;

type Declared = (typeof declaredFlags)[number];
type ValueOf<F> = F extends { parse: (...args: never[]) => infer T } ? T : F extends { choices: readonly (infer C)[] } ? C : string;

/** The flags of `serve`, parsed: a value for each flag, undefined when it has no default and was not given. */
export type ServeFlags = {
  readonly [F in Exclude<Declared, { negates: true }> as F['name']]: F extends { defaultValue: unknown } ? ValueOf<F> : ValueOf<F> | undefined;
};


export function addFlags(command: Command, flags: readonly Flag[]): Command {
  for (const flag of flags) {
    // Commander shows a default only when there is a value; "off" and the like go into the text.
    // The descriptions are also the README's, whose code spans lose their backquotes here.
    const shown = flag.defaultValue === undefined && flag.defaultDescription ? ` (default: ${flag.defaultDescription})` : '';
    const option = new Option(flag.flags, (flag.description + shown).replaceAll('`', ''));
    if (option.attributeName() !== flag.name) throw new Error(`The flag ${flag.flags} is named "${flag.name}", not "${option.attributeName()}".`);
    if (flag.env) option.env(flag.env);
    if (flag.choices) option.choices(flag.choices);
    if (flag.parse) option.argParser(flag.parse as never);
    if (flag.defaultValue !== undefined) option.default(flag.defaultValue, flag.defaultDescription);
    command.addOption(option);
  }
  return command;
}
