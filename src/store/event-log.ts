import type { EventLogRecord, PayloadUpdate } from '../spec/types.js';
import type { EventLogQuery } from './event-log-query.js';
import { checkStorable, indexAtOnce, own } from './event-log-index.js';
import { EventLogRecords } from './event-log-records.js';
import { SeedMaking, type SeedMaker, type SeedStatus } from './event-log-seed.js';
import { selectRecords, selectRecordsInSlices, type QueryLimits, type WorkLimits } from './event-log-select.js';
import { updatedRecord, type UpdatePayloadResult } from './payload-update.js';
import type { SliceBudget } from './sliced-run.js';

export { SEED_SLICE, SeedFailedError, type SeedMaker, type SeedStatus } from './event-log-seed.js';
export type { UpdatePayloadResult } from './payload-update.js';

/**
 * The event log: records held in (timestamp, _id) order, with per-type arrays in the same
 * order and an index by _id. Records handed out are deeply frozen and never change; an
 * update replaces the record, so earlier results and snapshots keep what they saw.
 */
export class EventLogStore {
  /** The records, in order and by _id, and the seed's, for a reset. */
  readonly #records = new EventLogRecords();
  /** The making of a seed given as a function (it stays, made or failed); none for a seed given as records. */
  #seedMaking: SeedMaking | undefined;
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
    if (typeof seed === 'function') this.#seedMaking = new SeedMaking(seed, this.#adopt, (index) => this.#records.installSeed(index));
    else this.#records.installSeed(indexAtOnce(seed, this.#adopt));
  }

  get status(): SeedStatus {
    return this.#seedMaking?.status ?? 'ready';
  }

  /** See SeedMaking.ready: nothing when the records are made, else a promise of their end (the making begun now). */
  ready(): Promise<void> | undefined {
    return this.#seedMaking?.ready();
  }

  /** `use`'s result once the records are made: at once when they are, else a promise of it (see SeedMaking.use). */
  whenMade<T>(use: () => T, failed?: (error: Error) => unknown): T | Promise<Awaited<T>> {
    const making = this.#seedMaking;
    return making === undefined ? use() : making.use(use, failed);
  }

  /** As `ready`, but the first turn too goes after the current callback (e.g. once a server listens). */
  makeInBackground(): Promise<void> | undefined {
    return this.#seedMaking?.makeInBackground();
  }

  /** Stops a making that is going on (e.g. the server closes): `reason` is then every use's error. */
  stopMaking(reason: Error): void {
    this.#seedMaking?.stop(reason);
  }

  /** Makes the seed at once if it is still to be made, for a caller that cannot wait; every public method starts here. */
  #ready(): void {
    this.#seedMaking?.finish();
  }

  get size(): number {
    this.#ready();
    return this.#records.lists.all.length;
  }

  get(id: string): EventLogRecord | undefined {
    this.#ready();
    return this.#records.get(id);
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
    return selectRecordsInSlices(this.#source(q), q, limits, clocks, (records) => this.#records.lists.walked(records));
  }

  #source(q: EventLogQuery): readonly EventLogRecord[] {
    this.#ready();
    return this.#records.lists.of(q.type);
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
    this.#records.add(stored);
    return stored;
  }

  /** Changes the given payload fields of an SNMP trap record; nothing else changes, and a refusal changes nothing. */
  updatePayload(id: string, update: PayloadUpdate): UpdatePayloadResult {
    const current = this.get(id);
    const result = updatedRecord(current, update);
    if (result.ok) this.#records.replace(current as EventLogRecord, result.record);
    return result;
  }

  /** The current records in order; cheap, since records are immutable and shared. */
  snapshot(): EventLogRecord[] {
    this.#ready();
    return this.#records.lists.all.slice();
  }

  /** Replaces every record; throws (changing nothing) on an unusable record or a duplicate _id. */
  restore(records: readonly EventLogRecord[]): void {
    this.#ready(); // the seed, for a later reset
    this.#records.install(indexAtOnce(records, false));
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
    const seed = [...keep(this.#records.seedRecords), ...added];
    const current = [...keep(this.#records.lists.all), ...added];
    for (const list of [seed, current]) checkStorable(list);
    this.#records.installSeed(indexAtOnce(seed, this.#adopt));
    this.#records.install(indexAtOnce(current, false));
  }

  /**
   * Back to the records the store was created with. While they are being made, the reset takes its
   * place among the calls waiting for them (see `whenMade`): the writes that came before it are
   * undone and those that come after it stay, whoever resets (the control API's reset waits its
   * turn the same way).
   */
  reset(): void {
    const status = this.status;
    if (status === 'making') return this.#seedMaking?.whenMade(() => this.#records.resetToSeed(), () => {});
    // Still the seed while it is not made (nothing can have changed it); a failed seed stays failed.
    if (status === 'ready') this.#records.resetToSeed();
  }
}
