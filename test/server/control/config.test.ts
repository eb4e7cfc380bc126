import { afterEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import type { FakeOptions } from '../../../src/server/options.js';
import type { ControlConfig } from '../../../src/spec/control-types.js';
import { API, basicOf, cookieValue, expectConforms, spec, USERS } from '../helpers.js';
import { control, controlSpec } from './helpers.js';

let app: FakeApp;
afterEach(() => app?.close());
const fake = async (options: FakeOptions = {}) => (app = await buildFake({ spec, docs: false, records: 20, ...options }));
const presets = (controlSpec.document.components?.schemas?.RateLimitPreset as { 'x-preset-rules': Record<string, unknown[]> })['x-preset-rules'];
const patch = (body: unknown) => control<ControlConfig>(app, 'updateConfig', { payload: body as object });

describe('run-time configuration', () => {
  it('starts from the options, with the preset rules of the control document', async () => {
    await fake({ tokenAuthEnabled: false, latencyMs: 20, rateLimit: 'strict' });
    const { body } = await control<ControlConfig>(app, 'getConfig');
    expect(body).toEqual({ authTokenEnabled: false, requireCsrf: false, latencyMs: 20, operationLatencyMs: {}, rateLimit: { preset: 'strict', rules: presets.strict } });
  });

  it('switches token authentication off and on for the next request', async () => {
    await fake();
    const token = JSON.parse((await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: basicOf('admin') })).body) as string;
    const byToken = () => app.inject({ url: `${API}/users/current?api-token=${token}` });
    expect((await byToken()).statusCode).toBe(200);
    expect((await patch({ authTokenEnabled: false })).body).toMatchObject({ authTokenEnabled: false, requireCsrf: false });
    const refused = await byToken();
    expect(JSON.parse(refused.body)).toMatchObject({ status: 401, code: 'TOKEN_AUTH_DISABLED' });
    expectConforms('getCurrentUser', refused);
    await patch({ authTokenEnabled: true });
    expect((await byToken()).statusCode).toBe(200);
  });

  it('requires x-csrf-token on cookie writes once requireCsrf is on', async () => {
    await fake();
    const login = async () => app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'admin', password: 'admin-password' } });
    const logout = (response: Awaited<ReturnType<typeof login>>, headers: Record<string, string> = {}) =>
      app.inject({ method: 'DELETE', url: `${API}/users/session`, cookies: { sid: cookieValue(response, 'sid') }, headers });
    await patch({ requireCsrf: true });
    const first = await login();
    expect(JSON.parse((await logout(first)).body)).toMatchObject({ status: 403, code: 'CSRF_TOKEN_INVALID' });
    expect((await logout(first, { 'x-csrf-token': cookieValue(first, 'csrf') })).statusCode).toBe(204);
    await patch({ requireCsrf: false });
    expect((await logout(await login())).statusCode).toBe(204);
  });

  it('replaces the rate-limit rules by a preset or by rules, and keeps the fields not given', async () => {
    await fake();
    await patch({ latencyMs: 5 });
    expect((await patch({ rateLimit: { preset: 'strict' } })).body).toEqual({
      authTokenEnabled: true,
      requireCsrf: false,
      latencyMs: 5,
      operationLatencyMs: {},
      rateLimit: { preset: 'strict', rules: presets.strict },
    });
    const rules = [{ key: 'login', limit: 3, windowSeconds: 60, blockSeconds: 120 }];
    expect((await patch({ rateLimit: { rules } })).body.rateLimit).toEqual({ preset: 'custom', rules });
    expect((await patch({ rateLimit: { rules: [] } })).body.rateLimit).toEqual({ preset: 'custom', rules: [] });
  });

  it('refuses an invalid update with 400 INVALID_BODY and changes nothing', async () => {
    await fake();
    const before = (await control<ControlConfig>(app, 'getConfig')).body;
    for (const body of [
      {},
      { latencyMs: -1 },
      { latencyMs: 60_001 },
      { authTokenEnabled: 'no' },
      { requireCsrf: true, surprise: 1 },
      { rateLimit: { preset: 'lenient', rules: [] } },
      { rateLimit: { preset: 'extreme' } },
      { rateLimit: { rules: [{ key: 'ip', limit: 0, windowSeconds: 1, blockSeconds: 1 }] } },
    ]) {
      const { status, body: error } = await patch(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(error, JSON.stringify(body)).toMatchObject({ code: 'INVALID_BODY' });
    }
    const notJson = await control(app, 'updateConfig', { payload: 'latencyMs=5', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    const malformed = await control(app, 'updateConfig', { payload: '{"latencyMs":', headers: { 'content-type': 'application/json' } });
    expect(malformed.body).toMatchObject({ status: 400, code: 'MALFORMED_JSON' });
    expect((await control<ControlConfig>(app, 'getConfig')).body).toEqual(before);
  });

  it('resetState goes back to the start-up configuration, or keeps the current one with keepConfig=true', async () => {
    await fake({ latencyMs: 3 });
    await patch({ latencyMs: 9, requireCsrf: true });
    await control(app, 'resetState', { url: '/__control/reset?keepConfig=true' });
    expect((await control<ControlConfig>(app, 'getConfig')).body).toMatchObject({ latencyMs: 9, requireCsrf: true });
    await control(app, 'resetState');
    expect((await control<ControlConfig>(app, 'getConfig')).body).toMatchObject({ latencyMs: 3, requireCsrf: false });
    // The kept configuration is in force: its rate-limit rules still count requests.
    await patch({ rateLimit: { rules: [{ key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 60 }] } });
    await control(app, 'resetState', { url: '/__control/reset?keepConfig=true' });
    const hit = () => app.inject({ url: `${API}/users/current`, remoteAddress: '198.51.100.4' });
    expect((await hit()).statusCode).toBe(401);
    expect((await hit()).statusCode).toBe(429);
    await control(app, 'resetState');
    expect((await hit()).statusCode).toBe(401);
    expect((await hit()).statusCode).toBe(401);
    const bad = await control(app, 'resetState', { url: '/__control/reset?keepConfig=maybe' });
    expect(bad.body).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
  });
});

describe('added latency', () => {
  it('delays every answer of the monitoring API by latencyMs, and nothing else', async () => {
    const waits: number[] = [];
    await fake({ sleep: async (ms) => void waits.push(ms) });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
    expect(waits).toEqual([]);
    await patch({ latencyMs: 250 });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
    await app.inject({ url: `${API}/users/current` }); // an error answer is delayed too
    await app.inject({ url: `${API}/no-such-path` });
    await app.inject({ url: '/%6Eode/api/users/current', headers: basicOf('admin') }); // however the path is spelled
    expect(waits).toEqual([250, 250, 250, 250]);
    await control(app, 'getConfig');
    await control(app, 'listFaults');
    await app.inject({ url: '/elsewhere' });
    await app.inject({ url: '/%5F_control/config' });
    expect(waits).toEqual([250, 250, 250, 250]);
  });

  it('still delays a faulted call', async () => {
    const waits: number[] = [];
    await fake({ latencyMs: 40, sleep: async (ms) => void waits.push(ms) });
    await control(app, 'injectFault', { payload: { operationId: 'getCurrentUser', count: 1 } });
    expect((await app.inject({ url: `${API}/users/current` })).statusCode).toBe(503);
    expect(waits).toEqual([40]);
  });
});
