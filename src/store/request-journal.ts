/**
 * One answered request as the journal keeps it: references to what the request and its answer
 * already hold. Secrets are masked when the entry is read, never here (most entries are never
 * read).
 */
export interface JournalRecord {
  /** Increases by one for each request kept, from 1; never reused, also across clears. */
  readonly id: number;
  /** When the answer was sent, ms on the fake's clock. */
  readonly time: number;
  readonly method: string;
  /** The URL as the request sent it (unmasked: mask when reading). */
  readonly rawUrl: string;
  readonly operationId: string | undefined;
  readonly authMethod: string | undefined;
  readonly userId: string | undefined;
  readonly login: string | undefined;
  readonly origin: string | undefined;
  readonly status: number;
  readonly durationMs: number;
  /**
   * The answer's body as it was sent (no copy), or a copy of its head when it is longer than
   * `perBody`; undefined for an answer without one, and once the journal drops it for space.
   */
  readonly body: string | Buffer | undefined;
  /** `head`: only the head of the body was kept; `dropped`: the journal dropped the body for space. */
  readonly bodyCut: 'head' | 'dropped' | undefined;
}

/**
 * How much text the journal keeps, in characters (a Buffer's bytes): the head of each answer's
 * body up to `perBody`, and at most `total` of URLs, origins and bodies across the journal, the
 * oldest bodies dropped first, then the oldest records. The server passes them in from the
 * control API document.
 */
export interface JournalBodyLimits {
  readonly perBody: number;
  readonly total: number;
}

/** Which records to read; each filter left out matches every record. */
export interface JournalFilter {
  readonly operationId?: string;
  /** An exact status (`404`) or a class (`4xx`). */
  readonly status?: string;
  /** Only records of this time or later (ms). */
  readonly since?: number;
  /** At most this many, the newest. */
  readonly limit?: number;
}

/** The last `capacity` answered requests, in a ring: adding to a full journal drops the oldest. */
export interface RequestJournal {
  readonly capacity: number;
  /** How much text it keeps: the keeper cuts each body to `perBody`, the journal holds `total` in all. */
  readonly bodyLimits: JournalBodyLimits;
  /** The id the next record gets. */
  nextId(): number;
  add(record: JournalRecord): void;
  /** Matching records, newest first. */
  list(filter?: JournalFilter): JournalRecord[];
  /** Empties the journal; returns how many records it held. */
  clear(): number;
  readonly size: number;
}

function statusMatcher(status: string | undefined): (value: number) => boolean {
  if (status === undefined) return () => true;
  if (/^[1-5]xx$/i.test(status)) {
    const hundreds = Number(status[0]);
    return (value) => Math.floor(value / 100) === hundreds;
  }
  const exact = Number(status);
  return (value) => value === exact;
}

/** One column of the ring: a field of every record, by slot. */
type Column<T> = T[];

/** The characters a record keeps apart from its body: its URL and Origin. */
const headChars = (rawUrl: string, origin: string | undefined): number => rawUrl.length + (origin?.length ?? 0);

/**
 * The journal keeps its records in columns, one array for each field, not one object for each
 * request: a record kept for a thousand requests outlives the young generation, and objects that
 * live that long cost the collector more than the request that made them (CPU profile of
 * `GET /users/current`). A list reads the matching slots back into records.
 *
 * Every text it keeps (URLs, origins, bodies) counts against one budget, `total`: past it the
 * oldest bodies are dropped first, then the oldest records, so its memory stays bounded whatever
 * the requests hold.
 */
