import type { EventLogRecord, PayloadUpdate, SnmpTrapRecord } from '../spec/types.js';
import { unstorableReason } from '../shared/storable-record.js';
import type { EventLogQuery } from './event-log-query.js';
import { indexRecords, own, ownMade, type EventLogIndex } from './event-log-index.js';
import { selectRecords, selectRecordsInSlices, type QueryLimits, type WorkLimits } from './event-log-select.js';
import type { SliceBudget } from './sliced-run.js';
import { compareByTime, positionOf } from './record-order.js';
import { workInTurns, type WorkInTurns } from './work-in-turns.js';

export type UpdatePayloadResult =
  | { readonly ok: true; readonly record: SnmpTrapRecord }
  | { readonly ok: false; readonly reason: 'not-found' }
  | { readonly ok: false; readonly reason: 'not-snmp'; readonly type: EventLogRecord['type'] }
  | { readonly ok: false; readonly reason: 'invalid-update'; readonly field: string; readonly problem: string };

/** The payload fields an update may change: those of the document's PayloadUpdate. */
const UPDATABLE_FIELDS = ['text'] as const satisfies readonly (keyof PayloadUpdate)[];

/**
 * Records of the seed made and indexed per turn of the event loop: about 10 to 15 ms of work
 * (some 7 µs a record, generating and indexing), less than a query's slice. It is also the
 * threshold up to which a seed is made at once, in the call that first needs it: the default
 * 1,000 records take a few ms, too little to be worth turns, and the first answer stays synchronous.
 */
export const SEED_SLICE = 2_000;

/**
 * A seed made when first needed: all at once (an array), or a slice at a time (an iterator
 * whose each step makes about `sliceSize` more records, in order) so that it can be spread
 * over turns of the event loop. Called once.
 */
export type SeedMaker = (sliceSize: number) => readonly EventLogRecord[] | Iterator<readonly EventLogRecord[]>;

/** The seed could not be made: `reason` says why (what the making threw). */
export class SeedFailedError extends Error {
  override readonly name = 'SeedFailedError';
  constructor(readonly reason: string, options?: ErrorOptions) {
    super(`The event log's records could not be made (${reason}).`, options);
  }
}

/** Where the seed is: not made yet, being made in turns, made, or failed (for good: it is never half used). */
export type SeedStatus = 'pending' | 'making' | 'ready' | 'failed';

/** The seed's slices, the maker called on the first step (so that what it throws fails the making). */
function* slicesOf(seed: SeedMaker): Generator<readonly EventLogRecord[], void, undefined> {
  const made = seed(SEED_SLICE);
  if (Array.isArray(made)) yield made as readonly EventLogRecord[];
  else for (let step = (made as Iterator<readonly EventLogRecord[]>).next(); step.done !== true; step = (made as Iterator<readonly EventLogRecord[]>).next()) yield step.value;
}

