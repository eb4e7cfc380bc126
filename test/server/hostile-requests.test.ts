import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { API, basicOf, expectConforms, expectError, spec, USERS } from './helpers.js';

let app: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec });
});
afterAll(() => app.close());

const tokenPath = `${API}/users/${USERS.viewer.id}/auth-token`;
const overLimit = JSON.stringify({ text: 'x'.repeat(64 * 1024 + 1) });

describe('bodies over the limit', () => {
  it('are refused with 413 where the operation takes a body', async () => {
    const response = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json' }, payload: overLimit });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expectConforms('createSession', response);
  });

  it('are ignored, like any body, where the operation takes none', async () => {
    const response = await app.inject({ method: 'POST', url: tokenPath, headers: { ...basicOf('admin'), 'content-type': 'application/json' }, payload: overLimit });
    expect(response.statusCode).toBe(200);
    expectConforms('createAuthToken', response);
  });
});

describe('odd content types and methods', () => {
  it('a malformed Content-Type on an operation without a body is ignored', async () => {
    for (const type of ['application/', ';;;', 'h}']) {
      const response = await app.inject({ method: 'DELETE', url: tokenPath, headers: { ...basicOf('admin'), 'content-type': type }, payload: 'x' });
      expect(response.statusCode, type).toBe(204);
      expectConforms('revokeAuthToken', response);
    }
  });

  it('a malformed Content-Type where a body is expected is 415', async () => {
    const response = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': ';;;' }, payload: '{}' });
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectConforms('createSession', response);
  });

  it('QUERY without a Content-Type is a 400, not a failure of the fake', async () => {
    for (const url of ['/anywhere', `${API}/users/current`]) {
      expectError(await app.inject({ method: 'QUERY' as 'GET', url }), 400, 'INVALID_PARAMETER');
    }
  });
});
