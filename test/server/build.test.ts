import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { fastifyPath } from '../../src/server/routes.js';
import { API, basicOf, expectConforms, spec, USERS } from './helpers.js';

describe('routes from the document', () => {
  it('turns OpenAPI path templates into Fastify paths', () => {
    expect(fastifyPath('/node/api/users/{id}/auth-token')).toBe('/node/api/users/:id/auth-token');
    expect(fastifyPath('/node/api/users/current')).toBe('/node/api/users/current');
  });

  it('registers every operation of the document', async () => {
    const app = await buildFake({ spec });
    expect(app.fake.missingHandlers).toEqual([]);
    expect([...app.fake.registered].sort()).toEqual(spec.operations.map((op) => op.operationId).sort());
    await app.close();
  });

  it('reports an operation without a handler and gives it no route', async () => {
    const app = await buildFake({ spec, handlers: { getEventLog: undefined } });
    expect(app.fake.missingHandlers).toEqual(['getEventLog']);
    const eventLog = await app.inject({ url: `${API}/event-log`, headers: basicOf('admin') });
    expect(eventLog.statusCode).toBe(404);
    expect(JSON.parse(eventLog.body).code).toBe('ROUTE_NOT_FOUND');
    await app.close();
  });

  it('warns about the missing handlers when logging', async () => {
    const lines: string[] = [];
    const app = await buildFake({
      spec,
      handlers: { getLimitBlockLog: undefined, updateEventLogPayload: undefined },
      logger: { level: 'warn', stream: { write: (line) => void lines.push(line) } },
    });
    const warning = lines.map((l) => JSON.parse(l) as { level: number; missingHandlers?: string[] }).find((l) => l.missingHandlers);
    expect(warning?.missingHandlers).toEqual(['updateEventLogPayload', 'getLimitBlockLog']);
    await app.close();
  });

  it('a handler map given in the options gets the operation its guard from the document', async () => {
    const app = await buildFake({ spec, handlers: { updateEventLogPayload: () => undefined } });
    expect(app.fake.missingHandlers).not.toContain('updateEventLogPayload');
    const url = `${API}/event-log/5867948233835d9661c56dc8/payload`;
    const payload = { text: 'ack' };
    expect((await app.inject({ method: 'PATCH', url, payload })).statusCode).toBe(401);
    const viewer = await app.inject({ method: 'PATCH', url, payload, headers: basicOf('viewer') });
    expect(JSON.parse(viewer.body)).toMatchObject({ code: 'PERMISSION_DENIED', permission: 'manage-event-log' });
    // The success status (204, no body) comes from the document too.
    const operator = await app.inject({ method: 'PATCH', url, payload, headers: basicOf('operator') });
    expect(operator.statusCode).toBe(204);
    expect(operator.body).toBe('');
    await app.close();
  });

  it('a handler that throws unexpectedly gives 500 INTERNAL_ERROR in the Error shape', async () => {
    const app = await buildFake({
      spec,
      handlers: {
        getCurrentUser: () => {
          throw new Error('boom');
        },
      },
    });
    const response = await app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: 'The fake failed unexpectedly.' });
    await app.close();
  });
});

describe('handlers that answer later', () => {
  it('an async handler is answered with what it resolves to, or 500 when it rejects', async () => {
    const app = await buildFake({
      spec,
      handlers: {
        getCurrentUser: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { id: 'bbbbbbbbbbbbbbbbbbbbbbbb', login: 'later', permissions: [] };
        },
        getLimitBlockLog: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error('late boom');
        },
      },
    });
    const me = await app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expect(me.statusCode).toBe(200);
    expect(JSON.parse(me.body)).toEqual({ id: 'bbbbbbbbbbbbbbbbbbbbbbbb', login: 'later', permissions: [] });
    expectConforms('getCurrentUser', me);
    const failed = await app.inject({ url: `${API}/limit-block-log`, headers: basicOf('admin') });
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(failed.body)).toMatchObject({ code: 'INTERNAL_ERROR' });
    await app.close();
  });
});

describe('the users fixture', () => {
  async function fixture(content: unknown): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'users-'));
    const path = join(dir, 'users.json');
    await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  it('is read from the users option', async () => {
    const path = await fixture([{ id: 'aaaaaaaaaaaaaaaaaaaaaaaa', login: 'solo', password: 'pw', permissions: ['manage-users'] }]);
    const app = await buildFake({ spec, users: path });
    const me = await app.inject({ url: `${API}/users/current`, headers: { authorization: `Basic ${Buffer.from('solo:pw').toString('base64')}` } });
    expect(JSON.parse(me.body)).toEqual({ id: 'aaaaaaaaaaaaaaaaaaaaaaaa', login: 'solo', permissions: ['manage-users'] });
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') })).statusCode).toBe(401);
    await app.close();
  });

  it('an invalid file fails the start with the file, the user and the field', async () => {
    const path = await fixture([
      { id: USERS.admin.id, login: 'admin', password: 'pw', permissions: [] },
      { id: 'not-hex', login: 'broken', password: 42, permissions: 'all' },
    ]);
    const failure = buildFake({ spec, users: path });
    await expect(failure).rejects.toThrow(path);
    await expect(failure).rejects.toThrow('user 1 ("broken"): field "password" must be a string');
    await expect(failure).rejects.toThrow('user 1 ("broken"): field "id" must match pattern');
    await expect(failure).rejects.toThrow('user 1 ("broken"): field "permissions" must be array');
  });
});
