import type { FakeApp } from '../../../src/server/build.js';
import type { RequestRecord } from '../../../src/spec/control-types.js';
import { control } from '../control/helpers.js';

/** The journal as `GET /__control/requests` lists it (the answer checked against the control document). */
export const listJournal = async (app: FakeApp, query = ''): Promise<RequestRecord[]> =>
  (await control<RequestRecord[]>(app, 'listRequests', { url: `/__control/requests${query}` })).body;
