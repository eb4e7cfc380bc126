// What the fake's event log needs of a record to hold and serve it, whatever else is wrong with
// it: the store refuses a record without these, and `record --keep-invalid` keeps only records with them.

const TYPES = new Set<unknown>(['snmp-trap', 'mqtt-message']);

/** Why the event log cannot hold a record, or undefined when it can. */
export function unstorableReason(record: unknown): string | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'it is not an object';
  const r = record as { _id?: unknown; timestamp?: unknown; type?: unknown };
  if (typeof r._id !== 'string' || r._id.length === 0) return '_id must be a non-empty string';
  if (!Number.isSafeInteger(r.timestamp) || (r.timestamp as number) < 0) return 'timestamp must be a non-negative integer (ms)';
  if (!TYPES.has(r.type)) return 'type must be snmp-trap or mqtt-message';
  return undefined;
}
