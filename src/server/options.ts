import { setTimeout as wait } from 'node:timers/promises';
import { systemClock, type Clock } from '../shared/clock.js';
import { seededRandom } from '../shared/seeded-random.js';
import { defaultEventFixturesPath, defaultUsersFixture } from '../seed/fixtures.js';
import { controlApiPath, createSpecValidator, filterLimits, loadSpec, monitoringApiPath, rateLimitPresets, type FilterLimits, type Spec } from '../spec/index.js';
import type { AnchorInput } from '../seed/anchor.js';
import { recordingUsersFile } from '../seed/recording.js';
import type { components } from '../spec/control-api-types.js';
import type { ConfigUpdate, ControlConfig, RateLimitPreset, RateLimitRule, RateLimitSettings, RateLimitUpdate } from '../spec/control-types.js';
import type { ErrorDetail } from '../spec/types.js';
import type { HandlerMap } from './handlers.js';
import type { LogFormat } from './logger.js';

// What the fake is told: its options at start, what it takes from the documents, and the
// configuration the control API changes while it runs.

/** Where and how much the fake logs; secrets are masked either way. */
export interface FakeLoggerOptions {
  readonly level?: string;
  /** Where log lines go (default stdout). */
  readonly stream?: { write(line: string): void };
  /** `json` (default): one JSON object a line; `pretty`: one line a person reads (method, path, status, ms, user). */
  readonly format?: LogFormat;
}

/** The defaults of the options that have a plain value; FakeOptions takes these options' types from them. */
export const fakeDefaults = {
  /** Path of the users fixture (default fixtures/users.json). */
  users: defaultUsersFixture as string,
  /** Mirrors the server parameter `server.user.auth_token_enabled` (default true). */
  tokenAuthEnabled: true,
  /** Require `x-csrf-token` matching the session on writes made with a session cookie (default false). */
  requireCsrf: false,
  sessions: {
    max: 10_000,
    // More than the browsers, devices and test workers one person runs at once; small enough
    // that a hundred users each at the bound still fit in the store, so one user logging in
    // over and over only ends its own oldest sessions, not everyone else's.
    maxPerUser: 100,
    idleSeconds: 1800,
  },
  /** More handlers, added to (and overriding) the built-in ones, keyed by operationId. */
  handlers: {} as HandlerMap,
  /** The seed of everything random the fake makes (default 42): the same seed gives the same data. */
  seed: 42,
  /** Rate limits: a preset of the control API document, `off`, or rules (default `lenient`). */
  rateLimit: 'lenient' as RateLimitChoice,
  /** Milliseconds added before every answer of the monitoring API (default 0). */
  latencyMs: 0,
  /** Honour a one-request `Prefer: code=…, latency=…` header from the clients the control API answers (default true). */
  honourPrefer: true,
  /** Answer the control API from any address, not only loopback (default false). */
  controlFromAnyAddress: false,
  /** Host names besides localhost and loopback addresses that the control API accepts in the Host header (default none). */
  controlHosts: [] as readonly string[],
  /** More host names the monitoring API answers (default none): `.example.test` with its subdomains, `*` any Host (no guard against DNS rebinding). */
  allowedHosts: [] as readonly string[],
  /** Serve the docs pages at /docs and /docs/control (default true). */
  docs: true,
  /**
   * Answers of the monitoring API that are arrays of more items than this are written as a stream of chunks (default 1,000):
   * about 640 KB of event log records, some tens of ms to write at once; the usual page is 50.
   */
  streamPagesOver: 1_000,
};
type Defaults = typeof fakeDefaults;

/** Options of `buildFake`; every one has a default. */
export interface FakeOptions extends Readonly<Partial<Omit<Defaults, 'sessions'>>> {
  /** The loaded document (default: the kit's own, `loadSpec()`). */
  readonly spec?: Spec;
  readonly clock?: Clock;
  readonly sessions?: Readonly<Partial<Defaults['sessions']>>;
  /** false (default) for no logs, true for info to stdout, or a level and stream. */
  readonly logger?: boolean | FakeLoggerOptions;
  /** How many event log records to generate (default 1,000). */
  readonly records?: number;
  /** A recording's folder (`record --out`): its logs and users are the data, with no generated or fixture records unless asked for. */
  readonly recording?: string;
  /** Shift the data's timeline so that its newest instant is this one: `now`, an ISO date-time, ms or a Date (default: the data's own). */
  readonly anchor?: AnchorInput;
  /** Event log fixture files merged into the seed (default: fixtures/events.json, none beside a recording). */
  readonly eventFixtures?: readonly string[];
  /** Origins of pages allowed to call the fake (CORS); default: any page of LOCAL_ORIGINS (http://localhost:*, http://127.0.0.1:*, http://[::1]:*). */
  readonly corsOrigins?: readonly string[];
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
}

