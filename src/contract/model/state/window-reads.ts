// A page of the window read back, judged against the model: each record as the window was read
// before the sequence, with the text the sequence's updates wrote, and nothing else changed.
import type { Row } from '../../plans/plan.js';
import type { Citation, Exchange } from '../../types.js';
import type { Finding } from './state-checks.js';
import type { StateModel, Window } from './state-model.js';

/** JSON with sorted keys: two records are the same whatever order the server wrote their fields in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value as Row).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Row)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const textOf = (record: Row | undefined): unknown => (record?.payload as Row | undefined)?.text;

function withoutText(record: Row): string {
  const payload = { ...(record.payload as Row | undefined) };
  delete payload.text;
  return canonical({ ...record, payload });
}

const quoted = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : String(value));

/**
 * The finding of a page (undefined: it holds), or null when the page says nothing of the model:
 * not a list, or no update was made yet.
 */
export function comparePage(m: StateModel, window: Window, exchange: Exchange, citation: Citation): Omit<Finding, 'check' | 'operationId'> | undefined | null {
  const list = exchange.response?.json;
  if (m.patched === undefined || !Array.isArray(list) || (exchange.response?.status ?? 0) >= 300) return null;
  const before = new Map(window.records.map((r) => [String(r._id), r]));
  for (const record of list as Row[]) {
    const id = String(record._id);
    const original = before.get(id);
    if (!original || m.spoiled.has(id)) continue;
    const fact = m.texts.get(id);
    const text = textOf(record);
    if (fact?.text !== undefined && text !== fact.text) {
      return { message: `record ${id} shows the text ${quoted(text)}, not the one the update at step ${fact.step} wrote`, expected: `payload.text = ${quoted(fact.text)}`, citation };
    }
    if (!fact && text !== textOf(original)) {
      return { message: `record ${id}, which no update named, shows the text ${quoted(text)} instead of ${quoted(textOf(original))} (the first update was step ${m.patched})`, expected: 'records no update named unchanged', citation };
    }
    if (withoutText(record) !== withoutText(original)) {
      return { message: `fields of record ${id} other than payload.text changed (the first update was step ${m.patched})`, expected: 'only payload.text changed, and only on the record updated', citation };
    }
  }
  return undefined;
}
