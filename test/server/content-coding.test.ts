import { gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { CONTROL, expectControlConforms } from './control/helpers.js';
import { API, basicOf, expectConforms, expectError, spec, USERS } from './helpers.js';

// The fake decodes no content coding: a coded body (Content-Encoding gzip, br…) is refused with
// the document's 415, never read as JSON; `identity` is no coding at all.

const app = await buildFake({ spec, docs: false, records: 20, rateLimit: 'off' });
afterAll(() => app.close());

const LOGIN = JSON.stringify({ login: USERS.viewer.login, password: USERS.viewer.password });
const logIn = (encoding: string, payload: string | Buffer = LOGIN) =>
  app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, payload });

/** The document's 415 for a coded body, naming the header as sent. */
function expectCodedRefused(response: LightMyRequestResponse, encoding: string): void {
  const body = expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  expect(body.message).toBe(`The request body has Content-Encoding ${JSON.stringify(encoding)}; the server decodes no content coding, so send the JSON as it is (no Content-Encoding, or identity).`);
}

const sessionCount = async () => (JSON.parse((await app.inject({ url: `${CONTROL}/sessions` })).body) as unknown[]).length;

describe('a content-coded request body', () => {
  it('is 415 UNSUPPORTED_MEDIA_TYPE, gzipped or not, in any coding or list of codings, and logs no one in', async () => {
    const before = await sessionCount();
    const gzipped = await logIn('gzip', gzipSync(LOGIN));
    expectCodedRefused(gzipped, 'gzip');
    expectConforms('createSession', gzipped);
    for (const encoding of ['gzip', 'GZIP', 'br', 'deflate', 'x-custom', 'identity, gzip', 'gzip, identity']) {
      const response = await logIn(encoding);
      expectCodedRefused(response, encoding);
      expectConforms('createSession', response);
      expect(response.cookies).toEqual([]);
    }
    expect(await sessionCount()).toBe(before);
  });

  it('changes no record, and is refused by the control API the same way', async () => {
    const id = '68b25f476669787472000001'; // an SNMP trap of fixtures/events.json
    const read = async () => (await app.inject({ url: `${API}/event-log?filter=${encodeURIComponent(JSON.stringify({ _id: id }))}`, headers: basicOf('admin') })).body;
    const before = await read();
    const patch = await app.inject({
      method: 'PATCH',
      url: `${API}/event-log/${id}/payload`,
      headers: { ...basicOf('operator'), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ text: 'coded' })),
    });
    expectCodedRefused(patch, 'gzip');
    expectConforms('updateEventLogPayload', patch);
    expect(await read()).toBe(before);

    const config = await app.inject({ method: 'PATCH', url: `${CONTROL}/config`, headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, payload: JSON.stringify({ latencyMs: 500 }) });
    expectCodedRefused(config, 'deflate');
    expectControlConforms('updateConfig', config);
    expect(JSON.parse((await app.inject({ url: `${CONTROL}/config` })).body)).toMatchObject({ latencyMs: 0 });
  });

  it('is still refused first for missing credentials, as any other body problem is', async () => {
    const response = await app.inject({ method: 'PATCH', url: `${API}/event-log/68b25f476669787472000001/payload`, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{}' });
    expectError(response, 401, 'UNAUTHENTICATED');
    expectConforms('updateEventLogPayload', response);
  });
});

describe('Content-Encoding identity', () => {
  it('is a body as sent: taken as JSON, in any case', async () => {
    for (const encoding of ['identity', 'IDENTITY', 'identity, identity']) {
      const response = await logIn(encoding);
      expect(response.statusCode, `${encoding}: ${response.body}`).toBe(200);
      expectConforms('createSession', response);
    }
  });
});
