import type { Clock } from '../shared/clock.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import type { Fault, FaultSpec, RateLimitRule, RateLimitSettings, TargetOperationId } from '../spec/control-types.js';
import type { BlockedRequest, EventLogRecord, FixtureUser } from '../spec/types.js';
import { createSessionStore, createTokenStore, createUserStore } from './accounts.js';
import { EventLogStore } from './event-log.js';
import { BlockLogStore, createRateLimiter, type RateLimitDecision, type RateLimitedRequest } from './rate-limiter.js';

export interface StateOptions {
  readonly clock: Clock;
  /** The seeded users (validated fixture). */
  readonly users: readonly FixtureUser[];
  readonly sessions: { readonly max: number; readonly maxPerUser: number; readonly idleSeconds: number };
  /**
   * The records the event log (adopted: frozen in place, not copied) and the block log start
   * from and go back to on reset (see src/seed), and the (valid) rate-limit rules in force at
   * start and after a reset; default none.
   */
  readonly data?: { readonly events?: readonly EventLogRecord[]; readonly blocks?: readonly BlockedRequest[]; readonly rateLimit?: RateLimitSettings | readonly RateLimitRule[] };
}

/** Everything the fake holds in memory, and the way back to the seed. */
export type FakeState = ReturnType<typeof createState>;

/** Builds the stores from their first records, and the limiter; throws on a bad record or option. */
export function createState(options: StateOptions) {
  const { clock, data: seed = {} } = options;
  const users = createUserStore(options.users);
  const tokens = createTokenStore();
  const sessions = createSessionStore({ clock, ...options.sessions });
  const events = new EventLogStore(seed.events, { adopt: true });
  const blocks = new BlockLogStore(seed.blocks);
  const limiter = createRateLimiter({ rules: seed.rateLimit, clock });
  /** The data of the fake, no HTTP: the event log, the block log and the limiter that feeds it. */
  const data = {
    events,
    blocks,
    limiter,
    /** Counts a request against the limits; the blocks it activates are added to the block log. */
    admit(request: RateLimitedRequest): RateLimitDecision {
      const decision = limiter.hit(request);
      if (!decision.allowed) for (const block of decision.newBlocks) blocks.add(block);
      return decision;
    },
  };
  let seedUsers = options.users;
  /** Back to the seed: no sessions (unless kept), only the fixture's tokens, seeded records, no blocks, the start-up rate limits. */
  const reset = ({ keepSessions = false }: { readonly keepSessions?: boolean } = {}) => {
    events.reset();
    blocks.reset();
    limiter.reset();
    if (!keepSessions) sessions.clear();
    tokens.clear();
    for (const user of seedUsers) {
      if (user.authenticationToken !== undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  reset();
  /**
   * Puts new fixtures in place (their files changed): the users, and the fixture records of
   * the event log (`removed` the _ids of the old ones). Sessions and tokens of users gone end; a
   * new user's fixture token is given. All or nothing: throws, changing nothing, on a bad record.
   */
  const reloadFixtures = (next: readonly FixtureUser[], records: { readonly removed: ReadonlySet<string>; readonly added: readonly EventLogRecord[] }): void => {
    events.swapSeedRecords(records.removed, records.added);
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

/** Injected faults: operations of the API that answer an error instead of doing their work. */
export type FaultStore = ReturnType<typeof createFaultStore>;

export interface FaultStoreOptions {
  readonly clock: Clock;
  /** Uniform in [0, 1); the fake's seeded source, so share faults repeat with the seed. */
  readonly random: () => number;
  readonly defaults: { readonly status: number; readonly message: string };
  readonly generateId?: (timestampMs: number) => string;
  /** The most faults in force at once (default: no limit). */
  readonly capacity?: number;
}

export function createFaultStore(options: FaultStoreOptions) {
  const { clock, random, defaults } = options;
  const nextId = options.generateId ?? createObjectIdGenerator();
  let faults: Fault[] = [];
  const copy = (fault: Fault): Fault => structuredClone(fault);
  /** Removes the faults `gone` picks; returns how many. */
  const remove = (gone: (fault: Fault) => boolean): number => {
    const before = faults.length;
    faults = faults.filter((f) => !gone(f));
    return before - faults.length;
  };

  return {
    /** Adds a validated fault; `status` and `message` come from its `body`, else the defaults. */
    inject(spec: FaultSpec): Fault {
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
    /** The faults in force, oldest first (copies). */
    list: (): Fault[] => faults.map(copy),
    /** Removes every fault, or those of one operation; returns how many. */
    clear: (operationId?: TargetOperationId): number => remove((f) => operationId === undefined || f.operationId === operationId),
    delete: (id: string): boolean => remove((f) => f.id === id) > 0,
    /**
     * The fault that answers this call, counted as used: the oldest counted fault of the
     * operation, or the oldest share fault whose draw hits. A counted fault goes after its last answer.
     */
    take(operationId: string): Fault | undefined {
      for (const fault of faults) {
        if (fault.operationId !== operationId) continue;
        if (fault.remaining === undefined && !(random() < (fault.probability ?? 0))) continue;
        fault.hits++;
        const answered = copy(fault);
        if (fault.remaining !== undefined && --fault.remaining <= 0) remove((f) => f === fault);
        return answered;
      }
      return undefined;
    },
    restore(list: readonly Fault[]): void {
      faults = list.map(copy);
    },
    get size(): number {
      return faults.length;
    },
    /** The most faults in force at once; `inject` is not called beyond it (the caller refuses). */
    capacity: options.capacity ?? Infinity,
  };
}
