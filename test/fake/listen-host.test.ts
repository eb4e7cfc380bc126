import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { rawRequest } from '../helpers/raw-http.js';
import { API, basicOf, expectConforms, spec, validator } from '../server/helpers.js';

// A fake that listens on a name the machine has answers that name, as `serve --host` does:
// the API, the docs and the control API; an address of every interface names no host.

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The machine's own name, when it resolves (it does in containers and on CI runners); else none. */
const NAME = hostname().toLowerCase();
const resolves = NAME !== 'localhost' && (await lookup(NAME).then(() => true, () => false));
if (!resolves && process.env.CI === 'true') throw new Error(`The machine's name ${JSON.stringify(NAME)} does not resolve: the listen-host test needs it to.`);

const currentUser = (host: string) => fake!.inject({ url: `${API}/users/current`, headers: { ...basicOf('admin'), host } });
const controlConfig = (host: string) => fake!.inject({ url: '/__control/config', headers: { host } });

describe('createFake(...).listen({ host })', () => {
  it.runIf(resolves)("answers the host it listens on, as serve's --host: the API, the docs, the control API", async () => {
    fake = await createFake({ spec, records: 5 });
    const host = `${NAME}:4010`;
    // Before it listens there, the name is a foreign one.
    expect((await currentUser(host)).statusCode).toBe(403);
    expect((await controlConfig(host)).statusCode).toBe(403);

    const urls = await fake.listen({ host: NAME });
    expect(urls.origin).toBe(`http://${NAME}:${new URL(urls.origin).port}`);
    const own = new URL(urls.origin).host;
    for (const header of [own, host, NAME.toUpperCase()]) {
      const answer = await currentUser(header);
      expect(answer.statusCode, header).toBe(200);
      expectConforms('getCurrentUser', answer);
      expect((await controlConfig(header)).statusCode, header).toBe(200);
      expect((await fake.inject({ url: '/docs', headers: { host: header } })).statusCode, header).toBe(200);
    }
    // Over the socket, by the URLs it tells (not the control API: the name may resolve to an address that is not loopback).
    const overHttp = await fetch(`${urls.baseUrl}/users/current`, { headers: basicOf('admin') });
    expect(overHttp.status).toBe(200);
    expect((await overHttp.json()).login).toBe('admin');
    // Its name only: a name that merely starts with it is still foreign.
    const foreign = await rawRequest(urls.origin, { path: `${API}/users/current`, headers: { ...basicOf('admin'), host: `${NAME}.evil.example` } });
    expect(foreign.statusCode).toBe(403);
    expect(validator.validateNamed('Error', JSON.parse(foreign.body))).toEqual([]);
  });

  it('adds no name for an address of every interface (0.0.0.0)', async () => {
    fake = await createFake({ spec, docs: false, records: 5 });
    const urls = await fake.listen({ host: '0.0.0.0' });
    const port = new URL(urls.origin).port;
    // The control API answers loopback names only; 0.0.0.0 is none, listening on it or not.
    const answer = await controlConfig(`0.0.0.0:${port}`);
    expect(answer.statusCode).toBe(403);
    expect(validator.validateNamed('Error', JSON.parse(answer.body))).toEqual([]);
    expect((await controlConfig(`127.0.0.1:${port}`)).statusCode).toBe(200);
    expect((await currentUser('fake.test')).statusCode).toBe(403);
  });
});
