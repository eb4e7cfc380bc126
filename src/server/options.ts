import { setTimeout as wait } from 'node:timers/promises';
import { systemClock, type Clock } from '../shared/clock.js';
import { seededRandom } from '../shared/seeded-random.js';
import { defaultEventFixturesPath, defaultUsersFixture } from '../seed/fixtures.js';
import { controlApiPath, loadSpec, type Spec } from '../spec/index.js';
import type { AnchorInput } from '../seed/anchor.js';
import { recordingUsersFile } from '../seed/recording.js';
import { defaultConnectionLimits, type ConnectionLimits } from './connection-limits.js';
import type { HandlerMap } from './handlers/types.js';
import type { LogFormat } from './logger.js';
import type { Sleep } from './runtime-config.js';
import type { RateLimitChoice } from './rate-limit-presets.js';

/** Where and how much the fake logs; secrets are masked either way. */
export interface FakeLoggerOptions {
  readonly level?: string;
  /** Where log lines go (default stdout). */
  readonly stream?: { write(line: string): void };
  /** `json` (default): one JSON object a line; `pretty`: one line a person reads (method, path, status, ms, user). */
  readonly format?: LogFormat;
}

/** Options of `buildFake`; every one has a default. */
export interface FakeOptions {
  /** The loaded document (default: the kit's own, `loadSpec()`). */
  readonly spec?: Spec;
  readonly clock?: Clock;
  /** Path of the users fixture (default fixtures/users.json). */
  readonly users?: string;
  /** Mirrors the server parameter `server.user.auth_token_enabled` (default true). */
  readonly tokenAuthEnabled?: boolean;
  /** Require `x-csrf-token` matching the session on writes made with a session cookie (default false). */
  readonly requireCsrf?: boolean;
  readonly sessions?: { readonly max?: number; readonly maxPerUser?: number; readonly idleSeconds?: number };
  /** false (default) for no logs, true for info to stdout, or a level and stream. */
  readonly logger?: boolean | FakeLoggerOptions;
  /** More handlers, added to (and overriding) the built-in ones, keyed by operationId. */
  readonly handlers?: HandlerMap;
  /** The seed of everything random the fake makes (default 42): the same seed gives the same data. */
  readonly seed?: number;
  /** How many event log records to generate (default 1,000). */
  readonly records?: number;
  /**
   * A recording's folder (`monitoring-api-kit record --out`): its event log, block log and
   * users are the data, with no generated records unless `records` asks for them, no
   * `fixtures/events.json`, and its users unless `users` is given.
   */
  readonly recording?: string;
  /**
   * Shift the data's timeline (seeded, fixture and recorded records, both logs) so that its newest
   * instant is this one, offsets kept: `now` (the clock at start), an ISO date-time, ms or a
   * Date. Default: the data's own times (generated data ends at DEFAULT_END_TIME).
   */
  readonly anchor?: AnchorInput;
  /** Event log fixture files merged into the seed (default: fixtures/events.json, none beside a recording). */
  readonly eventFixtures?: readonly string[];
  /** Rate limits: a preset of the control API document, `off`, or rules (default `lenient`). */
  readonly rateLimit?: RateLimitChoice;
  /** Milliseconds added before every answer of the monitoring API (default 0). */
  readonly latencyMs?: number;
  /**
   * Honour a one-request `Prefer: code=…, latency=…` header from the clients the control API
   * answers (default true); false ignores it, for those who want strictness.
   */
  readonly honourPrefer?: boolean;
  /** Origins of pages allowed to call the fake (CORS); default: any page of LOCAL_ORIGINS (http://localhost:*, http://127.0.0.1:*, http://[::1]:*). */
  readonly corsOrigins?: readonly string[];
  /** Answer the control API from any address, not only loopback (default false). */
  readonly controlFromAnyAddress?: boolean;
  /**
   * Host names (or addresses) besides localhost and loopback addresses that the control API
   * accepts in the Host header, e.g. the name other machines or containers reach the fake by
   * (default none).
   */
  readonly controlHosts?: readonly string[];
  /**
   * Host names the monitoring API answers besides IP addresses, `localhost`, `*.localhost` and
   * `controlHosts` (default none): `.example.test` also allows its subdomains, `*` any Host
   * (which gives up the guard against DNS rebinding).
   */
  readonly allowedHosts?: readonly string[];
  /** Serve the docs pages at /docs and /docs/control (default true). */
  readonly docs?: boolean;
  /** Connection cap and client timeouts (default defaultConnectionLimits). */
  readonly connections?: Partial<ConnectionLimits>;
  /** The control API document (default: the kit's own). */
  readonly controlSpec?: Spec;
  /** How latency waits (default a timer); tests pass a recorder. */
  readonly sleep?: Sleep;
  /** How many of the last requests of the monitoring API the journal keeps (default: the control API document's `x-default-journal-size`; 0: none). */
  readonly journalSize?: number;
  /** The random source of share faults (default: seeded from `seed`). */
  readonly random?: () => number;
  /**
   * Answers of the monitoring API that are arrays of more items than this (a long page of the
   * event log or the block log) are written as a stream of chunks, the same bytes (default 1,000).
   */
  readonly streamPagesOver?: number;
}

