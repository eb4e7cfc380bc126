import type { Document } from './load.js';

/**
 * The bounds of the request journal, as the control API document states them (the one place
 * they are written): on listRequests, `x-default-journal-size`, `x-max-journal-size` and
 * `x-journal-max-length`; the head kept of a long body is `RequestRecord.responseText`'s
 * `maxLength`, so that what the journal shows always fits its schema.
 */
export interface JournalLimits {
  /** How many requests the journal keeps unless told otherwise. */
  readonly defaultSize: number;
  /** The most requests it may be told to keep. */
  readonly maxSize: number;
  /** The head of each body it keeps, in characters (a Buffer's bytes). */
  readonly perBody: number;
  /** The most characters of URLs, origins and bodies it keeps in all, the oldest bodies dropped first, then the oldest records. */
  readonly total: number;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The journal's bounds in the control API document; throws, naming what is missing, when it lacks one. */
export function journalLimits(document: Document): JournalLimits {
  const operation = Object.values(document.paths ?? {})
    .flatMap((item) => Object.values(item ?? {}))
    .find((op) => (op as { operationId?: unknown } | null)?.operationId === 'listRequests') as Record<string, unknown> | undefined;
  const stated = (key: string, positive: boolean): number => {
    const value = operation?.[key];
    if (!isCount(value) || (positive && value === 0)) throw new Error(`The control API document gives listRequests no ${key} (an integer of ${positive ? 1 : 0} or more).`);
    return value;
  };
  const maxSize = stated('x-max-journal-size', false);
  const defaultSize = stated('x-default-journal-size', false);
  if (defaultSize > maxSize) throw new Error(`The control API document's x-default-journal-size (${defaultSize}) is over its x-max-journal-size (${maxSize}).`);
  const total = stated('x-journal-max-length', true);
  type Properties = Record<string, { maxLength?: unknown }>;
  const perBody = (document.components?.schemas?.RequestRecord as { properties?: Properties } | undefined)?.properties?.responseText?.maxLength;
  if (!isCount(perBody) || perBody === 0) throw new Error('The control API document gives RequestRecord.responseText no maxLength (an integer of 1 or more).');
  return { defaultSize, maxSize, perBody, total };
}
