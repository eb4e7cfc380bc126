import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../helpers/raw-http.js';
import { basicOf, expectConforms, expectError } from '../helpers.js';
import { expectControlConforms } from './helpers.js';
import { encodedVariants, expectRefused, jsonOf, startTarget, type Target } from './hostile-calls.js';

let target: Target;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(() => target.fake.close());

describe('percent-escaped spellings of control paths', () => {
  it('are taken by the router for the control routes (so refusing them below means something)', async () => {
    const reads = target.calls.filter((call) => call.method === 'GET');
    expect(reads.length).toBeGreaterThan(3);
    for (const call of reads) {
      for (const path of encodedVariants(call.path)) {
        const answer = await rawRequest(target.origin, { path });
        expect(answer.statusCode, path).toBe(200);
        expectControlConforms(call.operationId, answer as unknown as LightMyRequestResponse);
      }
    }
  });

  it('from an address that is not loopback, every spelling of every operation is 403 and changes nothing', async () => {
    for (const call of target.calls) {
      for (const path of [call.path, ...encodedVariants(call.path)]) {
        const { headers, body } = jsonOf(call);
        const answer = await target.fake.inject({ method: call.method as 'GET', url: path, remoteAddress: '192.0.2.10', headers, payload: body });
        expectRefused(call, path, answer, 'The control API answers loopback clients only.');
      }
    }
    await target.expectUnchanged();
  });

  it('from a page of a foreign origin, over HTTP, every spelling of every operation is 403 and changes nothing', async () => {
    for (const call of target.calls) {
      for (const path of [call.path, ...encodedVariants(call.path)]) {
        const { headers, body } = jsonOf(call);
        const answer = await rawRequest(target.origin, { method: call.method, path, headers: { ...headers, origin: 'https://evil.example' }, body });
        expectRefused(call, path, answer, 'The control API does not answer pages of this origin.');
      }
    }
    await target.expectUnchanged();
  });

  it('an unknown control path from another address is refused before being told unknown, however spelled', async () => {
    for (const path of ['/__control/nothing', '/%5F_control/nothing', '/__contro%6C/config/x']) {
      expectError(await target.fake.inject({ url: path, remoteAddress: '192.0.2.10' }), 403, 'PERMISSION_DENIED');
    }
  });

  it('the monitoring API is not touched by the control guard, however spelled', async () => {
    const headers = { ...basicOf('viewer'), origin: 'https://evil.example' };
    const answer = await target.fake.inject({ url: '/node/api/users/%63urrent', remoteAddress: '192.0.2.10', headers });
    expect(answer.statusCode).toBe(200);
    expectConforms('getCurrentUser', answer);
  });
});
