// @vitest-environment jsdom
// A page's session log-in as a browser keeps it: the session cookie HttpOnly (kept by the
// handlers, never in document.cookie), the csrf cookie readable by the page when the API is on
// the page's host, and `credentials` deciding whether a request carries them.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFake, type EventLogRecord, type Fake } from '../../src/index.js';
import { handlersFor, type FakeHandlers } from '../../src/msw/index.js';

let fake: Fake;
let sameOrigin: FakeHandlers;
let otherOrigin: FakeHandlers;
let server: ReturnType<typeof setupServer>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  fake = await createFake({ records: 20, docs: false });
  sameOrigin = handlersFor(fake, { baseUrl: location.origin });
  otherOrigin = handlersFor(fake, { baseUrl: 'http://api.test' });
  server = setupServer(...sameOrigin, ...otherOrigin);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await fake.close();
});
beforeEach(async () => {
  await fake.reset();
  sameOrigin.clearCookies();
  otherOrigin.clearCookies();
});

const logIn = (base: string, credentials: RequestCredentials = 'include') =>
  fetch(`${base}/node/api/users/session`, { method: 'POST', headers: json, body: '{"login":"operator","password":"operator-password"}', credentials });
const csrfCookie = () => /(?:^|; )csrf=([^;]*)/.exec(document.cookie)?.[1];

describe('session cookies through the MSW handlers in jsdom', () => {
  it('logs in on the page origin: the page reads the csrf cookie, not the HttpOnly session cookie', async () => {
    expect(location.origin).toMatch(/^http:\/\/localhost/);
    expect((await logIn('')).status).toBe(200);
    expect(csrfCookie()).toMatch(/.+/);
    expect(document.cookie).not.toMatch(/sid=/);
    const me = await fetch('/node/api/users/current', { credentials: 'include' });
    expect(await me.json()).toMatchObject({ login: 'operator' });
    // The default, 'same-origin', carries them too on the page's own origin.
    expect((await fetch('/node/api/users/current')).status).toBe(200);

    sameOrigin.clearCookies();
    expect(csrfCookie()).toBeUndefined();
    expect((await fetch('/node/api/users/current', { credentials: 'include' })).status).toBe(401);
  });

  it('sends the csrf value back where the fake requires it', async () => {
    await fake.setConfig({ requireCsrf: true });
    await logIn('');
    const [trap] = (await (await fetch('/node/api/event-log?type=1&limit=1')).json()) as EventLogRecord[];
    const patch = (headers: Record<string, string>) =>
      fetch(`/node/api/event-log/${trap!._id}/payload`, { method: 'PATCH', headers: { ...json, ...headers }, body: '{"text":"acknowledged"}', credentials: 'include' });
    expect((await patch({})).status).toBe(403);
    expect((await patch({ 'x-csrf-token': csrfCookie()! })).status).toBe(204);
  });

  it("on another origin: 'include' carries the cookie, 'same-origin' does not, and the page cannot read it", async () => {
    expect((await logIn('http://api.test')).status).toBe(200);
    expect(csrfCookie()).toBeUndefined();
    expect((await fetch('http://api.test/node/api/users/current', { credentials: 'include' })).status).toBe(200);
    expect((await fetch('http://api.test/node/api/users/current')).status).toBe(401);
    // Cookies the log-in set without credentials are not kept.
    otherOrigin.clearCookies();
    await logIn('http://api.test', 'same-origin');
    expect((await fetch('http://api.test/node/api/users/current', { credentials: 'include' })).status).toBe(401);
  });
});
