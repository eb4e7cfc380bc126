import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';

// The messages of the API's refusals are the document's (`x-messages` of each code in the error
// list), filled in with what the request named: each as a client reads it.
const app = await buildFake({ spec, docs: false, records: 20, rateLimit: [{ key: 'ip', limit: 1, windowSeconds: 10, blockSeconds: 7 }] });
const open = await buildFake({ spec, docs: false, records: 20, rateLimit: 'off' });
afterAll(() => Promise.all([app.close(), open.close()]));

/** The Error body of an answer, checked against the document (the operation's, when routed). */
function refusal(response: LightMyRequestResponse, status: number, code: string, operationId?: string): string {
  const body = expectError(response, status, code);
  if (operationId) expectConforms(operationId, response);
  return body.message as string;
}

const login = (payload: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  open.inject({ method: 'POST', url: `${API}/users/session`, headers, payload });

describe('the texts of refusals, as sent', () => {
  it('of bodies: malformed JSON, not UTF-8, not JSON, too large', async () => {
    expect(refusal(await login('{"login":'), 400, 'MALFORMED_JSON', 'createSession')).toBe('The request body is not valid JSON.');
    expect(refusal(await login(Buffer.from([0x7b, 0xff, 0x7d])), 400, 'MALFORMED_JSON', 'createSession')).toBe('The request body is not valid UTF-8 (JSON text must be).');
    expect(refusal(await login('{}', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE', 'createSession')).toBe('Content-Type must be application/json, not "text/plain".');
    expect(refusal(await login(JSON.stringify({ login: 'x'.repeat(70_000), password: 'p' })), 413, 'PAYLOAD_TOO_LARGE', 'createSession')).toBe('The request body is larger than 65536 bytes.');
  });

  it('of paths and methods no route takes, and of a QUERY without Content-Type', async () => {
    expect(refusal(await open.inject({ url: `${API}/nowhere` }), 404, 'ROUTE_NOT_FOUND')).toBe('No operation has the path "/node/api/nowhere".');
    const wrongMethod = await open.inject({ method: 'DELETE', url: `${API}/event-log`, headers: basicOf('admin') });
    expect(refusal(wrongMethod, 405, 'METHOD_NOT_ALLOWED')).toBe('DELETE is not allowed here; allowed: GET.');
    expect(refusal(await open.inject({ method: 'QUERY' as 'GET', url: `${API}/users/current` }), 400, 'INVALID_PARAMETER')).toBe('A QUERY request must have a Content-Type header.');
  });

  it('of a user or record the path names that does not exist, and of an MQTT record given a payload update', async () => {
    const noUser = await open.inject({ method: 'POST', url: `${API}/users/000000000000000000000000/auth-token`, headers: basicOf('admin') });
    expect(refusal(noUser, 404, 'NOT_FOUND', 'createAuthToken')).toBe('No user has id "000000000000000000000000".');
    const patch = (id: string) => open.inject({ method: 'PATCH', url: `${API}/event-log/${id}/payload`, headers: basicOf('operator'), payload: { text: 'x' } });
    expect(refusal(await patch('000000000000000000000000'), 404, 'NOT_FOUND', 'updateEventLogPayload')).toBe('No event log record has id "000000000000000000000000".');
    const [mqtt] = JSON.parse((await open.inject({ url: `${API}/event-log?type=2&limit=1`, headers: basicOf('viewer') })).body) as { _id: string }[];
    expect(refusal(await patch(mqtt!._id), 422, 'NOT_AN_SNMP_RECORD', 'updateEventLogPayload')).toBe(`Record "${mqtt!._id}" is an mqtt-message; only snmp-trap payloads can be updated.`);
  });

  it('of a request over a rate limit', async () => {
    expectConforms('getCurrentUser', await app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') }));
    const blocked = await app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expect(refusal(blocked, 429, 'RATE_LIMITED', 'getCurrentUser')).toBe('Too many requests; blocked for 7 seconds.');
  });
});
