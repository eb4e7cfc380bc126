import { systemClock, type Clock } from '../shared/clock.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import type { Fault, FaultSpec, RateLimitRule, RateLimitSettings, TargetOperationId } from '../spec/control-types.js';
import type { BlockedRequest, EventLogRecord, FixtureUser } from '../spec/types.js';
import { createSessionStore, createTokenStore, createUserStore, type SessionStore, type TokenStore, type UserStore } from './accounts.js';
import { EventLogStore } from './event-log.js';
import { BlockLogStore, createRateLimiter, type RateLimitDecision, type RateLimitedRequest, type RateLimiter } from './rate-limiter.js';

export interface StateOptions {
  readonly clock: Clock;
  /** The seeded users (validated fixture). */
  readonly users: readonly FixtureUser[];
  readonly sessions: { readonly max: number; readonly maxPerUser: number; readonly idleSeconds: number };
  /** The first records of the event log and block log (see src/seed), and the rate limits. */
  readonly data?: DataStateOptions;
}

/** Everything the fake holds in memory, and the way back to the seed. */
export interface FakeState {
  readonly users: UserStore;
  readonly tokens: TokenStore;
  readonly sessions: SessionStore;
  /** The event log, the block log and the rate limiter that feeds it. */
  readonly data: DataState;
  /** Back to the seed: no sessions (unless kept), only the fixture's tokens, seeded records, no blocks. */
  reset(options?: { readonly keepSessions?: boolean }): void;
  /**
   * Puts new fixtures in place (their files changed): the users, and the fixture records of
   * the event log (`removed` the _ids of the old ones). Sessions and tokens of users still
   * there stay, those of users gone end; a new user's fixture token is given. Every other
   * record stays. All or nothing: throws, changing nothing, on a record that cannot be stored.
   */
  reloadFixtures(users: readonly FixtureUser[], records: { readonly removed: ReadonlySet<string>; readonly added: readonly EventLogRecord[] }): void;
}

