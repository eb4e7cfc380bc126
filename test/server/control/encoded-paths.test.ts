import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../src/fake/create-fake.js';
import type { Snapshot } from '../../../src/spec/control-types.js';
import { rawRequest, type RawAnswer } from '../../helpers/raw-http.js';
import { API, basicOf, expectConforms, expectError, spec } from '../helpers.js';
import { expectControlConforms } from './helpers.js';
import { encodedVariants, everyControlCall, PLANTED_TOKEN, stateOf, type ControlCall } from './hostile-calls.js';

let fake: Fake;
let origin: string;
let before: Snapshot;
let calls: ControlCall[];

beforeAll(async () => {
  fake = await createFake({ spec, docs: false, records: 20 });
  ({ origin } = await fake.listen());
  // Something for each clearing operation to clear.
  await fake.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'viewer-password' } });
  const fault = await fake.injectFault({ operationId: 'getEventLog', count: 3 });
  before = await fake.snapshot();
  calls = everyControlCall(before, fault.id);
});
afterAll(() => fake.close());

const asResponse = (answer: RawAnswer) => answer as unknown as LightMyRequestResponse;
const jsonBody = (call: ControlCall) =>
  call.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) };

async function expectNothingChanged() {
  expect(stateOf(await fake.snapshot())).toEqual(stateOf(before));
  const planted = await fake.inject({ url: `${API}/users/current?api-token=${PLANTED_TOKEN}` });
  expect(planted.statusCode).toBe(401);
}

function expectRefused(call: ControlCall, path: string, answer: RawAnswer | LightMyRequestResponse, message: string) {
  expect(answer.statusCode, `${call.method} ${path}: ${answer.body}`).toBe(403);
  expect(JSON.parse(answer.body)).toEqual({ status: 403, code: 'PERMISSION_DENIED', message });
  expectControlConforms(call.operationId, asResponse(answer as RawAnswer));
}

describe('percent-escaped spellings of control paths', () => {
  it('are taken by the router for the control routes (so refusing them below means something)', async () => {
    const reads = calls.filter((call) => call.method === 'GET');
    expect(reads.length).toBeGreaterThan(3);
    for (const call of reads) {
      for (const path of encodedVariants(call.path)) {
        const answer = await rawRequest(origin, { path });
        expect(answer.statusCode, path).toBe(200);
        expectControlConforms(call.operationId, asResponse(answer));
      }
    }
  });

  it('from an address that is not loopback, every spelling of every operation is 403 and changes nothing', async () => {
    for (const call of calls) {
      for (const path of [call.path, ...encodedVariants(call.path)]) {
        const { headers, body } = jsonBody(call);
        const answer = await fake.inject({ method: call.method as 'GET', url: path, remoteAddress: '192.0.2.10', headers, payload: body });
        expectRefused(call, path, answer, 'The control API answers loopback clients only.');
      }
    }
    await expectNothingChanged();
  });

  it('from a page of a foreign origin, over HTTP, every spelling of every operation is 403 and changes nothing', async () => {
    for (const call of calls) {
      for (const path of [call.path, ...encodedVariants(call.path)]) {
        const { headers, body } = jsonBody(call);
        const answer = await rawRequest(origin, { method: call.method, path, headers: { ...headers, origin: 'https://evil.example' }, body });
        expectRefused(call, path, answer, 'The control API does not answer pages of this origin.');
      }
    }
    await expectNothingChanged();
  });

  it('an unknown control path from another address is refused before being told unknown, however spelled', async () => {
    for (const path of ['/__control/nothing', '/%5F_control/nothing', '/__contro%6C/config/x']) {
      const answer = await fake.inject({ url: path, remoteAddress: '192.0.2.10' });
      expectError(answer, 403, 'PERMISSION_DENIED');
    }
  });

  it('the monitoring API is not touched by the control guard, however spelled', async () => {
    const answer = await fake.inject({ url: '/node/api/users/%63urrent', remoteAddress: '192.0.2.10', headers: { ...basicOf('viewer'), origin: 'https://evil.example' } });
    expect(answer.statusCode).toBe(200);
    expectConforms('getCurrentUser', answer);
  });
});
