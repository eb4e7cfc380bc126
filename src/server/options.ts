import { systemClock, type Clock } from '../clock.js';
import { loadSpec, type Spec } from '../spec/index.js';
import { defaultEventFixturesPath } from '../seed/event-fixtures.js';
import type { RateLimitPreset, RateLimitRule } from '../store/rate-limit-rules.js';
import { defaultUsersFixture } from '../store/users-fixture.js';
import type { HandlerMap } from './handlers/types.js';

/** Where and how much the fake logs; secrets are masked either way. */
export interface FakeLoggerOptions {
  readonly level?: string;
  /** Where log lines go (default stdout). */
  readonly stream?: { write(line: string): void };
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
  readonly sessions?: { readonly max?: number; readonly idleSeconds?: number };
  /** false (default) for no logs, true for info to stdout, or a level and stream. */
  readonly logger?: boolean | FakeLoggerOptions;
  /** More handlers, added to (and overriding) the built-in ones, keyed by operationId. */
  readonly handlers?: HandlerMap;
  /** Seed of the generated records (default DEFAULT_SEED): the same seed gives the same data. */
  readonly seed?: number;
  /** How many event log records to generate (default 1,000). */
  readonly records?: number;
  /** Time of the newest generated record, ms (default a fixed instant, DEFAULT_END_TIME). */
  readonly endTime?: number;
  /** Event log fixture files merged into the seed (default: fixtures/events.json). */
  readonly eventFixtures?: readonly string[];
  /** Rate limits: a preset name or rules (default `lenient`). */
  readonly rateLimit?: RateLimitPreset | readonly RateLimitRule[];
}

/** FakeOptions with every default filled in. */
export interface ResolvedFakeOptions {
  readonly spec: Spec;
  readonly clock: Clock;
  readonly users: string;
  readonly tokenAuthEnabled: boolean;
  readonly requireCsrf: boolean;
  readonly sessions: { readonly max: number; readonly idleSeconds: number };
  readonly logger: false | FakeLoggerOptions;
  readonly handlers: HandlerMap;
  readonly seed?: number;
  readonly records?: number;
  readonly endTime?: number;
  readonly eventFixtures: readonly string[];
  readonly rateLimit: RateLimitPreset | readonly RateLimitRule[];
}

export const fakeDefaults = {
  tokenAuthEnabled: true,
  requireCsrf: false,
  sessions: { max: 10_000, idleSeconds: 1800 },
  rateLimit: 'lenient',
} as const;

export async function resolveFakeOptions(options: FakeOptions = {}): Promise<ResolvedFakeOptions> {
  return {
    spec: options.spec ?? (await loadSpec()),
    clock: options.clock ?? systemClock,
    users: options.users ?? defaultUsersFixture,
    tokenAuthEnabled: options.tokenAuthEnabled ?? fakeDefaults.tokenAuthEnabled,
    requireCsrf: options.requireCsrf ?? fakeDefaults.requireCsrf,
    sessions: {
      max: options.sessions?.max ?? fakeDefaults.sessions.max,
      idleSeconds: options.sessions?.idleSeconds ?? fakeDefaults.sessions.idleSeconds,
    },
    logger: options.logger === true ? {} : (options.logger ?? false),
    handlers: options.handlers ?? {},
    seed: options.seed,
    records: options.records,
    endTime: options.endTime,
    eventFixtures: options.eventFixtures ?? [defaultEventFixturesPath],
    rateLimit: options.rateLimit ?? fakeDefaults.rateLimit,
  };
}