export function createRequestJournal(capacity: number, bodyLimits: JournalBodyLimits): RequestJournal {
  if (!Number.isInteger(capacity) || capacity < 0) throw new Error(`The journal's capacity must be an integer of 0 or more, not ${capacity}.`);
  const { perBody, total } = bodyLimits;
  if (!Number.isInteger(perBody) || perBody < 1 || !Number.isInteger(total) || total < 1) {
    throw new Error(`The journal's body limits must be integers of 1 or more, not ${perBody} and ${total}.`);
  }
  const limits: JournalBodyLimits = { perBody, total };
  // Grow to `capacity`, then each new record takes the slot of the oldest.
  let ids: Column<number> = [];
  let times: Column<number> = [];
  let methods: Column<string> = [];
  let rawUrls: Column<string> = [];
  let operationIds: Column<string | undefined> = [];
  let authMethods: Column<string | undefined> = [];
  let userIds: Column<string | undefined> = [];
  let logins: Column<string | undefined> = [];
  let origins: Column<string | undefined> = [];
  let statuses: Column<number> = [];
  let durations: Column<number> = [];
  let bodies: Column<string | Buffer | undefined> = [];
  let bodyCuts: Column<JournalRecord['bodyCut']> = [];
  let next = 0;
  let size = 0;
  let lastId = 0;
  // The slots that still hold a body, oldest first (from `oldestBody` on).
  let withBody: number[] = [];
  let oldestBody = 0;
  // Characters of every text kept: URLs, origins and bodies.
  let chars = 0;
  const dropOldestBody = () => {
    const slot = withBody[oldestBody++]!;
    chars -= bodies[slot]!.length;
    bodies[slot] = undefined;
    bodyCuts[slot] = 'dropped';
    if (oldestBody > 1024 && oldestBody * 2 > withBody.length) {
      withBody = withBody.slice(oldestBody);
      oldestBody = 0;
    }
  };
  /** Forgets the oldest record (its body, if kept, is the oldest body). */
  const dropOldest = () => {
    const slot = (next - size + capacity) % capacity;
    if (bodies[slot] !== undefined) dropOldestBody();
    chars -= headChars(rawUrls[slot]!, origins[slot]);
    rawUrls[slot] = '';
    origins[slot] = undefined;
    bodyCuts[slot] = undefined;
    size--;
  };
  const recordAt = (slot: number): JournalRecord => ({
    id: ids[slot]!,
    time: times[slot]!,
    method: methods[slot]!,
    rawUrl: rawUrls[slot]!,
    operationId: operationIds[slot],
    authMethod: authMethods[slot],
    userId: userIds[slot],
    login: logins[slot],
    origin: origins[slot],
    status: statuses[slot]!,
    durationMs: durations[slot]!,
    body: bodies[slot],
    bodyCut: bodyCuts[slot],
  });

  return {
    capacity,
    bodyLimits: limits,
    nextId: () => lastId + 1,
    add(record) {
      if (capacity === 0) return;
      lastId = record.id;
      if (size === capacity) dropOldest();
      const slot = next;
      ids[slot] = record.id;
      times[slot] = record.time;
      methods[slot] = record.method;
      rawUrls[slot] = record.rawUrl;
      operationIds[slot] = record.operationId;
      authMethods[slot] = record.authMethod;
      userIds[slot] = record.userId;
      logins[slot] = record.login;
      origins[slot] = record.origin;
      statuses[slot] = record.status;
      durations[slot] = record.durationMs;
      bodies[slot] = record.body;
      bodyCuts[slot] = record.bodyCut;
      chars += headChars(record.rawUrl, record.origin);
      if (record.body !== undefined) {
        withBody.push(slot);
        chars += record.body.length;
      }
      next = next + 1 === capacity ? 0 : next + 1;
      size++;
      while (chars > total && size > 1) {
        if (oldestBody < withBody.length) dropOldestBody();
        else dropOldest();
      }
    },
    list(filter = {}) {
      const statusOk = statusMatcher(filter.status);
      const limit = filter.limit ?? Infinity;
      const found: JournalRecord[] = [];
      for (let i = 1; i <= size && found.length < limit; i++) {
        const slot = (next - i + capacity) % capacity;
        if (filter.since !== undefined && times[slot]! < filter.since) continue;
        if (filter.operationId !== undefined && operationIds[slot] !== filter.operationId) continue;
        if (!statusOk(statuses[slot]!)) continue;
        found.push(recordAt(slot));
      }
      return found;
    },
    clear() {
      const cleared = size;
      ids = [];
      times = [];
      methods = [];
      rawUrls = [];
      operationIds = [];
      authMethods = [];
      userIds = [];
      logins = [];
      origins = [];
      statuses = [];
      durations = [];
      bodies = [];
      bodyCuts = [];
      next = 0;
      size = 0;
      withBody = [];
      oldestBody = 0;
      chars = 0;
      return cleared;
    },
    get size() {
      return size;
    },
  };
}