/** What stays optional once resolved: absent means the seed's own default, any local page (CORS), or the control document's journal size. */
type LeftOptional = 'records' | 'recording' | 'anchor' | 'corsOrigins' | 'journalSize';

/** FakeOptions with every default filled in: the same fields, derived, not listed again. */
export type ResolvedFakeOptions = Readonly<
  Required<Omit<FakeOptions, LeftOptional | 'logger' | 'sessions' | 'connections'>> &
    Pick<FakeOptions, LeftOptional> & {
      readonly logger: false | FakeLoggerOptions;
      readonly sessions: Readonly<Required<NonNullable<FakeOptions['sessions']>>>;
      readonly connections: ConnectionLimits;
    }
>;

/** The defaults of the options that have a plain value. */
export const fakeDefaults = {
  users: defaultUsersFixture,
  tokenAuthEnabled: true,
  requireCsrf: false,
  sessions: {
    max: 10_000,
    // More than the browsers, devices and test workers one person runs at once; small enough
    // that a hundred users each at the bound still fit in the store, so one user logging in
    // over and over only ends its own oldest sessions, not everyone else's.
    maxPerUser: 100,
    idleSeconds: 1800,
  },
  handlers: {},
  seed: 42,
  rateLimit: 'lenient',
  latencyMs: 0,
  honourPrefer: true,
  controlFromAnyAddress: false,
  controlHosts: [],
  allowedHosts: [],
  docs: true,
  // About 640 KB of event log records, some tens of ms to write at once; the usual page is 50.
  streamPagesOver: 1_000,
} as const satisfies Partial<ResolvedFakeOptions>;

/** The fixture files of the event log when none are given: the kit's own, none beside a recording. */
export const defaultEventFixtures = (recording: string | undefined): readonly string[] => (recording === undefined ? [defaultEventFixturesPath] : []);

/** The options given, without those given as undefined (which take their default). */
const given = <T extends object>(options: T): Partial<T> =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;

export async function resolveFakeOptions(options: FakeOptions = {}): Promise<ResolvedFakeOptions> {
  const seed = options.seed ?? fakeDefaults.seed;
  return {
    ...fakeDefaults,
    users: (options.recording === undefined ? undefined : recordingUsersFile(options.recording)) ?? fakeDefaults.users,
    eventFixtures: defaultEventFixtures(options.recording),
    ...given(options),
    sessions: { ...fakeDefaults.sessions, ...given(options.sessions ?? {}) },
    connections: { ...defaultConnectionLimits, ...given(options.connections ?? {}) },
    ...(options.corsOrigins ? { corsOrigins: [...options.corsOrigins] } : {}),
    controlHosts: [...(options.controlHosts ?? fakeDefaults.controlHosts)],
    allowedHosts: [...(options.allowedHosts ?? fakeDefaults.allowedHosts)],
    logger: options.logger === true ? {} : (options.logger ?? false),
    spec: options.spec ?? (await loadSpec()),
    controlSpec: options.controlSpec ?? (await loadSpec(controlApiPath)),
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? ((ms) => wait(ms).then(() => undefined)),
    // A stream of its own, so share faults do not shift when the seed data changes.
    random: options.random ?? seededRandom(seed + 7),
  };
}
