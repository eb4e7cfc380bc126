import type { FakeApp } from '../../../src/server/build.js';
import type { RequestRecord } from '../../../src/spec/control-types.js';
import type { Document } from '../../../src/spec/index.js';
import { control } from '../control/helpers.js';

/** The journal as `GET /__control/requests` lists it (the answer checked against the control document). */
export const listJournal = async (app: FakeApp, query = ''): Promise<RequestRecord[]> =>
  (await control<RequestRecord[]>(app, 'listRequests', { url: `/__control/requests${query}` })).body;

/**
 * The journal's bounds as a control document states them, read here apart from the code that
 * obeys them: the head kept of a body (`responseText`'s `maxLength`) and the bodies kept in all.
 */
export function statedBodyLimits(document: Document): { perBody: number; total: number } {
  const listRequests = document.paths?.['/__control/requests']?.get as unknown as Record<string, number>;
  const record = document.components?.schemas?.RequestRecord as { properties: { responseText: { maxLength: number } } };
  return { perBody: record.properties.responseText.maxLength, total: listRequests['x-journal-max-length']! };
}