/** What stays optional once resolved: absent means the seed's own default, any local page (CORS), or the control document's journal size. */
type LeftOptional = 'records' | 'recording' | 'anchor' | 'corsOrigins' | 'journalSize';

/** FakeOptions with every default filled in: the same fields, derived, not listed again. */
export type ResolvedFakeOptions = Readonly<
  Defaults &
    Required<Omit<FakeOptions, keyof Defaults | LeftOptional | 'logger' | 'connections'>> &
    Pick<FakeOptions, LeftOptional> & { readonly logger: false | FakeLoggerOptions; readonly connections: ConnectionLimits }
>;

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
    logger: options.logger === true ? {} : (options.logger ?? false),
    spec: options.spec ?? (await loadSpec()),
    controlSpec: options.controlSpec ?? (await loadSpec(controlApiPath)),
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? ((ms) => wait(ms).then(() => undefined)),
    // A stream of its own, so share faults do not shift when the seed data changes.
    random: options.random ?? seededRandom(seed + 7),
  };
}

/**
 * How long a client may take and how many connections may be open, as settings of Fastify and
 * Node's HTTP server: they shed slow clients in seconds and keep the file descriptors bounded.
 */
export const defaultConnectionLimits = {
  // Most open connections, more closed at once: far below the usual file limits (4,096 at the
  // least), far above what tests, browsers and load tools open at once.
  maxConnections: 4000,
  // Until a request's headers are complete: clients send them in one go; 10 s still sheds a flood in seconds.
  headersTimeoutMs: 10_000,
  // Until a whole request has arrived: the largest body (a 16 MiB snapshot) takes well under a second on loopback.
  requestTimeoutMs: 30_000,
  // An idle keep-alive connection: Node's own default, which clients' pools expect (Fastify's 72 s suits load balancers).
  keepAliveTimeoutMs: 5_000,
  // A connection on which nothing moves (a client that stops reading, an injected `hang`):
  // longer than the largest added latency (60 s, the control document's maximum `latencyMs`).
  idleTimeoutMs: 120_000,
  // How often Node looks for requests over their time (its default, 30 s, would let them linger that much longer).
  checkIntervalMs: 1_000,
};
export type ConnectionLimits = Readonly<Record<keyof typeof defaultConnectionLimits, number>>;

/** The Fastify options that apply the limits; `maxConnections` is set on the server once it exists. */
export function connectionOptions(limits: ConnectionLimits) {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
      // A request without Host is answered by the fake (the document's Error body), not by Node with an empty 400.
      requireHostHeader: false,
    },
  };
}

/**
 * The listen backlog: new connections the kernel queues until the fake accepts them; past it a
 * client waits for its SYN's retry (1 s, then 3 s). Linux lowers it to net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 65_535;

/** A rate-limit setting as options and flags give it: a preset of the control API document, `off`, or rules. */
export type RateLimitChoice = RateLimitPreset | 'off' | readonly RateLimitRule[];

/** The settings of a RateLimitUpdate the control API document has validated (a control call's, a --rate-limit file's). */
export function settingsOfUpdate(update: RateLimitUpdate, controlSpec: Spec): RateLimitSettings {
  if ('preset' in update) return { preset: update.preset, rules: rateLimitPresets(controlSpec)[update.preset].map((r) => ({ ...r })) };
  return { preset: 'custom', rules: update.rules.map((r) => ({ ...r })) };
}