/** The index of records given at once. */
function indexAtOnce(records: readonly EventLogRecord[], adopt: boolean): EventLogIndex {
  const work = indexRecords([records][Symbol.iterator](), adopt, Infinity);
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The event log: records held in (timestamp, _id) order, with per-type arrays in the same
 * order and an index by _id. Records handed out are deeply frozen and never change; an
 * update replaces the record, so earlier results and snapshots keep what they saw.
 */
export class EventLogStore {
  #all: EventLogRecord[] = [];
  #byType = new Map<EventLogRecord['type'], EventLogRecord[]>();
  // The index by _id is a base built by restore, never changed afterwards, plus the records
  // added or replaced since; so reset can go back to the seed's base without rebuilding it.
  #baseIds = new Map<string, EventLogRecord>();
  #changedIds = new Map<string, EventLogRecord>();
  // Arrays that a query computing in slices is walking: changed only as copies (copy on write),
  // so that the query sees the records as they were when it started.
  readonly #walked = new WeakSet<readonly EventLogRecord[]>();
  #seed: { all: readonly EventLogRecord[]; byType: ReadonlyMap<EventLogRecord['type'], readonly EventLogRecord[]>; ids: Map<string, EventLogRecord> } = {
    all: [],
    byType: new Map(),
    ids: new Map(),
  };
  /** The seed while it is not made yet: the function that makes it. */
  #pending: SeedMaker | undefined;
  /** The seed while it is being made, and the promise of its end. */
  #making: { readonly work: WorkInTurns; readonly done: Promise<void>; readonly fail: (error: Error) => void } | undefined;
  /** Why the seed could not be made: every use of the log throws it from then on. */
  #failure: { readonly error: Error; readonly done: Promise<never> } | undefined;
  readonly #adopt: boolean;

  /**
   * Throws when a seed record is unusable or two share an _id. With `adopt`, the seed records
   * are frozen in place instead of copied (for freshly generated data nobody else holds).
   * A function as the seed is called when the records are first needed, not before: a server
   * answers at once and makes them later, in turns of the event loop (see `ready`). Its
   * records must then be known to be usable, as generated ones are.
   */
  constructor(seed: readonly EventLogRecord[] | SeedMaker = [], options: { adopt?: boolean } = {}) {
    this.#adopt = options.adopt === true;
    if (typeof seed === 'function') this.#pending = seed;
    else this.#load(indexAtOnce(seed, this.#adopt));
  }

  #load(index: EventLogIndex): void {
    this.#install(index);
    this.#seed = { all: this.#all.slice(), byType: new Map([...this.#byType].map(([t, list]) => [t, list.slice()])), ids: this.#baseIds };
  }

  get status(): SeedStatus {
    if (this.#failure) return 'failed';
    if (this.#making) return 'making';
    return this.#pending === undefined ? 'ready' : 'pending';
  }

  /**
   * Nothing when the records are made; else a promise of their end, the making begun if it was
   * not (its first turn now: a seed of up to SEED_SLICE records is then made). Meanwhile other
   * callbacks run between turns; callers waiting on the promise resume in the order they came.
   * It rejects, and so does every later call, when the making failed or was stopped.
   */
  ready(): Promise<void> | undefined {
    this.#begin()?.go(true);
    return this.#failure?.done ?? this.#making?.done;
  }

  /** As `ready`, but the first turn too goes after the current callback (e.g. once a server listens). */
  makeInBackground(): Promise<void> | undefined {
    this.#begin()?.go(false);
    return this.#failure?.done ?? this.#making?.done;
  }

  /** Stops a making that is going on (e.g. the server closes): `reason` is then every use's error. */
  stopMaking(reason: Error): void {
    const making = this.#making;
    if (making === undefined) return;
    making.work.stop();
    making.fail(reason);
  }

  /** The making going on, begun from the pending seed if there is one. */
  #begin(): WorkInTurns | undefined {
    const seed = this.#pending;
    if (seed !== undefined) {
      this.#pending = undefined;
      let resolve = () => {};
      let reject: (error: Error) => void = () => {};
      const done = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
      done.catch(() => {}); // failing unawaited is no unhandled rejection: it is kept in #failure
      const fail = (error: Error) => {
        this.#making = undefined;
        this.#failure = { error, done: done as Promise<never> };
        reject(error);
      };
      const end = (index: EventLogIndex) => {
        this.#making = undefined;
        this.#load(index);
        resolve();
      };
      const failed = (cause: unknown) => fail(new SeedFailedError(cause instanceof Error ? cause.message : String(cause), { cause }));
      this.#making = { work: workInTurns(indexRecords(slicesOf(seed), this.#adopt, SEED_SLICE), SEED_SLICE, end, failed), done, fail };
    }
    return this.#making?.work;
  }

  /** Makes the seed at once if it is still to be made, for a caller that cannot wait; every public method starts here. */
  #ready(): void {
    this.#begin()?.finish();
    if (this.#failure) throw this.#failure.error;
  }

  get size(): number {
    this.#ready();
    return this.#all.length;
  }

  get(id: string): EventLogRecord | undefined {
    this.#ready();
    return this.#changedIds.get(id) ?? this.#baseIds.get(id);
  }

  /**
   * The records a query selects, in order, at once. With
   * `limits`, throws FilterTooCostlyError (an INVALID_FILTER answer) when the filter would test
   * more records than `maxWork` allows for its cost.
   */
  query(q: EventLogQuery = {}, limits?: WorkLimits): EventLogRecord[] {
    return selectRecords(this.#source(q), q, limits);
  }

  /**
   * The same records within the document's limits, computed in slices so that a long query
   * never holds up other work: the records when they take one slice, else a promise of them.
   * Throws (or rejects with) FilterTooCostlyError past `maxWork` or the computing budget.
   * `clocks.now` is a monotonic clock in ms (performance.now), `clocks.cpuNow` the process's
   * computing time in ms (default: `now`).
   */
  queryInSlices(q: EventLogQuery, limits: QueryLimits, clocks: Pick<SliceBudget, 'now' | 'cpuNow'>): EventLogRecord[] | Promise<EventLogRecord[]> {
    return selectRecordsInSlices(this.#source(q), q, limits, clocks, (records) => this.#walked.add(records));
  }

  #source(q: EventLogQuery): readonly EventLogRecord[] {
    this.#ready();
    return q.type === undefined ? this.#all : (this.#byType.get(q.type) ?? []);
  }

  /** Adds a record (a copy is stored); throws on a duplicate _id or an unusable record. */
  add(record: EventLogRecord): EventLogRecord {
    return this.addAll([record])[0] as EventLogRecord;
  }

  /**
   * Adds records all or none: throws, storing nothing, when one is unusable or its _id is
   * already stored or repeated. Returns the stored copies in the order given.
   */
  addAll(records: readonly EventLogRecord[]): EventLogRecord[] {
    this.#ready();
    const seen = new Set<string>();
    for (const r of records) {
      if (this.get(r?._id) !== undefined || seen.has(r?._id)) throw new Error(`An event log record with _id "${r._id}" already exists.`);
      seen.add(r._id);
    }
    const stored = records.map((r) => own(r));
    if (stored.length <= 16) {
      for (const r of stored) {
        this.#insert(this.#ownAll(), r);
        this.#insert(this.#typeArray(r.type), r);
      }
    } else {
      // Many at once: merge by sorting, which is nearly linear on two sorted runs.
      this.#all = this.#all.concat([...stored].sort(compareByTime)).sort(compareByTime);
      for (const type of new Set(stored.map((r) => r.type))) {
        this.#byType.set(type, this.#typeArray(type).concat(stored.filter((r) => r.type === type).sort(compareByTime)).sort(compareByTime));
      }
    }
    for (const r of stored) this.#changedIds.set(r._id, r);
    return stored;
  }

  /** Changes the given payload fields of an SNMP trap record; nothing else changes, and a refusal changes nothing. */
  updatePayload(id: string, update: PayloadUpdate): UpdatePayloadResult {
    const current = this.get(id);
    if (!current) return { ok: false, reason: 'not-found' };
    if (current.type !== 'snmp-trap') return { ok: false, reason: 'not-snmp', type: current.type };
    const changes: Partial<PayloadUpdate> = {};
    for (const field of UPDATABLE_FIELDS) {
      if (update?.[field] === undefined) continue;
      if (typeof update[field] !== 'string') return { ok: false, reason: 'invalid-update', field, problem: 'must be a string' };
      changes[field] = update[field];
    }
    const next = ownMade({ ...current, payload: { ...current.payload, ...changes } });
    this.#replace(this.#ownAll(), current, next);
    this.#replace(this.#typeArray(next.type), current, next);
    this.#changedIds.set(id, next);
    return { ok: true, record: next };
  }

  /** The current records in order; cheap, since records are immutable and shared. */
  snapshot(): EventLogRecord[] {
    this.#ready();
    return this.#all.slice();
  }

  /** Replaces every record; throws (changing nothing) on an unusable record or a duplicate _id. */
  restore(records: readonly EventLogRecord[]): void {
    this.#ready(); // the seed, for a later reset
    this.#restore(records, false);
  }

  /**
   * Swaps records of the seed (e.g. fixtures whose file changed): the records with these _ids
   * leave the seed and the log, the new ones join both; every other record, seeded or added
   * since, stays. All or nothing: throws, changing nothing, when a new record is unusable or
   * its _id is taken.
   */
  swapSeedRecords(removed: ReadonlySet<string>, added: readonly EventLogRecord[]): void {
    this.#ready();
    const keep = (list: readonly EventLogRecord[]) => list.filter((r) => !removed.has(r._id));
    const seed = [...keep(this.#seed.all), ...added];
    const current = [...keep(this.#all), ...added];
    for (const list of [seed, current]) {
      const ids = new Set<string>();
      for (const r of list) {
        const problem = unstorableReason(r);
        if (problem) throw new Error(`Cannot store event log record ${JSON.stringify(r?._id)}: ${problem}.`);
        if (ids.has(r._id)) throw new Error(`Two event log records have the _id "${r._id}".`);
        ids.add(r._id);
      }
    }
    this.#load(indexAtOnce(seed, this.#adopt));
    this.#restore(current, false);
  }

  /** Back to the records the store was created with. */
  reset(): void {
    // Still the seed while it is not made (nothing can have changed it); a failed seed stays failed.
    if (this.#pending !== undefined || this.#making !== undefined || this.#failure !== undefined) return;
    this.#all = this.#seed.all.slice();
    this.#byType = new Map([...this.#seed.byType].map(([t, list]) => [t, list.slice()]));
    this.#baseIds = this.#seed.ids;
    this.#changedIds = new Map();
  }

  #restore(records: readonly EventLogRecord[], adopt: boolean): void {
    this.#install(indexAtOnce(records, adopt));
  }

  #install(index: EventLogIndex): void {
    this.#all = index.all;
    this.#baseIds = index.byId;
    this.#changedIds = new Map();
    this.#byType = index.byType;
  }

  /** The array of one type, to change in place. */
  #typeArray(type: EventLogRecord['type']): EventLogRecord[] {
    let list = this.#byType.get(type);
    if (!list || this.#walked.has(list)) this.#byType.set(type, (list = list?.slice() ?? []));
    return list;
  }

  /** The array of all records, to change in place. */
  #ownAll(): EventLogRecord[] {
    if (this.#walked.has(this.#all)) this.#all = this.#all.slice();
    return this.#all;
  }

  #insert(list: EventLogRecord[], record: EventLogRecord): void {
    // Live records arrive with "now" timestamps, so this is nearly always a push.
    const last = list[list.length - 1];
    if (!last || compareByTime(last, record) < 0) list.push(record);
    else list.splice(positionOf(list, record), 0, record);
  }

  #replace(list: EventLogRecord[], current: EventLogRecord, next: EventLogRecord): void {
    const i = positionOf(list, current);
    if (list[i] !== current) throw new Error(`The event log index lost record "${current._id}".`);
    list[i] = next;
  }
}
