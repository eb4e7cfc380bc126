import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../src/fake/create-fake.js';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import { API, basicOf, cookieValue, expectConforms, spec, USERS } from '../helpers.js';
import { checkControlCalls, control, controlSpec } from '../control/helpers.js';
import { listJournal, statedBodyLimits } from './helpers.js';

let app: FakeApp | undefined;
let fake: Fake | undefined;
afterEach(async () => {
  await app?.close();
  await fake?.close();
  app = undefined;
  fake = undefined;
});

const requests = (query = '') => listJournal(app!, query);
const PAGE = `${API}/event-log?limit=100&sortDirection=asc`;
const JOURNAL_BODY_LIMITS = statedBodyLimits(controlSpec.document);

describe('the bodies of successful answers in the request journal', () => {
  it('shows them with every value the document marks x-secret masked: the token in a user record, a new token, a session id', async () => {
    app = await buildFake({ spec, docs: false, records: 20 });
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'admin', password: USERS.admin.password } });
    expectConforms('createSession', login);
    const sid = cookieValue(login, 'sid');
    const created = await app.inject({ method: 'POST', url: `${API}/users/${USERS.admin.id}/auth-token`, headers: basicOf('admin') });
    expectConforms('createAuthToken', created);
    const token = JSON.parse(created.body) as string;
    const current = await app.inject({ url: `${API}/users/current`, cookies: { sid } });
    expectConforms('getCurrentUser', current);
    const user = JSON.parse(current.body) as Record<string, unknown>;
    expect(user.authenticationToken, 'the answer itself carries the token').toBe(token);

    const [userEntry, tokenEntry, sessionEntry] = await requests();
    expect(userEntry).toMatchObject({ operationId: 'getCurrentUser', status: 200 });
    expect(userEntry!.responseBody).toEqual({ ...user, authenticationToken: '[redacted]' });
    expect(tokenEntry).toMatchObject({ operationId: 'createAuthToken', responseBody: '[redacted]' });
    expect(sessionEntry).toMatchObject({ operationId: 'createSession', responseBody: '[redacted]' });

    // Nothing the journal lists, through the control API or fake.requests(), holds a credential.
    const text = JSON.stringify(await requests());
    for (const secret of [token, sid, cookieValue(login, 'csrf'), USERS.admin.password, basicOf('admin').authorization.split(' ')[1]!]) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps the head of a long body only, as text, and says so; a body without secrets is shown as it is', async () => {
    app = await buildFake({ spec, docs: false, records: 200 });
    const small = await app.inject({ url: `${API}/event-log?limit=2`, headers: basicOf('viewer') });
    const page = await app.inject({ url: PAGE, headers: basicOf('viewer') });
    expectConforms('getEventLog', page);
    expect(page.body.length).toBeGreaterThan(JOURNAL_BODY_LIMITS.perBody);
    const [long, short] = await requests();
    expect(short!.responseBody).toEqual(JSON.parse(small.body));
    expect(short).not.toHaveProperty('responseBodyTruncated');
    // The head is counted in bytes of the answer as sent.
    const head = page.rawPayload.subarray(0, JOURNAL_BODY_LIMITS.perBody).toString();
    expect(long).toMatchObject({ status: 200, responseBodyTruncated: true, responseText: head });
    expect(long).not.toHaveProperty('responseBody');
  });

  it.each([
    ['written at once', {}],
    ['streamed', { streamPagesOver: 0 }],
  ])('cuts the head of a long body %s before a character that would not fit whole, never inside it', async (_how, streaming) => {
    app = await buildFake({ spec, docs: false, records: 0, ...streaming });
    const { perBody } = JOURNAL_BODY_LIMITS;
    const euro = Buffer.from('€'); // 3 bytes: two of three cuts fall inside one
    // One record whose text runs past the head; a leading "x" moves the run so the cut falls inside a "€".
    const pageWith = async (pad: string) => {
      const record = { type: 'snmp-trap', agentId: '5867948233835d9661c50001', payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: pad + '€'.repeat(perBody / 2), bindings: [] }, entity: { entityId: '5867948233835d9661c5e001', entityType: 1, entityName: 'core-sw-01' } };
      expect((await control(app!, 'replaceEventLog', { method: 'PUT', payload: [record] })).status).toBe(200);
      const page = await app!.inject({ url: `${API}/event-log`, headers: basicOf('viewer') });
      expectConforms('getEventLog', page);
      return page.rawPayload;
    };
    let raw = await pageWith('');
    if ((raw[perBody]! & 0xc0) !== 0x80) raw = await pageWith('x');
    expect(raw[perBody]! & 0xc0, 'the byte count falls inside a character').toBe(0x80);
    expect(raw.indexOf(euro)).toBeLessThan(perBody);

    const [entry] = await requests('?operationId=getEventLog');
    expect(entry).toMatchObject({ status: 200, responseBodyTruncated: true });
    const text = entry!.responseText!;
    expect(text).not.toContain('\uFFFD');
    expect(raw.toString().startsWith(text)).toBe(true);
    expect(Buffer.byteLength(text)).toBeGreaterThan(perBody - euro.length);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(perBody);
  });

  it('drops the oldest bodies first when the bodies of the journal pass their budget, and says so', async () => {
    fake = await createFake({ spec, docs: false, records: 200 });
    checkControlCalls(fake.app);
    await fake.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    // Each page keeps a head of `perBody`, and URLs count against the budget too: one page more than it holds.
    const fit = Math.floor(JOURNAL_BODY_LIMITS.total / JOURNAL_BODY_LIMITS.perBody) - 1;
    for (let i = 0; i <= fit; i++) await fake.inject({ url: PAGE, headers: basicOf('viewer') });
    const listed = (await fake.requests()).reverse();
    expect(listed).toHaveLength(fit + 2);
    expect(listed.slice(0, 2).map((r) => [r.id, r.responseBodyDropped, r.responseText])).toEqual([
      [1, true, undefined],
      [2, true, undefined],
    ]);
    expect(listed.slice(2).every((r) => r.responseBodyTruncated === true && r.responseText !== undefined && r.responseText.length > JOURNAL_BODY_LIMITS.perBody / 2 && !r.responseBodyDropped)).toBe(true);
    // A clear gives the whole budget back.
    await fake.clearRequests();
    await fake.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expect((await fake.requests())[0]).toMatchObject({ responseBody: { login: 'viewer' } });
  });
});