/** The settings a choice of the options stands for (`off` is no rules), checked by the control API document. */
export function settingsOf(choice: RateLimitChoice, controlSpec: Spec): RateLimitSettings {
  if (choice === 'off') return { preset: 'custom', rules: [] };
  if (typeof choice === 'string') {
    const presets = rateLimitPresets(controlSpec);
    if (!Object.hasOwn(presets, choice)) throw new Error(`Invalid rate limit preset "${choice}": use ${[...Object.keys(presets), 'off'].join(', ')} or rules`);
    return settingsOfUpdate({ preset: choice }, controlSpec);
  }
  const problems = createSpecValidator(controlSpec).validateNamed('RateLimitRules', choice);
  if (problems.length > 0) throw new Error(`Invalid rate limit rules: ${problems.map((p) => p.message).join('; ')}`);
  return settingsOfUpdate({ rules: [...choice] }, controlSpec);
}

/** The fault defaults of the control API document (FaultSpec), and how many faults may be in force at once. */
export function faultDefaults(controlSpec: Spec): { status: number; message: string; capacity: number } {
  type Properties = Record<string, { default?: unknown; maxItems?: unknown }>;
  const schemas = controlSpec.document.components?.schemas;
  const properties = (schemas?.FaultSpec as { properties?: Properties })?.properties;
  const status = properties?.status?.default;
  const message = properties?.message?.default;
  if (typeof status !== 'number' || typeof message !== 'string') throw new Error('The control API document gives FaultSpec no defaults.');
  // The most faults in force at once: as many as a snapshot may hold.
  const capacity = (schemas?.Snapshot as { properties?: Properties })?.properties?.faults?.maxItems;
  return { status, message, capacity: typeof capacity === 'number' ? capacity : Infinity };
}

/** The kit's own document at `path`, for what a document given in its place lacks; none when it is the kit's. */
export const kitFallback = async (spec: Spec, path: string) => (spec.schemasChecked ? undefined : (await loadSpec(path)).document);

/** The document's filter limits; a document that states none gets the kit's own. */
export async function filterLimitsOf(spec: Spec): Promise<FilterLimits> {
  const limits = filterLimits(spec.document) ?? filterLimits((await loadSpec(monitoringApiPath)).document);
  if (!limits) throw new Error("The kit's document gives the event log filter no x-filter-limits.");
  return limits;
}

/** Milliseconds: fixed, or `[min, max]` drawn for each answer (the control document's `Latency`). */
export type Latency = components['schemas']['Latency'];

/** A `[min, max]` whose min is above its max, as a detail of a refused body (the schema cannot say it). */
export function rangeProblem(latency: Latency | undefined, name: string): ErrorDetail[] {
  return Array.isArray(latency) && (latency[0] ?? 0) > (latency[1] ?? 0) ? [{ location: 'body', name, problem: 'must be [min, max] with min not above max' }] : [];
}

/** Waits `ms`; injected in tests so nothing sleeps. */
export type Sleep = (ms: number) => Promise<void>;

/**
 * The configuration of the fake that can change while it runs (the control API's `Config`):
 * the guard, the latency hook and the rate limiter read `current` on every request, so a change
 * takes effect for the next one.
 */
export type RuntimeConfig = ReturnType<typeof createRuntimeConfig>;

/** A copy, with every field the control API shows (a snapshot of an older fake may lack some). */
const copy = (config: ControlConfig): ControlConfig => structuredClone({ ...config, operationLatencyMs: config.operationLatencyMs ?? {} });

/** `controlSpec` gives the rules of the presets an update may name; `onRateLimitChange` is told of new rules. */
export function createRuntimeConfig(startUp: ControlConfig, controlSpec: Spec, onRateLimitChange: (settings: ControlConfig['rateLimit']) => void) {
  const set = (next: ControlConfig) => {
    const rulesChanged = JSON.stringify(next.rateLimit) !== JSON.stringify(config.current.rateLimit);
    config.current = copy(next);
    if (rulesChanged) onRateLimitChange(copy(next).rateLimit);
  };
  const config = {
    /** The configuration in force: read, never changed, by its readers. */
    current: copy(startUp),
    get: (): ControlConfig => copy(config.current),
    /** Applies a validated update; returns the configuration now in force. */
    update(update: ConfigUpdate): ControlConfig {
      const { rateLimit, ...rest } = update;
      const next: ControlConfig = { ...config.current, ...rest };
      if (rateLimit) next.rateLimit = settingsOfUpdate(rateLimit, controlSpec);
      set(next);
      return copy(config.current);
    },
    /** Replaces the whole configuration (restoring a snapshot). */
    replace: (next: ControlConfig): void => set(next),
    /** Back to the start-up configuration. */
    reset: (): void => set(startUp),
  };
  return config;
}
