import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../../src/server/build.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { spec } from '../helpers.js';
import { control, expectControlConforms } from './helpers.js';
import { expectRefused, jsonOf, startTarget, type ControlCall, type Target } from './hostile-calls.js';

const WRONG_HOST = 'The control API answers only requests whose Host names this server.';
const WRONG_ORIGIN = 'The control API does not answer pages of this origin.';

let target: Target;
let port: string;
beforeAll(async () => {
  target = await startTarget();
  port = new URL(target.origin).port;
});
afterAll(() => target.fake.close());

function send(call: ControlCall, headers: Record<string, string>) {
  const json = jsonOf(call);
  return rawRequest(target.origin, { method: call.method, path: call.path, headers: { ...headers, ...json.headers }, body: json.body });
}

describe('a DNS-rebinding page (its own name resolved to 127.0.0.1)', () => {
  it('is refused every control operation, with or without an Origin that matches its Host, and changes nothing', async () => {
    const rebound = `evil.example:${port}`;
    for (const call of target.calls) {
      // A same-origin GET from the page carries no Origin at all.
      for (const headers of [{ host: rebound, origin: `http://${rebound}` }, { host: rebound }] as Record<string, string>[]) {
        expectRefused(call, call.path, await send(call, headers), WRONG_HOST);
      }
    }
    await target.expectUnchanged();
  });
});

describe('the Host values the control API accepts', () => {
  const config = () => target.calls.find((c) => c.operationId === 'getConfig')!;

  it('names of this server: localhost and loopback addresses, with any port or none, and their own pages', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `LocalHost:${port}`, '127.8.9.10:9', `[::1]:${port}`, '[::1]']) {
      for (const headers of [{ host }, { host, origin: `http://${host}` }] as Record<string, string>[]) {
        const answer = await send(config(), headers);
        expect(answer.statusCode, JSON.stringify(headers)).toBe(200);
        expectControlConforms('getConfig', answer as unknown as LightMyRequestResponse);
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
    ];
    for (const host of others) expectRefused(config(), config().path, await send(config(), { host }), WRONG_HOST);
  });

  it('refuses a page of a foreign origin even when the Host is right', async () => {
    for (const foreign of ['https://evil.example', 'null', `http://evil.example:${port}`, `http://127.0.0.1.nip.io:${port}`]) {
      expectRefused(config(), config().path, await send(config(), { host: `127.0.0.1:${port}`, origin: foreign }), WRONG_ORIGIN);
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
