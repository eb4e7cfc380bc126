import type { EventLogRecord } from '../spec/types.js';
import type { EventLogIndex } from './event-log-index.js';
import { EventLogLists, type ListsCopy } from './event-log-lists.js';

// What the event log holds, apart from its store's checks and the making of its seed: the
// records in order and by _id, and the seed's records to go back to.

/** The records stored, in order and by _id, and those of the seed (kept for a reset). */
export class EventLogRecords {
  /** The records in order, all and per type. */
  readonly lists = new EventLogLists();
  // The index by _id is a base built by restore, never changed afterwards, plus the records
  // added or replaced since; so reset can go back to the seed's base without rebuilding it.
  #baseIds = new Map<string, EventLogRecord>();
  #changedIds = new Map<string, EventLogRecord>();
  #seed: { lists: ListsCopy; ids: Map<string, EventLogRecord> } = { lists: { all: [], byType: new Map() }, ids: new Map() };

  get(id: string): EventLogRecord | undefined {
    return this.#changedIds.get(id) ?? this.#baseIds.get(id);
  }

  /** Puts stored records, whose _ids are new, in their places. */
  add(stored: readonly EventLogRecord[]): void {
    this.lists.add(stored);
    for (const r of stored) this.#changedIds.set(r._id, r);
  }

  /** Puts `next` in the place of `current` (the same record, changed). */
  replace(current: EventLogRecord, next: EventLogRecord): void {
    this.lists.replace(current, next);
    this.#changedIds.set(next._id, next);
  }

  /** Replaces every record by an index's. */
  install(index: EventLogIndex): void {
    this.lists.all = index.all;
    this.#baseIds = index.byId;
    this.#changedIds = new Map();
    this.lists.byType = index.byType;
  }

  /** The records of the seed, in order. */
  get seedRecords(): readonly EventLogRecord[] {
    return this.#seed.lists.all;
  }

  /** Replaces every record by an index's, and makes them the seed's. */
  installSeed(index: EventLogIndex): void {
    this.install(index);
    this.#seed = { lists: this.lists.copy(), ids: this.#baseIds };
  }

  /** Back to the seed's records. */
  resetToSeed(): void {
    this.lists.restore(this.#seed.lists);
    this.#baseIds = this.#seed.ids;
    this.#changedIds = new Map();
  }
}
