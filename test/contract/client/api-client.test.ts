// The HTTP layer against a small Fastify server of the test's own: cookies, auth, redirects, timeouts.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/contract/client/api-client.js';
import { createTransport } from '../../../src/contract/client/transport.js';
import { UnreachableError } from '../../../src/contract/errors.js';
import { freePort } from '../../../src/shared/free-port.js';
import { createRandom } from '../../../src/contract/random.js';
import { decidePolicy, SafetyError } from '../../../src/contract/safety.js';
import { createSecrets } from '../../../src/shared/redaction/secret-values.js';
import { specAndValidator } from '../helpers/synthetic.js';

let app: FastifyInstance;
let origin: string;
const seen: { method: string; url: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  app = Fastify();
  app.addHook('onRequest', async (request) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
  });
  app.post('/node/api/users/session', async (_request, reply) => {
    reply.header('set-cookie', ['sid=s-123456; Path=/; HttpOnly', 'csrf=c-654321; Path=/']);
    return 's-123456';
  });
  app.get('/node/api/users/current', async (request, reply) => {
    if (request.query && (request.query as Record<string, string>).go === 'away') return reply.redirect('http://elsewhere.example/x', 302);
    return { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [], seen: { cookie: request.headers.cookie ?? null, authorization: request.headers.authorization ?? null } };
  });
  app.delete('/node/api/users/session', async (_request, reply) => reply.code(204).send());
  app.get('/node/api/event-log', async () => new Promise(() => undefined)); // never answers
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app.close();
});

async function client(baseUrl = origin, writes = true, timeoutMs = 5000): Promise<ApiClient> {
  const { spec } = await specAndValidator();
  return createApiClient({
    spec,
    transport: createTransport({ baseUrl, timeoutMs }),
    policy: decidePolicy({ targetUrl: baseUrl, allowWrites: writes }),
    secrets: createSecrets(),
    random: createRandom(1),
    admin: { login: 'admin', password: 'admin-password' },
  });
}

describe('api client', () => {
  it('sends Basic credentials and keeps session cookies per actor, sending csrf back on writes', async () => {
    const c = await client(`${origin}/node/api`);
    const basic = await c.call({ operationId: 'getCurrentUser', key: 'k' });
    expect((basic.response?.json as { seen: { authorization: string } }).seen.authorization).toBe(`Basic ${Buffer.from('admin:admin-password').toString('base64')}`);
    await c.call({ operationId: 'createSession', key: 'login', auth: 'none', body: { login: 'admin', password: 'admin-password' } });
    expect(await c.cookie('admin', 'sid')).toBe('s-123456');
    const withCookie = await c.call({ operationId: 'getCurrentUser', key: 'k', auth: 'session' });
    expect((withCookie.response?.json as { seen: { cookie: string; authorization: string | null } }).seen).toEqual({ cookie: 'sid=s-123456; csrf=c-654321', authorization: null });
    await c.call({ operationId: 'deleteSession', key: 'logout', auth: 'session' });
    expect(seen.at(-1)?.headers['x-csrf-token']).toBe('c-654321');
    expect(seen.at(-1)?.url).toBe('/node/api/users/session');
  });

  it('sends wrong credentials of each kind, and tokens in the query', async () => {
    const c = await client();
    c.setToken('admin', 'tok-abcdef');
    await c.call({ operationId: 'getCurrentUser', key: 'k', auth: 'token' });
    expect(seen.at(-1)?.url).toBe('/node/api/users/current?api-token=tok-abcdef');
    const wrong = await c.call({ operationId: 'getCurrentUser', key: 'k', auth: 'wrong-basic' });
    const sentAuth = Buffer.from(String(wrong.request.headers.authorization).slice(6), 'base64').toString();
    expect(sentAuth).toMatch(/^contract-check-[a-z]{8}:/);
    await c.call({ operationId: 'getCurrentUser', key: 'k', auth: 'wrong-session', actor: 'anonymous' });
    expect(seen.at(-1)?.headers.cookie).toMatch(/^sid=[0-9a-f-]{36}$/);
  });

  it('uses the run session for requests that name no method, Basic where the operation takes no session', async () => {
    const c = await client();
    await c.openRunSession('open');
    const auto = await c.call({ operationId: 'getCurrentUser', key: 'k' });
    expect(auto.auth).toBe('session');
    expect(auto.request.headers.cookie).toBe('sid=s-123456; csrf=c-654321');
    expect(auto.request.headers.authorization).toBeUndefined();
    const token = await c.call({ operationId: 'createAuthToken', key: 'k', path: { id: '5867948233835d9661c56dc8' } });
    expect(token.auth).toBe('basic');
    // The run session lives in a jar of its own: the administrator's case jar stays empty.
    expect(await c.cookie('admin', 'sid')).toBeUndefined();
    expect((await c.closeRunSession('close'))?.request.method).toBe('DELETE');
    expect((await c.call({ operationId: 'getCurrentUser', key: 'k' })).auth).toBe('basic');
  });

  it('never follows a redirect', async () => {
    const c = await client();
    const before = seen.length;
    const ex = await c.call({ operationId: 'getCurrentUser', key: 'k', query: { go: 'away' } });
    expect(ex.response?.status).toBe(302);
    expect(ex.response?.headers.location).toBe('http://elsewhere.example/x');
    expect(seen.length).toBe(before + 1);
  });

  it('records a request that times out as an exchange with an error', async () => {
    const c = await client(origin, true, 150);
    const ex = await c.call({ operationId: 'getEventLog', key: 'k' });
    expect(ex.response).toBeUndefined();
    expect(ex.error).toMatch(/timed out/i);
  });

  it('refuses a write the safety policy forbids without sending it', async () => {
    const c = await client(origin, false);
    const before = seen.length;
    await expect(c.call({ operationId: 'updateEventLogPayload', key: 'k', path: { id: '5867948233835d9661c56dc8' }, body: { text: 'x' } })).rejects.toThrow(SafetyError);
    expect(seen.length).toBe(before);
  });

  it('stops when the server cannot be reached', async () => {
    const c = await client(`http://127.0.0.1:${await freePort()}`);
    await expect(c.call({ operationId: 'getCurrentUser', key: 'k' })).rejects.toThrow(UnreachableError);
  });
});
