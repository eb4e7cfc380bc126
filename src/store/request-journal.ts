import type { controlOperations, RequestAuth, RequestRecord } from '../spec/control-types.js';
import type { JournalLimits } from '../spec/limits.js';

/**
 * One answered request as the journal keeps it, with the fields the control API's RequestRecord
 * shows; secrets unmasked: they are masked when it is read (most never are).
 */
export type JournalRecord = Readonly<Pick<RequestRecord, 'id' | 'time' | 'method' | 'operationId' | 'origin' | 'status' | 'durationMs'>> & {
  /** The URL as the request sent it. */
  readonly rawUrl: string;
  readonly authMethod: RequestAuth['method'] | undefined;
  readonly userId: string | undefined;
  readonly login: string | undefined;
  /** The answer's body as it was sent (no copy), or a copy of its head; undefined once the journal drops it for space. */
  readonly body: string | Buffer | undefined;
  /** `head`: only the head of the body was kept; `dropped`: the journal dropped the body for space. */
  readonly bodyCut: 'head' | 'dropped' | undefined;
};

/** How much text the journal keeps: each body's head up to `perBody`, and `total` across the journal (the control API document's). */
export type JournalBodyLimits = Pick<JournalLimits, 'perBody' | 'total'>;

/** listRequests' query: each filter left out matches every record; `status` is `404` or a class (`4xx`). */
export type JournalFilter = NonNullable<controlOperations['listRequests']['parameters']['query']>;

/** The last `capacity` answered requests, in a ring: adding to a full journal drops the oldest. */
export type RequestJournal = ReturnType<typeof createRequestJournal>;

type Kept = { -readonly [K in keyof JournalRecord]: JournalRecord[K] };

function statusMatcher(status: string | undefined): (value: number) => boolean {
  if (status === undefined) return () => true;
  if (/^[1-5]xx$/i.test(status)) return (value) => Math.floor(value / 100) === Number(status[0]);
  return (value) => value === Number(status);
}

const charsOf = (r: JournalRecord): number => r.rawUrl.length + (r.origin?.length ?? 0) + (r.body?.length ?? 0);

/**
 * Every text the journal keeps (URLs, origins, bodies) counts against one budget, `total`: past
 * it the oldest bodies are dropped first, then the oldest records, so its memory stays bounded
 * whatever the requests hold.
 */
export function createRequestJournal(capacity: number, bodyLimits: JournalBodyLimits) {
  if (!Number.isInteger(capacity) || capacity < 0) throw new Error(`The journal's capacity must be an integer of 0 or more, not ${capacity}.`);
  // Integers of 1 or more: journalLimits reads them so from the control API document.
  const { perBody, total } = bodyLimits;
  let ring: (Kept | undefined)[] = [];
  let start = 0;
  let size = 0;
  let lastId = 0;
  let chars = 0;
  // The oldest `bare` records hold no body: bodies are dropped oldest first, so the scan for the next one starts here.
  let bare = 0;
  const at = (offset: number) => ring[(start + offset) % capacity]!;
  const dropOldest = () => {
    chars -= charsOf(at(0));
    ring[start] = undefined;
    start = (start + 1) % capacity;
    size--;
    bare = Math.max(0, bare - 1);
  };
  const dropOldestBody = (): boolean => {
    while (bare < size && at(bare).body === undefined) bare++;
    if (bare === size) return false;
    const record = at(bare);
    chars -= record.body!.length;
    record.body = undefined;
    record.bodyCut = 'dropped';
    return true;
  };

  return {
    capacity,
    /** How much text it keeps: the keeper cuts each body to `perBody`, the journal holds `total` in all. */
    bodyLimits: { perBody, total } as JournalBodyLimits,
    /** The id the next record gets. */
    nextId: () => lastId + 1,
    /** Keeps the record itself (no copy): its body may be dropped later for space. */
    add(record: JournalRecord): void {
      if (capacity === 0) return;
      lastId = record.id;
      if (size === capacity) dropOldest();
      ring[(start + size) % capacity] = record as Kept;
      size++;
      chars += charsOf(record);
      while (chars > total && size > 1) if (!dropOldestBody()) dropOldest();
    },
    /** Matching records, newest first. */
    list(filter: JournalFilter = {}): JournalRecord[] {
      const statusOk = statusMatcher(filter.status);
      const limit = filter.limit === undefined ? Infinity : Number(filter.limit);
      const found: JournalRecord[] = [];
      for (let i = size - 1; i >= 0 && found.length < limit; i--) {
        const record = at(i);
        if (filter.since !== undefined && record.time < Number(filter.since)) continue;
        if (filter.operationId !== undefined && record.operationId !== filter.operationId) continue;
        if (statusOk(record.status)) found.push(record);
      }
      return found;
    },
    /** Empties the journal; returns how many records it held. */
    clear(): number {
      const cleared = size;
      ring = [];
      start = size = chars = bare = 0;
      return cleared;
    },
    get size() {
      return size;
    },
  };
}
