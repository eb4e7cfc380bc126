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

/**
 * The journal keeps its records in columns, one array for each field, not one object for each
 * request: a record kept for a thousand requests outlives the young generation, and objects that
 * live that long cost the collector more than the request that made them (CPU profile of
 * `GET /users/current`). A list reads the matching slots back into records.
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
  let errorTexts: Column<string | undefined> = [];
  let bodies: Column<string | Buffer | undefined> = [];
  let bodyCuts: Column<JournalRecord['bodyCut']> = [];
  let next = 0;
  let size = 0;
  let lastId = 0;
  // The slots that still hold a body, oldest first (from `oldestBody` on), and their length.
  let withBody: number[] = [];
  let oldestBody = 0;
  let bodyChars = 0;
  const dropOldestBody = () => {
    const slot = withBody[oldestBody++]!;
    bodyChars -= bodies[slot]!.length;
    bodies[slot] = undefined;
    bodyCuts[slot] = 'dropped';
    if (oldestBody > 1024 && oldestBody * 2 > withBody.length) {
      withBody = withBody.slice(oldestBody);
      oldestBody = 0;
    }
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
    errorText: errorTexts[slot],
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
      const slot = next;
      // The record that leaves the ring is the oldest, so its body (if kept) is the oldest body.
      if (slot < size && bodies[slot] !== undefined) dropOldestBody();
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
      errorTexts[slot] = record.errorText;
      bodies[slot] = record.body;
      bodyCuts[slot] = record.bodyCut;
      if (record.body !== undefined) {
        withBody.push(slot);
        bodyChars += record.body.length;
        while (bodyChars > total) dropOldestBody();
      }
      next = next + 1 === capacity ? 0 : next + 1;
      if (size < capacity) size++;
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
      errorTexts = [];
      bodies = [];
      bodyCuts = [];
      next = 0;
      size = 0;
      withBody = [];
      oldestBody = 0;
      bodyChars = 0;
      return cleared;
    },
    get size() {
      return size;
    },
  };
}
