import type { EventLogRecord, PayloadUpdate, SnmpTrapRecord } from '../spec/types.js';

// What an update of an SNMP trap's payload may change, apart from the store that applies it.

export type UpdatePayloadResult =
  | { readonly ok: true; readonly record: SnmpTrapRecord }
  | { readonly ok: false; readonly reason: 'not-found' }
  | { readonly ok: false; readonly reason: 'not-snmp'; readonly type: EventLogRecord['type'] }
  | { readonly ok: false; readonly reason: 'invalid-update'; readonly field: string; readonly problem: string };

/** The payload fields an update may change: those of the document's PayloadUpdate. */
const UPDATABLE_FIELDS = ['text'] as const satisfies readonly (keyof PayloadUpdate)[];

/** The fields an update changes, or why it cannot be made (a field of the wrong type). */
export function payloadChanges(update: PayloadUpdate): { readonly ok: true; readonly changes: Partial<PayloadUpdate> } | Extract<UpdatePayloadResult, { reason: 'invalid-update' }> {
  const changes: Partial<PayloadUpdate> = {};
  for (const field of UPDATABLE_FIELDS) {
    if (update?.[field] === undefined) continue;
    if (typeof update[field] !== 'string') return { ok: false, reason: 'invalid-update', field, problem: 'must be a string' };
    changes[field] = update[field];
  }
  return { ok: true, changes };
}

/** The record with an update of its payload made (a new record, for the store to freeze: nothing else changes), or why it is refused. */
export function updatedRecord(current: EventLogRecord | undefined, update: PayloadUpdate): UpdatePayloadResult {
  if (!current) return { ok: false, reason: 'not-found' };
  if (current.type !== 'snmp-trap') return { ok: false, reason: 'not-snmp', type: current.type };
  const checked = payloadChanges(update);
  if (!checked.ok) return checked;
  return { ok: true, record: { ...current, payload: { ...current.payload, ...checked.changes } } };
}
