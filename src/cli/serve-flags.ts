import { MAX_LIVE_RATE } from '../live/live-feed.js';
import { DEFAULT_EVENT_COUNT, DEFAULT_SEED } from '../seed/generate-events.js';
import { defaultConnectionLimits } from '../server/options.js';
import { LOCAL_ORIGINS } from '../server/host-origin-guard.js';
import { controlApiPath, journalLimits, readDocument, type Document } from '../spec/index.js';
import { allowedHost, anchorTime, formatCount, integer, list, origin, port, yesNo, type Flag, type ParsedFlags } from './flag.js';

const env = (name: string) => `MONITORING_FAKE_${name}`;
const MAX_RECORDS = 2_000_000;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
let maxSize: number | undefined;
/** The most requests `--journal-size` may ask for: the control API document's `x-max-journal-size`, read when first needed. */
const maxJournalSize = (): number => (maxSize ??= journalLimits(readDocument(controlApiPath) as Document).maxSize);
const yesNoFlag = <N extends string>(name: N, flags: string, description: string, variable: string, defaultValue: boolean) =>
  ({ name, flags: `${flags} [yes|no]`, description, env: env(variable), parse: yesNo, defaultValue, defaultDescription: defaultValue ? 'yes' : 'no' }) as const;

/** Every flag of `serve`, in the order `--help` and docs/serve-flags.md show them; a new option of the fake adds its flag here. */
const declared = [
  { name: 'port', flags: '--port <port>', description: 'port of the API, docs and control API (0 picks a free one)', env: env('PORT'), parse: port, defaultValue: 4010 },
  { name: 'host', flags: '--host <host>', description: 'address to listen on (the SNMP and MQTT ports too)', env: env('HOST'), defaultValue: '127.0.0.1' },
  { name: 'seed', flags: '--seed <n>', description: 'seed of the generated data: the same seed gives the same data', env: env('SEED'), parse: integer(0, 2 ** 31 - 1), defaultValue: DEFAULT_SEED },
  { name: 'records', flags: '--records <n>', description: `generated event log records (up to ${formatCount(MAX_RECORDS)})`, env: env('RECORDS'), parse: integer(0, MAX_RECORDS), defaultDescription: `${DEFAULT_EVENT_COUNT} (0 with \`--recording\`)` },
  { name: 'fixture', flags: '--fixture <file>', description: 'extra records (a JSON array), added to `fixtures/events.json` (or to the recording); repeatable or comma-separated', env: env('FIXTURES'), parse: list, defaultValue: [], defaultDescription: 'none' },
  { name: 'recording', flags: '--recording <dir>', description: 'serve a recording (`monitoring-api-kit record --out`): its event log, block log and user, instead of the generated data and `fixtures/events.json`', env: env('RECORDING'), defaultDescription: 'none' },
  {
    name: 'anchor',
    flags: '--anchor <time>',
    description: "move the data's timeline, offsets kept, so that its newest record is at this instant: `now`, an ISO date-time or epoch ms",
    env: env('ANCHOR'),
    // "now" is kept as such: the fake reads its clock when it starts.
    parse: (value: string): number | 'now' => (value.trim().toLowerCase() === 'now' ? 'now' : anchorTime(() => Date.now())(value)),
    defaultDescription: 'now (the start); with `--recording`: the recorded times',
  },
  { name: 'users', flags: '--users <file>', description: 'users fixture (JSON)', env: env('USERS'), defaultDescription: "fixtures/users.json, or the recording's" },
  yesNoFlag('watch', '--watch', 'reload the users file and the fixture files when they change, without a restart (sessions stay; a file with problems keeps the old data, and every problem is logged)', 'WATCH', false),
  yesNoFlag('tokenAuth', '--token-auth', 'token authentication (`server.user.auth_token_enabled`)', 'TOKEN_AUTH', true),
  { name: 'tokenAuth', flags: '--no-token-auth', description: 'switch token authentication off (same as --token-auth no)', negates: true },
  { name: 'rateLimit', flags: '--rate-limit <preset|file>', description: 'rate limits: `lenient`, `strict`, `off`, or a JSON file of rules', env: env('RATE_LIMIT'), defaultValue: 'lenient' },
  { name: 'latency', flags: '--latency <ms>', description: 'milliseconds added before every answer of `/node/api`', env: env('LATENCY'), parse: integer(0, 60_000), defaultValue: 0 },
  yesNoFlag('prefer', '--prefer', 'honour a one-request `Prefer: code=<status>` or `latency=<ms>` header from the clients `/__control` answers (loopback, allowed origins)', 'PREFER', true),
  { name: 'prefer', flags: '--no-prefer', description: 'ignore the `Prefer` header (same as --prefer no)', negates: true },
  yesNoFlag('requireCsrf', '--require-csrf', "writes made with the session cookie must send the `csrf` cookie's value in `x-csrf-token`", 'REQUIRE_CSRF', false),
  { name: 'liveRate', flags: '--live-rate <n>', description: `new seeded records per second (up to ${formatCount(MAX_LIVE_RATE)}), timestamped now`, env: env('LIVE_RATE'), parse: integer(0, MAX_LIVE_RATE), defaultValue: 0 },
  { name: 'snmpPort', flags: '--snmp-port <port>', description: 'receive SNMP v1/v2c traps on this UDP port into the event log', env: env('SNMP_PORT'), parse: port, defaultDescription: 'off' },
  { name: 'snmpCommunity', flags: '--snmp-community <name>', description: 'communities accepted; repeatable or comma-separated', env: env('SNMP_COMMUNITY'), parse: list, defaultValue: ['public'], defaultDescription: 'public' },
  { name: 'mqttPort', flags: '--mqtt-port <port>', description: 'an MQTT broker on this TCP port; published messages go into the event log', env: env('MQTT_PORT'), parse: port, defaultDescription: 'off' },
  { name: 'corsOrigin', flags: '--cors-origin <origin>', description: 'pages allowed to call the fake (replaces the default); repeatable or comma-separated', env: env('CORS_ORIGINS'), parse: origin, defaultDescription: `any ${LOCAL_ORIGINS.map((o) => `\`${o}\``).join(', ')}` },
  yesNoFlag('controlAnyAddress', '--control-any-address', 'answer `/__control` from any address, not only loopback', 'CONTROL_ANY_ADDRESS', false),
  {
    name: 'controlHost',
    flags: '--control-host <name>',
    description: 'more Host names `/__control` answers (besides `localhost`, loopback addresses and `--host`), e.g. the name containers reach the fake by; `/node/api` answers them too; repeatable or comma-separated',
    env: env('CONTROL_HOSTS'),
    parse: list,
    defaultDescription: 'none',
  },
  {
    name: 'allowedHost',
    flags: '--allowed-host <name>',
    description:
      'more Host names `/node/api` answers (besides IP addresses, `localhost`, `*.localhost`, `--host` and `--control-host`), e.g. a name in /etc/hosts or of a proxy; `.example.test` also allows its subdomains, and `*` any Host (unsafe: it gives up the guard against DNS rebinding); repeatable or comma-separated',
    env: env('ALLOWED_HOSTS'),
    parse: allowedHost,
    defaultDescription: 'none',
  },
  {
    name: 'maxConnections',
    flags: '--max-connections <n>',
    description: 'most connections open at once (e.g. raise it for a load test with more clients); more are closed at once, without an answer',
    env: env('MAX_CONNECTIONS'),
    parse: integer(1, 1_000_000),
    defaultValue: defaultConnectionLimits.maxConnections,
  },
  {
    name: 'journalSize',
    flags: '--journal-size <n>',
    get description() {
      return `requests of \`/node/api\` kept for \`/__control/requests\` and the \`/__inspector\` page (up to ${formatCount(maxJournalSize())}; 0 switches the journal off)`;
    },
    env: env('JOURNAL_SIZE'),
    parse: (value: string) => integer(0, maxJournalSize())(value),
    // Left to the fake, which reads it from the control API document.
    defaultDescription: "the control API document's `x-default-journal-size`",
  },
  { name: 'logLevel', flags: '--log-level <level>', description: `request log level: ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1)}`, env: env('LOG_LEVEL'), choices: LOG_LEVELS, defaultValue: 'info' },
  {
    name: 'logFormat',
    flags: '--log-format <format>',
    description: '`pretty` (one line a person reads: method, path, status, ms, user), `json` (one JSON object a line), or `auto`: pretty when stdout is a terminal, json otherwise',
    env: env('LOG_FORMAT'),
    choices: ['auto', 'pretty', 'json'] as const,
    defaultValue: 'auto',
  },
] as const satisfies readonly Flag[];

export const serveFlags: readonly Flag[] = declared;
export type ServeFlags = ParsedFlags<typeof declared>;
