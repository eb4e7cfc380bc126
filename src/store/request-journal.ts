import type { JournalBodyLimits, JournalRecord, RequestJournal } from './request-journal-types.js';

export type { JournalBodyLimits, JournalFilter, JournalRecord, RequestJournal } from './request-journal-types.js';

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
