import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { createManualClock } from '../../src/shared/clock.js';
import type { Snapshot, StateSummary } from '../../src/spec/control-types.js';
import type { EventLogRecord } from '../../src/spec/types.js';
import { control } from './control/helpers.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';

// Large enough to be made in many turns (the store makes 2,000 records a turn), small enough for a test.
const RECORDS = 200_000;
// The default fixtures (fixtures/events.json) come on top.
const FIXTURES = 7;

const apps: FakeApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function fakeOf(records = RECORDS): Promise<FakeApp> {
  const app = await buildFake({ spec, records, docs: false });
  apps.push(app);
  return app;
}

/** The requests' answers, and the order in which they came. */
function inOrder() {
  const order: string[] = [];
  const track = (name: string, answer: Promise<LightMyRequestResponse>) => answer.then((response) => (order.push(name), response));
  return { order, track };
}

const eventLog = (app: FakeApp, query = '') => app.inject({ url: `${API}/event-log${query}`, headers: basicOf('viewer') });
const currentUser = (app: FakeApp) => app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
const logIn = (app: FakeApp) => app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'operator', password: 'operator-password' } });

/** Asks for the event log, and returns its answer to come once the records are being made in turns. */
async function firstCall(app: FakeApp, query = '?limit=1', track = (_: string, answer: Promise<LightMyRequestResponse>) => answer): Promise<{ answer: Promise<LightMyRequestResponse> }> {
  const answer = track('event-log', eventLog(app, query));
  while (app.fake.state.data.events.status === 'pending') await new Promise((resolve) => setImmediate(resolve));
  expect(app.fake.state.data.events.status).toBe('making');
  return { answer };
}

/** The whole log's digest (the records in order, byte for byte), and its size; read at once. */
function digest(app: FakeApp): { size: number; sha256: string } {
  const hash = createHash('sha256');
  const records = app.fake.state.data.events.snapshot();
  for (const record of records) hash.update(JSON.stringify(record)).update('\n');
  return { size: records.length, sha256: hash.digest('hex') };
}

/** A fake whose records a caller that cannot wait had made at once (the store's synchronous path). */
async function madeAtOnce(): Promise<FakeApp> {
  const app = await fakeOf();
  expect(app.fake.state.data.events.size).toBe(RECORDS + FIXTURES);
  expect(app.fake.state.data.events.status).toBe('ready');
  return app;
}

const QUERIES = ['?limit=50', '?skip=100000&limit=50', '?type=2&sortDirection=desc&limit=50', '?filter={"agentId":"a-core-sw-01"}&limit=20'];

describe('a large seed is made in turns of the event loop', () => {
  it('answers other requests while the first event-log call waits, then the records the synchronous path makes', async () => {
    const app = await fakeOf();
    expect(app.fake.state.data.events.status).toBe('pending');
    const { order, track } = inOrder();
    const { answer: first } = await firstCall(app, QUERIES[0], track);
    const user = await track('users/current', currentUser(app));
    const session = await track('session', logIn(app));
    // Answered while the records were still being made, and before the event log call.
    expect(app.fake.state.data.events.status).toBe('making');
    expect(order).toEqual(['users/current', 'session']);
    expectConforms('getCurrentUser', user);
    expect(user.statusCode).toBe(200);
    expectConforms('createSession', session);
    expect(session.statusCode).toBe(200);

    const answer = await first;
    expect(order).toEqual(['users/current', 'session', 'event-log']);
    expectConforms('getEventLog', answer);
    expect(answer.statusCode).toBe(200);
    expect(app.fake.state.data.events.status).toBe('ready');

    const atOnce = await madeAtOnce();
    expect(answer.body).toBe((await eventLog(atOnce, QUERIES[0])).body);
    for (const query of QUERIES.slice(1)) {
      const [mine, theirs] = await Promise.all([eventLog(app, query), eventLog(atOnce, query)]);
      expectConforms('getEventLog', mine);
      expect(mine.statusCode).toBe(200);
      expect(mine.body).toBe(theirs.body);
    }
    expect(digest(app)).toEqual(digest(atOnce));
  });

  it('keeps the order of writes that came while the records were made: an add, then a reset, then another add', async () => {
    const app = await fakeOf();
    const trap = { type: 'snmp-trap', agentId: 'a1', payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 'linkDown', bindings: [] }, entity: { entityId: 'e1', entityType: 1, entityName: 'core-sw-01' } };
    const { order, track } = inOrder();
    const { answer: first } = await firstCall(app);
    // A few turns apart (a turn makes 2,000 of the 200,000 records), so that each reaches its handler before the next comes.
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const added = track('add', control<EventLogRecord[]>(app, 'addEventLogRecords', { payload: [{ ...trap, _id: '0000000000000000000000a1' }] }).then((c) => c.response));
    await turns(3);
    const reset = track('reset', control<StateSummary>(app, 'resetState').then((c) => c.response));
    await turns(3);
    const addedAfter = track('add after', control<EventLogRecord[]>(app, 'addEventLogRecords', { payload: [{ ...trap, _id: '0000000000000000000000a2' }] }).then((c) => c.response));
    await turns(3);
    await track('users/current', currentUser(app));
    expect(app.fake.state.data.events.status).toBe('making');
    await Promise.all([first, added, reset, addedAfter]);
    expect(order).toEqual(['users/current', 'add', 'reset', 'add after']);
    expect((await added).statusCode).toBe(201);
    expect(JSON.parse((await reset).body)).toMatchObject({ eventLogRecords: RECORDS + FIXTURES });
    expect((await addedAfter).statusCode).toBe(201);

    const found = async (id: string) => JSON.parse((await eventLog(app, `?filter={"_id":"${id}"}`)).body) as EventLogRecord[];
    expect(await found('0000000000000000000000a1')).toEqual([]); // the reset after it took it away
    expect(await found('0000000000000000000000a2')).toHaveLength(1);
    const summary = await control<StateSummary>(app, 'resetState');
    expect(summary.body.eventLogRecords).toBe(RECORDS + FIXTURES);
    expect(digest(app)).toEqual(digest(await madeAtOnce()));
  });

  it('imports a snapshot that came while the records were made, and a reset then goes back to them', async () => {
    const small = await fakeOf(20);
    const snapshot = (await control<Snapshot>(small, 'exportSnapshot')).body;
    const app = await fakeOf();
    const { order, track } = inOrder();
    const { answer: first } = await firstCall(app);
    const imported = track('import', control<StateSummary>(app, 'importSnapshot', { method: 'PUT', payload: snapshot }).then((c) => c.response));
    await track('users/current', currentUser(app));
    expect(app.fake.state.data.events.status).toBe('making');
    expect(JSON.parse((await imported).body)).toMatchObject({ eventLogRecords: 20 + FIXTURES });
    expect(order).toEqual(['users/current', 'import']);
    expect((await first).statusCode).toBe(200);
    expect(JSON.parse((await eventLog(app)).body)).toEqual(snapshot.eventLog);
    expect((await control<StateSummary>(app, 'resetState')).body.eventLogRecords).toBe(RECORDS + FIXTURES);
    expect(digest(app)).toEqual(digest(await madeAtOnce()));
  });

  it('answers the requests still waiting when the fake closes, with the Error body, and makes no more', async () => {
    const app = await fakeOf();
    const { answer: waiting } = await firstCall(app);
    await currentUser(app);
    expect(app.fake.state.data.events.status).toBe('making');
    await app.close();
    const body = expectError(await waiting, 500, 'INTERNAL_ERROR');
    expect(body.message).toBe("The fake closed before the event log's records were made.");
    expect(app.fake.state.data.events.status).toBe('failed');
  });
});

