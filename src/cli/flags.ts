import { Option, type Command } from 'commander';
import { MAX_LIVE_RATE } from '../live/live-feed.js';
import { defaultConnectionLimits } from '../server/connection-limits.js';
import { DEFAULT_EVENT_COUNT, DEFAULT_SEED } from '../seed/generate-events.js';
import { anchorTime, integer, list, origin, yesNo } from './flag-values.js';

/** The flags of `serve`, parsed. */
export interface ServeFlags {
  readonly port: number;
  readonly host: string;
  readonly seed: number;
  readonly records: number;
  readonly fixture: readonly string[];
  readonly anchor?: number;
  readonly users?: string;
  readonly tokenAuth: boolean;
  readonly rateLimit: string;
  readonly latency: number;
  readonly requireCsrf: boolean;
  readonly liveRate: number;
  readonly snmpPort?: number;
  readonly snmpCommunity: readonly string[];
  readonly mqttPort?: number;
  readonly corsOrigin?: readonly string[];
  readonly controlAnyAddress: boolean;
  readonly controlHost?: readonly string[];
  readonly maxConnections: number;
  readonly logLevel: string;
}

export interface Flag {
  readonly flags: string;
  readonly description: string;
  /** The environment variable that gives the flag's value when the flag is not given. */
  readonly env?: string;
  readonly parse?: (value: string, previous: never) => unknown;
  readonly defaultValue?: unknown;
  /** How the default shows in --help, when not the value itself. */
  readonly defaultDescription?: string;
  readonly choices?: readonly string[];
}

const ENV = 'MONITORING_FAKE_';
const port = integer(0, 65535);

/** Every flag of `serve`, in one place: a new option of the fake adds its flag here. */
export const serveFlags: readonly Flag[] = [
  { flags: '--port <port>', description: 'port of the API, docs and control API (0 picks a free one)', env: `${ENV}PORT`, parse: port, defaultValue: 4010 },
  { flags: '--host <host>', description: 'address to listen on (also for --snmp-port and --mqtt-port)', env: `${ENV}HOST`, defaultValue: '127.0.0.1' },
  { flags: '--seed <n>', description: 'seed of the generated data; the same seed gives the same data', env: `${ENV}SEED`, parse: integer(0, 2 ** 31 - 1), defaultValue: DEFAULT_SEED },
  { flags: '--records <n>', description: 'number of generated event log records', env: `${ENV}RECORDS`, parse: integer(0, 2_000_000), defaultValue: DEFAULT_EVENT_COUNT },
  {
    flags: '--fixture <file>',
    description: 'extra event log records (a JSON array), added to the seed; repeatable or comma-separated',
    env: `${ENV}FIXTURES`,
    parse: list as Flag['parse'],
    defaultValue: [],
    defaultDescription: 'none',
  },
  {
    flags: '--anchor <time>',
    description: 'end of the seed window: "now", an ISO date-time or epoch ms',
    env: `${ENV}ANCHOR`,
    parse: anchorTime(() => Date.now()),
    defaultDescription: '2025-09-01T00:00:00Z',
  },
  { flags: '--users <file>', description: 'users fixture (JSON)', env: `${ENV}USERS`, defaultDescription: 'fixtures/users.json' },
  {
    flags: '--token-auth [yes|no]',
    description: 'token authentication (server.user.auth_token_enabled)',
    env: `${ENV}TOKEN_AUTH`,
    parse: yesNo as Flag['parse'],
    defaultValue: true,
    defaultDescription: 'yes',
  },
  { flags: '--no-token-auth', description: 'switch token authentication off (same as --token-auth no)' },
  {
    flags: '--rate-limit <preset|file>',
    description: 'rate limits: lenient, strict, off, or a JSON file of rules',
    env: `${ENV}RATE_LIMIT`,
    defaultValue: 'lenient',
  },
  { flags: '--latency <ms>', description: 'milliseconds added before every answer of the API', env: `${ENV}LATENCY`, parse: integer(0, 60_000), defaultValue: 0 },
  {
    flags: '--require-csrf [yes|no]',
    description: 'require x-csrf-token on writes made with a session cookie',
    env: `${ENV}REQUIRE_CSRF`,
    parse: yesNo as Flag['parse'],
    defaultValue: false,
    defaultDescription: 'no',
  },
  {
    flags: '--live-rate <n>',
    description: 'new seeded event log records per second (0: none)',
    env: `${ENV}LIVE_RATE`,
    parse: integer(0, MAX_LIVE_RATE),
    defaultValue: 0,
  },
  { flags: '--snmp-port <port>', description: 'receive SNMP traps (v1, v2c) on this UDP port into the event log', env: `${ENV}SNMP_PORT`, parse: port, defaultDescription: 'off' },
  {
    flags: '--snmp-community <name>',
    description: 'SNMP communities accepted; repeatable or comma-separated',
    env: `${ENV}SNMP_COMMUNITY`,
    parse: list as Flag['parse'],
    defaultValue: ['public'],
    defaultDescription: 'public',
  },
  { flags: '--mqtt-port <port>', description: 'run an MQTT broker on this TCP port; published messages go into the event log', env: `${ENV}MQTT_PORT`, parse: port, defaultDescription: 'off' },
  {
    flags: '--cors-origin <origin>',
    description: 'origins of pages allowed to call the fake (replaces the default); repeatable or comma-separated',
    env: `${ENV}CORS_ORIGINS`,
    parse: origin as Flag['parse'],
    defaultDescription: 'any http://localhost:* and http://127.0.0.1:*',
  },
  {
    flags: '--control-any-address [yes|no]',
    description: 'answer the control API (/__control) from any address, not only loopback',
    env: `${ENV}CONTROL_ANY_ADDRESS`,
    parse: yesNo as Flag['parse'],
    defaultValue: false,
    defaultDescription: 'no',
  },
  {
    flags: '--control-host <name>',
    description: 'more Host names the control API answers (besides localhost, loopback addresses and --host); repeatable or comma-separated',
    env: `${ENV}CONTROL_HOSTS`,
    parse: list as Flag['parse'],
    defaultDescription: 'none',
  },
  {
    flags: '--max-connections <n>',
    description: 'most connections open at once; more are closed at once (slow clients are shed by timeouts)',
    env: `${ENV}MAX_CONNECTIONS`,
    parse: integer(1, 1_000_000),
    defaultValue: defaultConnectionLimits.maxConnections,
  },
  {
    flags: '--log-level <level>',
    description: 'request log level',
    env: `${ENV}LOG_LEVEL`,
    choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
    defaultValue: 'info',
  },
];

export function addFlags(command: Command, flags: readonly Flag[]): Command {
  for (const flag of flags) {
    // Commander shows a default only when there is a value; "off" and the like go into the text.
    const shown = flag.defaultValue === undefined && flag.defaultDescription ? ` (default: ${flag.defaultDescription})` : '';
    const option = new Option(flag.flags, flag.description + shown);
    if (flag.env) option.env(flag.env);
    if (flag.choices) option.choices(flag.choices);
    if (flag.parse) option.argParser(flag.parse as never);
    if (flag.defaultValue !== undefined) option.default(flag.defaultValue, flag.defaultDescription);
    command.addOption(option);
  }
  return command;
}
