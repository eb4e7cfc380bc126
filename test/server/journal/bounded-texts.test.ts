import { afterEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import { API, basicOf, expectConforms, spec } from '../helpers.js';
import { controlSpec } from '../control/helpers.js';
import { controlCopy } from './control-copy.js';
import { listJournal, statedBodyLimits } from './helpers.js';

// Every text the journal keeps is bounded, error answers' too: anonymous log-ins whose bodies
// hold thousands of fields the document does not allow each get an error answer naming them,
// and a journal that kept those answers whole grew without bound, and its reading with it.

let app: FakeApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const LIMITS = statedBodyLimits(controlSpec.document);
/** What a record shows besides its texts (id, time, status, method…), with room to spare. */
const RECORD_FIELDS = 400;

/** A log-in body with `extra` fields the document does not allow. */
function logInWith(extra: number): string {
  const body: Record<string, string> = { login: 'nobody', password: 'wrong-password' };
  for (let i = 0; i < extra; i++) body[`f${i}`] = '';
  return JSON.stringify(body);
}

describe("the journal's texts", () => {
  it('stay within the budget the control document states, whatever the answers hold; the journal reads small and the fake answers', async () => {
    app = await buildFake({ spec, docs: false, records: 20 });
    const payload = logInWith(1000);
    const requests = 80;
    let answered = 0;
    for (let i = 0; i < requests; i++) {
      const refused = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json' }, payload });
      expect(refused.statusCode).toBe(400);
      answered += refused.body.length;
    }
    const listed = await app.inject({ url: '/__control/requests' });
    expect(listed.statusCode).toBe(200);
    const records = JSON.parse(listed.body) as unknown[];
    expect(records).toHaveLength(requests);
    // The reading stays within the budget (escapes aside), however long the answers were.
    expect(listed.body.length).toBeLessThan(Math.min(answered, LIMITS.total * 1.1) + records.length * RECORD_FIELDS);

    // The fake still answers, and the journal keeps the next answer whole.
    const current = await app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expectConforms('getCurrentUser', current);
    const [last] = await listJournal(app, '?limit=1');
    expect(last).toMatchObject({ operationId: 'getCurrentUser', status: 200, responseBody: { login: 'viewer' } });
  });

  it("of an error answer longer than the head the journal keeps are that head, as text, and count against the budget", async () => {
    const controlSpec = await controlCopy([
      { key: 'maxLength', was: 32768, now: 200 },
      { key: 'x-journal-max-length', was: 2097152, now: 1000 },
    ]);
    app = await buildFake({ spec, controlSpec, docs: false, records: 0 });
    const payload = logInWith(50);
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push((await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json' }, payload })).body);
    expect(answers[0]!.length).toBeGreaterThan(200);
    const records = JSON.parse((await app.inject({ url: '/__control/requests' })).body) as { id: number; error?: unknown; responseText?: string }[];
    expect(records[0]).toMatchObject({ id: 6, status: 400, responseBodyTruncated: true, responseText: answers[5]!.slice(0, 200) });
    expect(records[0]).not.toHaveProperty('error');
    // 6 heads of 200 and their URLs pass 1000: the oldest heads are dropped.
    expect(records.at(-1)).toMatchObject({ id: 1, responseBodyDropped: true });
  });

  it('drop the oldest requests when their URLs alone pass the budget', async () => {
    app = await buildFake({ spec, docs: false, records: 0, journalSize: 100_000 });
    const long = 'x'.repeat(2000);
    const requests = Math.ceil((LIMITS.total * 1.5) / long.length);
    for (let i = 0; i < requests; i++) expect((await app.inject({ url: `${API}/nothing-here/${i}?q=${long}` })).statusCode).toBe(404);
    const records = await listJournal(app);
    const kept = records.reduce((sum, r) => sum + r.url.length, 0);
    expect(kept).toBeLessThanOrEqual(LIMITS.total);
    expect(records.length).toBeLessThan(requests);
    expect(records[0]).toMatchObject({ id: requests, status: 404 });
  });
});
