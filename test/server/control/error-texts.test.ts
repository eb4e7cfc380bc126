import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../../src/server/build.js';
import type { Snapshot } from '../../../src/spec/control-types.js';
import { spec } from '../helpers.js';
import { control } from './helpers.js';

// The messages of the control API's refusals are its document's (`x-messages` of its responses,
// by code), filled in with what the request named: each as a client reads it, the answer
// checked against the control document.
const app = await buildFake({ spec, docs: false, records: 20 });
afterAll(() => app.close());

type ErrorBody = { code: string; message: string; details?: { name: string; problem: string }[] };
const refusal = async (operationId: string, request: Parameters<typeof control>[2], status: number, code: string): Promise<ErrorBody> => {
  const { status: got, body } = await control<ErrorBody>(app, operationId, request);
  expect(got, JSON.stringify(body).slice(0, 300)).toBe(status);
  expect(body.code).toBe(code);
  return body;
};

const trap = {
  type: 'snmp-trap',
  agentId: '5867948233835d9661c50001',
  payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 'linkDown', bindings: [] },
  entity: { entityId: '5867948233835d9661c5e001', entityType: 1, entityName: 'core-sw-01' },
};

describe('the texts of the control API\'s refusals, as sent', () => {
  it('of a fault id that names no fault', async () => {
    const { message } = await refusal('deleteFault', { url: '/__control/faults/000000000000000000000000' }, 404, 'NOT_FOUND');
    expect(message).toBe('No injected fault has id "000000000000000000000000".');
  });

  it('of a body the schema cannot refuse: one problem, several, more than are listed', async () => {
    const one = await refusal('injectFault', { payload: { operationId: 'getEventLog', count: 1, delayMs: [5, 1] } }, 400, 'INVALID_BODY');
    expect(one.message).toBe('The body does not match the schema: /delayMs must be [min, max] with min not above max.');
    const two = await refusal('injectFault', { payload: { operationId: 'getEventLog', count: 1, action: 'drop', status: 500, message: 'm' } }, 400, 'INVALID_BODY');
    expect(two.message).toBe('The body does not match the schema: /status is for action "error" only, not "drop" (2 problems in all).');
    const same = { ...trap, _id: '5867948233835d9661c56dd0' };
    const many = await refusal('replaceEventLog', { method: 'PUT', payload: Array.from({ length: 202 }, () => same) }, 400, 'INVALID_BODY');
    expect(many.details).toHaveLength(20);
    expect(many.message).toBe('The body does not match the schema: /1/_id repeats the _id "5867948233835d9661c56dd0" of an earlier record (201 problems in all; the first 20 are listed).');
  });

  it('of a snapshot that cannot be restored', async () => {
    const snapshot = (await control<Snapshot>(app, 'exportSnapshot')).body;
    const twice = { ...snapshot, users: [...snapshot.users, { id: snapshot.users[0]!.id, login: snapshot.users[0]!.login }] };
    const { message } = await refusal('importSnapshot', { method: 'PUT', payload: twice }, 400, 'INVALID_BODY');
    expect(message).toBe(`The snapshot cannot be restored: /users/${snapshot.users.length}/id is listed twice.`);
  });
});