describe('a listening fake', () => {
  let fake: Fake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('starts making the records once it has answered its first request, and answers meanwhile', async () => {
    fake = await createFake({ spec, records: RECORDS, docs: false });
    const { events } = fake.app.fake.state.data;
    expect(events.status).toBe('pending');
    const { baseUrl } = await fake.listen();
    await turn();
    expect(events.status).toBe('pending');
    const first = await fetch(`${baseUrl}/users/current`, { headers: basicOf('viewer') });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    while (events.status === 'pending') await turn();
    expect(events.status).toBe('making');
    const user = await fetch(`${baseUrl}/users/current`, { headers: basicOf('viewer') });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ login: 'viewer' });
    expect(events.status).toBe('making');
    await events.ready();
    const answer = await fetch(`${baseUrl}/event-log?limit=5`, { headers: basicOf('viewer') });
    expect(answer.status).toBe(200);
    expect((await answer.json()) as EventLogRecord[]).toHaveLength(5);
  });

  it('starts making them shortly after listening when no request comes', async () => {
    fake = await createFake({ spec, records: RECORDS, docs: false });
    const { events } = fake.app.fake.state.data;
    await fake.listen();
    while (events.status === 'pending') await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events.status).toBe('making');
  });

  it('closes while making them, and stops', async () => {
    fake = await createFake({ spec, records: RECORDS, docs: false });
    const { baseUrl } = await fake.listen();
    await (await fetch(`${baseUrl}/users/current`, { headers: basicOf('viewer') })).arrayBuffer();
    const { events } = fake.app.fake.state.data;
    while (events.status === 'pending') await turn();
    expect(events.status).toBe('making');
    await fake.close();
    expect(events.status).toBe('failed');
    await expect(events.ready()).rejects.toThrow(/closed while/);
    await turn();
    expect(process.getActiveResourcesInfo()).not.toContain('Immediate');
  });

  it('stores live records that come while the records are made after them, with their ids and times, as when made at once', async () => {
    const logOf = async (makeAtOnce: boolean) => {
      const clock = createManualClock(Date.UTC(2025, 8, 1, 1));
      const ticks: (() => void)[] = [];
      const live = await createFake({
        spec, docs: false, records: RECORDS, clock, liveRate: 5,
        timers: { setInterval: (tick) => ticks.push(tick), clearInterval: () => ticks.splice(0) },
      });
      try {
        const { events } = live.app.fake.state.data;
        if (makeAtOnce) expect(events.size).toBe(RECORDS + FIXTURES);
        const first = live.inject({ url: `${API}/event-log?limit=1`, headers: basicOf('viewer') });
        for (let i = 0; i < 3; i++) {
          clock.advance(1000);
          ticks.forEach((tick) => tick());
        }
        expect(events.status).toBe(makeAtOnce ? 'ready' : 'making');
        expect((await first).statusCode).toBe(200);
        const newest = await live.inject({ url: `${API}/event-log?sortDirection=desc&limit=20`, headers: basicOf('viewer') });
        expectConforms('getEventLog', newest);
        return newest.body;
      } finally {
        await live.close();
      }
    };
    const inTurns = await logOf(false);
    expect(JSON.parse(inTurns).filter((r: EventLogRecord) => r.timestamp > Date.UTC(2025, 8, 1, 1))).toHaveLength(15);
    expect(inTurns).toBe(await logOf(true));
  });
});
