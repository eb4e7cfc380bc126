// Time anchoring: the data's timeline shifted as a whole so that its newest instant (event log
// and block log together) falls on the anchor. Offsets between records stay, and so do ids:
// a week of data ending last Monday ends now, and is still the same week of data.

/** An anchor as the options take it: `now` (the fake's clock at start), an ISO date-time, ms since 1970, or a Date. */
export type AnchorInput = number | string | Date;

/** The anchor in ms since 1970; `now` is read from the clock. Throws a RangeError on anything else. */
export function anchorTime(anchor: AnchorInput, now: () => number): number {
  if (anchor instanceof Date) anchor = anchor.getTime();
  const text = typeof anchor === 'string' ? anchor.trim() : '';
  const ms =
    typeof anchor === 'number' ? anchor
    : text.toLowerCase() === 'now' ? now()
    : /^\d+$/.test(text) ? Number(text)
    : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text)
    : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('expected "now", an ISO date-time (e.g. 2025-09-01T00:00:00Z) or milliseconds since 1970');
  return ms;
}

/** The oldest and newest integer timestamps among records (undefined when none has one). */
export function timeSpan(records: Iterable<{ readonly timestamp?: unknown }>): { first: number; last: number } | undefined {
  let span: { first: number; last: number } | undefined;
  for (const { timestamp: t } of records) {
    if (typeof t === 'number' && Number.isSafeInteger(t)) span = span ? { first: Math.min(span.first, t), last: Math.max(span.last, t) } : { first: t, last: t };
  }
  return span;
}

/** The records with their timestamps moved by `shift` ms (copies). */
export function shiftTimestamps<T extends { readonly timestamp?: number }>(records: readonly T[], shift: number): readonly T[] {
  if (shift === 0) return records;
  return records.map((r) => (Number.isSafeInteger(r.timestamp) ? { ...r, timestamp: (r.timestamp as number) + shift } : r));
}