export function createState(options: StateOptions): FakeState {
  const users = createUserStore(options.users);
  const tokens = createTokenStore();
  const sessions = createSessionStore({ clock: options.clock, ...options.sessions });
  const data = createDataState({ ...options.data, clock: options.clock });
  let seedUsers = options.users;
  const reset = ({ keepSessions = false } = {}) => {
    data.reset();
    if (!keepSessions) sessions.clear();
    tokens.clear();
    for (const user of seedUsers) {
      if (user.authenticationToken !== undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  reset();
  const reloadFixtures: FakeState['reloadFixtures'] = (next, records) => {
    data.events.swapSeedRecords(records.removed, records.added);
    const before = new Set(seedUsers.map((u) => u.id));
    const stays = new Set(next.map((u) => u.id));
    for (const user of users.list()) {
      if (stays.has(user.id)) continue;
      sessions.clear(user.id);
      if (tokens.tokenOf(user.id) !== undefined) tokens.revoke(user.id);
    }
    users.replace(next);
    seedUsers = next;
    for (const user of next) {
      if (!before.has(user.id) && user.authenticationToken !== undefined && tokens.tokenOf(user.id) === undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  return { users, tokens, sessions, data, reset, reloadFixtures };
}

export interface DataStateOptions {
  /**
   * The event log records to start from and to go back to on reset (e.g. src/seed's
   * seedRecords). They are adopted: frozen in place, not copied.
   */
  readonly events?: readonly EventLogRecord[];
  /** The block log records to start from and to go back to on reset. */
  readonly blocks?: readonly BlockedRequest[];
  readonly clock?: Clock;
  /** The rate-limit rules in force at start and after a reset (valid ones); default none. */
  readonly rateLimit?: RateLimitSettings | readonly RateLimitRule[];
  readonly maxTrackedKeys?: number;
  /** Most blocked-request records kept; default 100,000. */
  readonly maxBlockRecords?: number;
}

/** The data of the fake: the event log, the block log and the limiter that feeds it. No HTTP. */
export interface DataState {
  readonly events: EventLogStore;
  readonly blocks: BlockLogStore;
  readonly limiter: RateLimiter;
  /** Counts a request against the limits; the blocks it activates are added to the block log. */
  admit(request: RateLimitedRequest): RateLimitDecision;
  /**
   * Back to the start: events and block log as given, no active blocks, empty windows,
   * and the start-up rate-limit rules unless `keepRateLimitRules`.
   */
  reset(options?: { keepRateLimitRules?: boolean }): void;
}

/** Builds the stores from their first records, and the limiter; throws on a bad record or option. */
export function createDataState(options: DataStateOptions = {}): DataState {
  const clock = options.clock ?? systemClock;
  const events = new EventLogStore(options.events, { adopt: true });
  const blocks = new BlockLogStore(options.blocks, { maxRecords: options.maxBlockRecords });
  const limiter = createRateLimiter({ rules: options.rateLimit, clock, maxTrackedKeys: options.maxTrackedKeys });
  return {
    events,
    blocks,
    limiter,
    admit(request) {
      const decision = limiter.hit(request);
      if (!decision.allowed) for (const block of decision.newBlocks) blocks.add(block);
      return decision;
    },
    reset(resetOptions = {}) {
      events.reset();
      blocks.reset();
      limiter.reset({ keepRules: resetOptions.keepRateLimitRules === true });
    },
  };
}

/** Injected faults: operations of the API that answer an error instead of doing their work. */
export interface FaultStore {
  /** Adds a validated fault; `status` and `message` come from its `body`, else fall back to the given defaults. */
  inject(spec: FaultSpec): Fault;
  /** The faults in force, oldest first (copies). */
  list(): Fault[];
  /** Removes every fault, or those of one operation; returns how many. */
  clear(operationId?: TargetOperationId): number;
  delete(id: string): boolean;
  /**
   * The fault that answers this call of the operation, if any, counted as used: the oldest
   * counted fault of the operation, or the oldest share fault whose draw hits, whichever
   * comes first. A counted fault is removed after its last answer.
   */
  take(operationId: string): Fault | undefined;
  /** Replaces every fault (restoring a snapshot). */
  restore(faults: readonly Fault[]): void;
  readonly size: number;
  /** The most faults in force at once; `inject` is not called beyond it (the caller refuses). */
  readonly capacity: number;
}

export interface FaultStoreOptions {
  readonly clock: Clock;
  /** Uniform in [0, 1); the fake's seeded source, so share faults repeat with the seed. */
  readonly random: () => number;
  readonly defaults: { readonly status: number; readonly message: string };
  readonly generateId?: (timestampMs: number) => string;
  /** The most faults in force at once (default: no limit). */
  readonly capacity?: number;
}

export function createFaultStore(options: FaultStoreOptions): FaultStore {
  const { clock, random, defaults } = options;
  const nextId = options.generateId ?? createObjectIdGenerator();
  let faults: Fault[] = [];
  const copy = (fault: Fault): Fault => structuredClone(fault);

  return {
    inject(spec) {
      const fault: Fault = {
        id: nextId(clock.now()),
        operationId: spec.operationId,
        action: spec.action ?? 'error',
        ...(spec.delayMs === undefined ? {} : { delayMs: structuredClone(spec.delayMs) }),
        ...(spec.body === undefined ? {} : { body: structuredClone(spec.body) }),
        status: spec.status ?? spec.body?.status ?? defaults.status,
        message: spec.body?.message ?? spec.message ?? defaults.message,
        ...(spec.count !== undefined ? { remaining: spec.count } : { probability: spec.probability ?? 1 }),
        hits: 0,
        createdAt: clock.now(),
      };
      faults.push(fault);
      return copy(fault);
    },
    list: () => faults.map(copy),
    clear(operationId) {
      const before = faults.length;
      faults = operationId === undefined ? [] : faults.filter((f) => f.operationId !== operationId);
      return before - faults.length;
    },
    delete(id) {
      const before = faults.length;
      faults = faults.filter((f) => f.id !== id);
      return faults.length < before;
    },
    take(operationId) {
      for (const fault of faults) {
        if (fault.operationId !== operationId) continue;
        if (fault.remaining === undefined && !(random() < (fault.probability ?? 0))) continue;
        fault.hits++;
        const answered = copy(fault);
        if (fault.remaining !== undefined && --fault.remaining <= 0) faults = faults.filter((f) => f !== fault);
        return answered;
      }
      return undefined;
    },
    restore(list) {
      faults = list.map(copy);
    },
    get size() {
      return faults.length;
    },
    capacity: options.capacity ?? Infinity,
  };
}
