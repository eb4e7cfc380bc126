// The bounds the documents state, each written in one place of them: checks and the fake read
// them from here. A document that lacks one fails when it is read, naming what is missing.
import type { Document } from './load.js';
import { listOperations } from './operations.js';

/** getEventLog's `filter` (`x-filter-limits`): longest text, deepest nesting, most keys plus items, most `$regex`es, longest pattern; each refused with 400 INVALID_FILTER. */
const FILTER_KEYS = { maxLength: 'maxLength', maxDepth: 'maxDepth', maxNodes: 'maxNodes', maxRegexes: 'maxRegexes', maxRegexLength: 'maxRegexLength' } as const;
/** The SNMP listener's and MQTT broker's bounds (getIngestCounts' `x-ingest-limits`): connections, idle seconds, packet bytes. */
const INGEST_KEYS = { mqttConnections: 'mqtt-connections', mqttIdleSeconds: 'mqtt-idle-seconds', mqttPacketBytes: 'mqtt-packet-bytes', snmpPacketBytes: 'snmp-packet-bytes' } as const;

export type FilterLimits = Readonly<Record<keyof typeof FILTER_KEYS, number>>;
export type IngestLimits = Readonly<Record<keyof typeof INGEST_KEYS, number>>;
/**
 * The request journal's bounds (listRequests' `x-default-journal-size`, `x-max-journal-size`,
 * `x-journal-max-length`): requests kept by default and at most, the head kept of each body
 * (`RequestRecord.responseText`'s `maxLength`, so what the journal shows fits its schema), and the characters kept in all.
 */
export type JournalLimits = Readonly<Record<'defaultSize' | 'maxSize' | 'perBody' | 'total', number>>;

const operation = (document: Document, operationId: string): Record<string, unknown> | undefined =>
  listOperations(document).find((op) => op.operationId === operationId)?.raw as Record<string, unknown> | undefined;

/** The integers `stated` gives under `keys` (each at least `min`), by name. */
function integers<K extends string>(stated: unknown, keys: Readonly<Record<K, string>>, min: number, where: string): Record<K, number> {
  const entries = Object.entries<string>(keys).map(([name, key]) => {
    const value = (stated as Record<string, unknown> | undefined)?.[key];
    if (!Number.isSafeInteger(value) || (value as number) < min) throw new Error(`The document gives ${where} no ${key} (an integer of ${min} or more).`);
    return [name, value];
  });
  return Object.fromEntries(entries) as Record<K, number>;
}

/** getEventLog's filter limits, or undefined when the document has none (a document the kit did not write). */
export function filterLimits(document: Document): FilterLimits | undefined {
  const parameters = (operation(document, 'getEventLog')?.parameters ?? []) as Record<string, unknown>[];
  const stated = parameters.find((p) => p.name === 'filter')?.['x-filter-limits'];
  return stated === undefined ? undefined : Object.freeze(integers(stated, FILTER_KEYS, 1, "the filter parameter's x-filter-limits"));
}

export function journalLimits(document: Document): JournalLimits {
  const keys = { maxSize: 'x-max-journal-size', defaultSize: 'x-default-journal-size' };
  const { maxSize, defaultSize } = integers(operation(document, 'listRequests'), keys, 0, 'listRequests');
  if (defaultSize > maxSize) throw new Error(`The control API document's x-default-journal-size (${defaultSize}) is over its x-max-journal-size (${maxSize}).`);
  const { total } = integers(operation(document, 'listRequests'), { total: 'x-journal-max-length' }, 1, 'listRequests');
  const responseText = (document.components?.schemas?.RequestRecord as { properties?: { responseText?: unknown } } | undefined)?.properties?.responseText;
  const { perBody } = integers(responseText, { perBody: 'maxLength' }, 1, 'RequestRecord.responseText');
  return { defaultSize, maxSize, perBody, total };
}

/** The largest request body (`x-body-limit-bytes` on the document's PayloadTooLarge answer); a larger one gets that 413. */
export function bodyLimitBytes(document: Document): number {
  return integers(document.components?.responses?.PayloadTooLarge, { bytes: 'x-body-limit-bytes' }, 1, 'the PayloadTooLarge response').bytes;
}

/** The largest latency the control document allows (`Config.latencyMs`' maximum): also the most a `Prefer: latency=` may ask for. */
export function maxLatencyMs(document: Document): number {
  const latencyMs = (document.components?.schemas?.Config as { properties?: { latencyMs?: unknown } } | undefined)?.properties?.latencyMs;
  return integers(latencyMs, { max: 'maximum' }, 0, 'Config.latencyMs').max;
}

export function ingestLimits(document: Document): IngestLimits {
  return integers(operation(document, 'getIngestCounts')?.['x-ingest-limits'], INGEST_KEYS, 1, "getIngestCounts' x-ingest-limits");
}
