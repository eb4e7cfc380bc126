import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../src/fake/create-fake.js';
import { buildFake } from '../../../src/server/build.js';
import type { Snapshot } from '../../../src/spec/control-types.js';
import { rawRequest, type RawAnswer } from '../../helpers/raw-http.js';
import { API, spec } from '../helpers.js';
import { control, expectControlConforms } from './helpers.js';
import { everyControlCall, PLANTED_TOKEN, stateOf, type ControlCall } from './hostile-calls.js';

const WRONG_HOST = 'The control API answers only requests whose Host names this server.';
const WRONG_ORIGIN = 'The control API does not answer pages of this origin.';

let fake: Fake;
let origin: string;
let port: string;
let before: Snapshot;
let calls: ControlCall[];

beforeAll(async () => {
  fake = await createFake({ spec, docs: false, records: 20 });
  ({ origin } = await fake.listen());
  port = new URL(origin).port;
  await fake.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'viewer-password' } });
  const fault = await fake.injectFault({ operationId: 'getEventLog', count: 3 });
  before = await fake.snapshot();
  calls = everyControlCall(before, fault.id);
});
afterAll(() => fake.close());

const asResponse = (answer: RawAnswer) => answer as unknown as LightMyRequestResponse;

function send(call: ControlCall, headers: Record<string, string>) {
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return rawRequest(origin, { method: call.method, path: call.path, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
}

function expectRefused(call: ControlCall, answer: RawAnswer, message: string) {
  expect(answer.statusCode, `${call.method} ${call.path}: ${answer.body}`).toBe(403);
  expect(JSON.parse(answer.body)).toEqual({ status: 403, code: 'PERMISSION_DENIED', message });
  expectControlConforms(call.operationId, asResponse(answer));
}

async function expectNothingChanged() {
  expect(stateOf(await fake.snapshot())).toEqual(stateOf(before));
  expect((await fake.inject({ url: `${API}/users/current?api-token=${PLANTED_TOKEN}` })).statusCode).toBe(401);
}

describe('a DNS-rebinding page (its own name resolved to 127.0.0.1)', () => {
  it('is refused every control operation, with or without an Origin that matches its Host, and changes nothing', async () => {
    const rebound = `evil.example:${port}`;
    for (const call of calls) {
      // A same-origin GET from the page carries no Origin at all.
      for (const headers of [{ host: rebound, origin: `http://${rebound}` }, { host: rebound }] as Record<string, string>[]) {
        expectRefused(call, await send(call, headers), WRONG_HOST);
      }
    }
    await expectNothingChanged();
  });
});

describe('the Host values the control API accepts', () => {
  const config = () => calls.find((c) => c.operationId === 'getConfig')!;

  it('names of this server: localhost and loopback addresses, with any port or none, and their own pages', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `LocalHost:${port}`, '127.8.9.10:9', `[::1]:${port}`, '[::1]']) {
      for (const headers of [{ host }, { host, origin: `http://${host}` }] as Record<string, string>[]) {
        const answer = await send(config(), headers);
        expect(answer.statusCode, JSON.stringify(headers)).toBe(200);
        expectControlConforms('getConfig', asResponse(answer));
      }
    }
  });

  it('refuses every other name, however close to a loopback one', async () => {
    const others = [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost.:${port}`,
      `[::2]:${port}`,
      `10.0.0.1:${port}`,
      `0.0.0.0:${port}`,
      `localhost:${port}@evil.example`,
      `user@localhost:${port}`,
    ];
    for (const host of others) expectRefused(config(), await send(config(), { host }), WRONG_HOST);
  });

  it('refuses a page of a foreign origin even when the Host is right', async () => {
    for (const foreign of ['https://evil.example', 'null', `http://evil.example:${port}`, `http://127.0.0.1.nip.io:${port}`]) {
      expectRefused(config(), await send(config(), { host: `127.0.0.1:${port}`, origin: foreign }), WRONG_ORIGIN);
    }
  });
});

describe('configured control hosts', () => {
  it('accepts the names given (and their own pages), and still refuses foreign pages and other names', async () => {
    const app = await buildFake({ spec, docs: false, records: 20, controlHosts: ['fake.test', '192.0.2.7'] });
    try {
      for (const host of ['fake.test:4010', 'FAKE.test', '192.0.2.7:4010']) {
        expect((await control(app, 'getConfig', { headers: { host, origin: `http://${host}` } })).status, host).toBe(200);
      }
      const foreignPage = await control(app, 'getConfig', { headers: { host: 'fake.test:4010', origin: 'http://other.test:4010' } });
      expect(foreignPage.body).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: WRONG_ORIGIN });
      for (const host of ['fake.test.evil.example:4010', 'other.test:4010']) {
        const answer = await control(app, 'getConfig', { headers: { host, origin: `http://${host}` } });
        expect(answer.body, host).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: WRONG_HOST });
      }
    } finally {
      await app.close();
    }
  });
});
