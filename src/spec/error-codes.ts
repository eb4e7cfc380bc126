import type { Document } from './load.js';

export interface ErrorCodeEntry {
  readonly code: string;
  readonly status: number;
  readonly description: string;
  /** The messages of the code's cases, by name (`x-messages`), with `{placeholders}`. */
  readonly messages: Readonly<Record<string, string>>;
}

/** The document's named list of errors (`components.schemas.ErrorCode`, each with its `x-status`), keyed by code. */
export function errorCatalog(document: Document): ReadonlyMap<string, ErrorCodeEntry> {
  const schema = document.components?.schemas?.ErrorCode as { oneOf?: Record<string, unknown>[] } | undefined;
  if (!schema?.oneOf) throw new Error('The document has no ErrorCode list (components.schemas.ErrorCode.oneOf).');
  const catalog = new Map<string, ErrorCodeEntry>();
  for (const entry of schema.oneOf) {
    const code = entry.const;
    const status = entry['x-status'];
    if (typeof code !== 'string' || typeof status !== 'number') {
      throw new Error('Every ErrorCode entry needs a string `const` and a numeric `x-status`.');
    }
    catalog.set(code, { code, status, description: String(entry.description ?? ''), messages: messagesOf(entry, `ErrorCode ${code}`) });
  }
  return catalog;
}

/** The `x-messages` of a part of the document (none: empty), checked to map names to strings. */
export function messagesOf(part: Record<string, unknown>, where: string): Readonly<Record<string, string>> {
  const messages = part['x-messages'] ?? {};
  if (typeof messages !== 'object' || messages === null || Object.values(messages).some((m) => typeof m !== 'string')) {
    throw new Error(`${where}: \`x-messages\` must map names to message strings.`);
  }
  return messages as Record<string, string>;
}

/** A message's `{placeholders}` filled in from `values`; one without a value stays as written. */
export function fillMessage(template: string, values?: Readonly<Record<string, string>>): string {
  // Most refusals fill in nothing: a flood of them then skips the scan.
  return values ? template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole) : template;
}

/** The most problems an Error body lists (`details`' `maxItems` of the document's `Error`). */
export function errorDetailsMax(document: Document): number {
  const error = document.components?.schemas?.Error as { properties?: { details?: { maxItems?: unknown } } } | undefined;
  const max = error?.properties?.details?.maxItems;
  if (typeof max !== 'number') throw new Error('The document\'s Error has no `maxItems` on `details`.');
  return max;
}
