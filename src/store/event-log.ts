import type { EventLogRecord, PayloadUpdate } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { unstorableReason } from '../shared/storable-record.js';
import { selectRecords, type EventLogQuery } from './event-log-query.js';
import { updatedRecord, type UpdatePayloadResult } from './payload-update.js';
import { compareByTime, insertInOrder, isInTimeOrder, replaceInOrder } from './record-order.js';

export type { UpdatePayloadResult } from './payload-update.js';

// Records the event log froze itself; they are shared between snapshots, the seed and queries.
const owned = new WeakSet<object>();

/** The stored form of a record: a frozen copy, or the record itself frozen in place when adopted. */
function own(record: EventLogRecord, adopt = false): EventLogRecord {
  if (owned.has(record)) return record;
  const problem = unstorableReason(record);
  if (problem) throw new Error(`Cannot store event log record ${JSON.stringify(record?._id)}: ${problem}.`);
  const stored = deepFreeze(adopt ? record : structuredClone(record));
  owned.add(stored);
  return stored;
}

/** Records in (timestamp, _id) order and by _id; throws on an unusable record or a repeated _id. */
function indexed(records: readonly EventLogRecord[], adopt: boolean): { all: EventLogRecord[]; ids: Map<string, EventLogRecord> } {
  const all = records.map((r) => own(r, adopt));
  const ids = new Map<string, EventLogRecord>();
  for (const r of all) {
    if (ids.has(r._id)) throw new Error(`Two event log records have the _id "${r._id}".`);
    ids.set(r._id, r);
  }
  if (!isInTimeOrder(all)) all.sort(compareByTime);
  return { all, ids };
}

/**
 * The event log: records held in (timestamp, _id) order and by _id. Records handed out are
 * deeply frozen and never change; an update replaces the record, so earlier results and
 * snapshots keep what they saw.
 */
export class EventLogStore {
  #all: EventLogRecord[] = [];
  // The index by _id is a base, never changed once built, plus the records added or replaced
  // since: a reset goes back to the seed's base without rebuilding it.
  #ids = new Map<string, EventLogRecord>();
  #changed = new Map<string, EventLogRecord>();
  #seed: { readonly all: readonly EventLogRecord[]; readonly ids: Map<string, EventLogRecord> } = { all: [], ids: new Map() };
  readonly #adopt: boolean;

  /**
   * Throws when a seed record is unusable or two share an _id. With `adopt`, the seed records
   * are frozen in place instead of copied (for freshly generated data nobody else holds).
   */
  constructor(seed: readonly EventLogRecord[] = [], options: { adopt?: boolean } = {}) {
    this.#adopt = options.adopt === true;
    this.#seed = indexed(seed, this.#adopt);
    this.reset();
  }

  get size(): number {
    return this.#all.length;
  }

  get(id: string): EventLogRecord | undefined {
    return this.#changed.get(id) ?? this.#ids.get(id);
  }

  /** The records a checked query selects, in order. */
  query(q: EventLogQuery = {}): EventLogRecord[] {
    return selectRecords(this.#all, q);
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
    const seen = new Set<string>();
    for (const r of records) {
      if (this.get(r?._id) !== undefined || seen.has(r?._id)) throw new Error(`An event log record with _id "${r._id}" already exists.`);
      seen.add(r._id);
    }
    const stored = records.map((r) => own(r));
    // Live records come with "now" timestamps (a push each); a large batch is merged by sorting.
    if (stored.length <= 16) for (const r of stored) insertInOrder(this.#all, r);
    else this.#all = this.#all.concat(stored).sort(compareByTime);
    for (const r of stored) this.#changed.set(r._id, r);
    return stored;
  }

  /** Changes the given payload fields of an SNMP trap record; nothing else changes, and a refusal changes nothing. */
  updatePayload(id: string, update: PayloadUpdate): UpdatePayloadResult {
    const current = this.get(id);
    const result = updatedRecord(current, update);
    if (!result.ok) return result;
    const next = own(result.record, true);
    replaceInOrder(this.#all, current as EventLogRecord, next);
    this.#changed.set(id, next);
    return { ok: true, record: next as typeof result.record };
  }

  /** The current records in order; cheap, since records are immutable and shared. */
  snapshot(): EventLogRecord[] {
    return this.#all.slice();
  }

  /** Replaces every record; throws (changing nothing) on an unusable record or a duplicate _id. */
  restore(records: readonly EventLogRecord[]): void {
    this.#install(indexed(records, false));
  }

  /**
   * Swaps records of the seed (e.g. fixtures whose file changed): the records with these _ids
   * leave the seed and the log, the new ones join both; every other record, seeded or added
   * since, stays. All or nothing: throws, changing nothing, when a new record is unusable or
   * its _id is taken.
   */
  swapSeedRecords(removed: ReadonlySet<string>, added: readonly EventLogRecord[]): void {
    const keep = (list: readonly EventLogRecord[]) => list.filter((r) => !removed.has(r._id));
    const seed = indexed([...keep(this.#seed.all), ...added], this.#adopt);
    const current = indexed([...keep(this.#all), ...added], false);
    this.#seed = seed;
    this.#install(current);
  }

  /** Back to the records the store was created with. */
  reset(): void {
    this.#install({ all: this.#seed.all.slice(), ids: this.#seed.ids });
  }

  #install(index: { all: EventLogRecord[]; ids: Map<string, EventLogRecord> }): void {
    this.#all = index.all;
    this.#ids = index.ids;
    this.#changed = new Map();
  }
}
