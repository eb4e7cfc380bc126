import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { expectControlConforms } from './control/helpers.js';
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

describe('filters meant to hurt', () => {
  const eventLog = (filter: string) => `${API}/event-log?limit=5&filter=${encodeURIComponent(filter)}`;
  const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const nestedAnd = (depth: number) => '{"$and":['.repeat(depth) + '{"type":"snmp-trap"}' + ']}'.repeat(depth);

  it('a filter nested 1,000 levels deep is 400 INVALID_FILTER', async () => {
    for (const filter of [nested(1_000), nestedAnd(1_000), nested(100_000)]) {
      const response = await app.inject({ url: eventLog(filter), headers: basicOf('viewer') });
      expectError(response, 400, 'INVALID_FILTER');
      expectConforms('getEventLog', response);
    }
  });

  it('a regular expression that backtracks catastrophically elsewhere is answered: it is matched in linear time', async () => {
    for (const pattern of ['(a+)+$', '(a|a)*b', '(a|aa)+$', '^(([a-z])+.)+[A-Z]([a-z])+$', '(\\w+\\.)+x', '(x+x+)+y', '(.*a){20}', '.{0,200}.{0,200}.{0,200}.{0,200}.{0,200}!']) {
      const response = await app.inject({ url: eventLog(JSON.stringify({ 'payload.text': { $regex: pattern } })), headers: basicOf('viewer') });
      expect(response.statusCode, pattern).toBe(200);
      expectConforms('getEventLog', response);
    }
  });

  it('a regular expression RE2 refuses is 400 INVALID_FILTER', async () => {
    for (const pattern of ['(a)\\1', 'a(?=b)', '(?<!a)b']) {
      const response = await app.inject({ url: eventLog(JSON.stringify({ 'payload.text': { $regex: pattern } })), headers: basicOf('viewer') });
      expectError(response, 400, 'INVALID_FILTER');
      expectConforms('getEventLog', response);
    }
  });

  it('the same filters without the harm are answered', async () => {
    const response = await app.inject({ url: eventLog('{"payload.text":{"$regex":"^link(Up|Down)"}}'), headers: basicOf('viewer') });
    expect(response.statusCode).toBe(200);
    expectConforms('getEventLog', response);
    expect((JSON.parse(response.body) as unknown[]).length).toBeGreaterThan(0);
  });
});

/** The first SNMP trap of the log, as a GET answers it now. */
async function firstTrap() {
  const list = await app.inject({ url: `${API}/event-log?type=1&limit=1`, headers: basicOf('operator') });
  return (JSON.parse(list.body) as { _id: string; payload: { text: string } }[])[0]!;
}
const patchPayload = (id: string, payload: string | Buffer) =>
  app.inject({ method: 'PATCH', url: `${API}/event-log/${id}/payload`, headers: { ...basicOf('operator'), 'content-type': 'application/json' }, payload });

describe('a payload update over the limit', () => {
  it('is 413, and the record is unchanged', async () => {
    const record = await firstTrap();
    const response = await patchPayload(record._id, overLimit);
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expectConforms('updateEventLogPayload', response);
    expect((await firstTrap()).payload.text).toBe(record.payload.text);
  });
});

describe('bodies that are not UTF-8', () => {
  const invalid = (json: string) => Buffer.concat([Buffer.from(json.slice(0, -2)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(json.slice(-2))]);

  it('are refused with 400 MALFORMED_JSON, and nothing is stored', async () => {
    const record = await firstTrap();
    const patch = await patchPayload(record._id, invalid(JSON.stringify({ text: 'bad bytes: ' })));
    expectError(patch, 400, 'MALFORMED_JSON');
    expectConforms('updateEventLogPayload', patch);
    expect((await firstTrap()).payload.text).toBe(record.payload.text);

    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json' }, payload: invalid('{"login":"admin","password":"x"}') });
    expectError(login, 400, 'MALFORMED_JSON');
    expectConforms('createSession', login);
    expect(login.headers['set-cookie']).toBeUndefined();

    const records = app.fake.state.data.events.size;
    const added = await app.inject({ method: 'POST', url: '/__control/event-log', headers: { 'content-type': 'application/json' }, payload: invalid('[{"type":"x"}]') });
    expectError(added, 400, 'MALFORMED_JSON');
    expectControlConforms('addEventLogRecords', added);
    expect(app.fake.state.data.events.size).toBe(records);
  });

  it('valid UTF-8 beyond ASCII is taken as sent', async () => {
    const text = 'Grüße, 温度 🌡️';
    const patch = await patchPayload((await firstTrap())._id, Buffer.from(JSON.stringify({ text })));
    expectConforms('updateEventLogPayload', patch);
    expect(patch.statusCode).toBe(204);
    expect((await firstTrap()).payload.text).toBe(text);
  });
});
