import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import { spec } from '../helpers.js';
import { control, controlSpec, expectControlConforms } from './helpers.js';

/** A request for every control operation, with a valid path (the fault id need not exist). */
const calls = controlSpec.operations.map((op) => ({
  operationId: op.operationId,
  method: op.method.toUpperCase() as 'GET',
  url: op.path.replace('{faultId}', '5867948233835d9661c5f001'),
}));

let app: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec, docs: false, records: 20 });
});
afterAll(() => app.close());

describe('who may call the control API', () => {
  it.each(calls)('$operationId answers 403 PERMISSION_DENIED to a client that is not on loopback, and changes nothing', async (call) => {
    await app.inject({ method: 'POST', url: '/__control/faults', payload: { operationId: 'getEventLog', count: 1 } });
    const before = app.fake.faults.list();
    const response = await app.inject({
      ...call,
      remoteAddress: '192.0.2.44',
      payload: call.method === 'GET' || call.method === 'DELETE' ? undefined : { operationId: 'getCurrentUser', count: 1 },
    });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: 'The control API answers loopback clients only.' });
    expectControlConforms(call.operationId, response);
    expect(app.fake.faults.list()).toEqual(before);
    app.fake.faults.clear();
  });

  it('answers loopback clients over IPv4 and IPv6, and no other address', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await control(app, 'getConfig', { remoteAddress })).status, remoteAddress).toBe(200);
    }
    for (const remoteAddress of ['10.0.0.1', '::ffff:192.0.2.1', '2001:db8::1', '::2']) {
      expect((await control(app, 'getConfig', { remoteAddress })).status, remoteAddress).toBe(403);
    }
  });

  it('refuses unknown control paths from other addresses too, before saying they are unknown', async () => {
    const response = await app.inject({ url: '/__control/nothing', remoteAddress: '192.0.2.44' });
    expect(response.statusCode).toBe(403);
    const local = await app.inject({ url: '/__control/nothing' });
    expect(JSON.parse(local.body)).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
    const wrongMethod = await app.inject({ method: 'PUT', url: '/__control/config' });
    expect(JSON.parse(wrongMethod.body)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(wrongMethod.headers.allow).toBe('GET, PATCH');
  });

  it('refuses a page of an origin outside the CORS allow-list, so a foreign site cannot reset the fake', async () => {
    const foreign = await control(app, 'resetState', { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await control(app, 'resetState', { headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
  });

  it('is never rate-limited: control calls are not counted and not refused', async () => {
    const limited = await buildFake({ spec, docs: false, records: 20, rateLimit: [{ key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 60 }] });
    for (let i = 0; i < 5; i++) expect((await control(limited, 'getConfig')).status).toBe(200);
    expect((await control<{ active: unknown[] }>(limited, 'listBlocks')).body.active).toEqual([]);
    expect((await limited.inject({ url: '/node/api/users/current' })).statusCode).toBe(401);
    await limited.close();
  });

  it("answers the fake's own pages (the control docs' Try it out) whatever the allow-list", async () => {
    const listed = await buildFake({ spec, docs: false, records: 20, corsOrigins: ['https://ui.example.test'], controlHosts: ['fake.test'] });
    const own = await control(listed, 'getConfig', { headers: { origin: 'http://fake.test:4010', host: 'fake.test:4010' } });
    expect(own.status).toBe(200);
    expect((await control(listed, 'getConfig', { headers: { origin: 'http://localhost:5173', host: 'fake.test:4010' } })).status).toBe(403);
    expect((await control(listed, 'getConfig', { headers: { origin: 'https://ui.example.test', host: 'fake.test:4010' } })).status).toBe(200);
    await listed.close();
  });

  it('answers any address when opened at start-up', async () => {
    const open = await buildFake({ spec, docs: false, records: 20, controlFromAnyAddress: true });
    expect((await control(open, 'getConfig', { remoteAddress: '192.0.2.44' })).status).toBe(200);
    await open.close();
  });
});
