import { gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import type { Schema, Spec } from '../../src/spec/index.js';
import { CONTROL, controlSpec, expectControlConforms } from './control/helpers.js';
import { API, basicOf, expectConforms, expectError, spec, USERS, validator } from './helpers.js';

// The fake decodes no content coding: a coded body (Content-Encoding gzip, br…) is refused with
// the document's 415, never read as JSON; `identity` is no coding at all.

const app = await buildFake({ spec, docs: false, records: 20, rateLimit: 'off' });
afterAll(() => app.close());

const LOGIN = JSON.stringify({ login: USERS.viewer.login, password: USERS.viewer.password });
const logIn = (encoding: string, payload: string | Buffer = LOGIN) =>
  app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, payload });

/** The Accept-Encoding header a document gives an operation's 415. */
function documentedAcceptEncoding(document: Spec, operationId: string): { example?: unknown; schema: Schema } {
  const header = document.operation(operationId).responses['415']?.headers?.['Accept-Encoding'] as { example?: unknown; schema: Schema } | undefined;
  expect(header, `${operationId}: 415 Accept-Encoding`).toBeDefined();
  return header!;
}

/**
 * The document's 415 for a coded body, naming the header as sent, with the Accept-Encoding the
 * document (the control API's for its operations) gives it: identity, the one coding taken.
 */
function expectCodedRefused(response: LightMyRequestResponse, encoding: string, document: Spec = spec, operationId = 'createSession'): void {
  const body = expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  expect(body.message).toBe(`The request body has Content-Encoding ${JSON.stringify(encoding)}; the server decodes no content coding, so send the JSON as it is (no Content-Encoding, or identity).`);
  const header = documentedAcceptEncoding(document, operationId);
  expect(response.headers['accept-encoding']).toBe('identity');
  expect(response.headers['accept-encoding']).toBe(header.example);
  expect(validator.validate(header.schema, response.headers['accept-encoding'])).toEqual([]);
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
    expectCodedRefused(patch, 'gzip', spec, 'updateEventLogPayload');
    expectConforms('updateEventLogPayload', patch);
    expect(await read()).toBe(before);

    const config = await app.inject({ method: 'PATCH', url: `${CONTROL}/config`, headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, payload: JSON.stringify({ latencyMs: 500 }) });
    expectCodedRefused(config, 'deflate', controlSpec, 'updateConfig');
    expectControlConforms('updateConfig', config);
    expect(JSON.parse((await app.inject({ url: `${CONTROL}/config` })).body)).toMatchObject({ latencyMs: 0 });
  });

  it('is refused for its coding, with Accept-Encoding, also when its Content-Type is not JSON or missing', async () => {
    // RFC 9110 8.4: the Content-Type is that of the decoded body, which the fake never reaches.
    const before = await sessionCount();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const response = await app.inject({
        method: 'POST',
        url: `${API}/users/session`,
        headers: { ...(type === undefined ? {} : { 'content-type': type }), 'content-encoding': 'gzip' },
        payload: gzipSync(LOGIN),
      });
      expectCodedRefused(response, 'gzip');
      expectConforms('createSession', response);
    }
    expect(await sessionCount()).toBe(before);
    const config = await app.inject({ method: 'PATCH', url: `${CONTROL}/config`, headers: { 'content-type': 'text/plain', 'content-encoding': 'br' }, payload: JSON.stringify({ latencyMs: 500 }) });
    expectCodedRefused(config, 'br', controlSpec, 'updateConfig');
    expectControlConforms('updateConfig', config);
  });

  it('is still refused first for missing credentials, as any other body problem is', async () => {
    const response = await app.inject({ method: 'PATCH', url: `${API}/event-log/68b25f476669787472000001/payload`, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{}' });
    expectError(response, 401, 'UNAUTHENTICATED');
    expectConforms('updateEventLogPayload', response);
  });
});

describe('Accept-Encoding', () => {
  it("goes with the refusal of a coded body only: not with a 415 for the body's type, a Prefer: code=415 or an answer taken", async () => {
    const text = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'text/plain' }, payload: LOGIN });
    const untyped = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: Buffer.from(LOGIN) });
    const preferred = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json', prefer: 'code=415' }, payload: LOGIN });
    for (const [name, response] of Object.entries({ text, untyped, preferred })) {
      expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectConforms('createSession', response);
      expect(response.headers, name).not.toHaveProperty('accept-encoding');
    }
    const taken = await logIn('identity');
    expect(taken.statusCode).toBe(200);
    expect(taken.headers).not.toHaveProperty('accept-encoding');
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
