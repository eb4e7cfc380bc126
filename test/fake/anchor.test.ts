// Time anchoring: the whole timeline (generated and fixture records, the block log) moves so that
// its newest instant is the anchor, offsets and ids kept; run-time blocks land on the same
// timeline. createFake stays deterministic by default; `serve` ends its data when it starts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { DEFAULT_END_TIME } from '../../src/seed/generate-events.js';
import { createManualClock } from '../../src/shared/clock.js';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';
import { serveBin } from '../helpers/serve-bin.js';

const kitFixtures = JSON.parse(readFileSync(new URL('../../fixtures/events.json', import.meta.url), 'utf8')) as Timed[];
const validator = createSpecValidator(await loadSpec());
const ADMIN = `Basic ${Buffer.from('admin:admin-password').toString('base64')}`;

interface Timed {
  readonly _id?: string;
  readonly timestamp: number;
}

async function get(fake: Fake, operationId: string, url: string): Promise<Timed[]> {
  const response = await fake.inject({ url, headers: { authorization: ADMIN } });
  expect(validator.checkResponse(operationId, { status: response.statusCode, headers: response.headers as Record<string, string>, body: response.body })).toEqual([]);
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as Timed[];
}

async function timeline(options: Parameters<typeof createFake>[0]): Promise<{ events: Timed[]; blocks: Timed[]; newest: number; fake: Fake }> {
  const fake = await createFake({ records: 300, ...options });
  const events = await get(fake, 'getEventLog', '/node/api/event-log');
  const blocks = await get(fake, 'getLimitBlockLog', '/node/api/limit-block-log');
  const newest = Math.max(...events.map((r) => r.timestamp), ...blocks.map((r) => r.timestamp));
  return { events, blocks, newest, fake };
}

const offsets = (records: readonly Timed[], from: number) => records.map((r) => r.timestamp - from);

describe('the anchor', () => {
  it('createFake is deterministic by default: the data ends at the fixed instant', async () => {
    const a = await timeline({});
    const b = await timeline({});
    try {
      expect(JSON.stringify(a.events)).toBe(JSON.stringify(b.events));
      expect(a.newest).toBeLessThanOrEqual(DEFAULT_END_TIME);
      expect(a.newest).toBeGreaterThan(DEFAULT_END_TIME - 86_400_000);
    } finally {
      await a.fake.close();
      await b.fake.close();
    }
  });

  it('moves every record of both logs so the newest is the anchor, with the same offsets and ids', async () => {
    const plain = await timeline({});
    const anchor = Date.UTC(2030, 0, 2, 3, 4, 5, 6);
    const moved = await timeline({ anchor: '2030-01-02T03:04:05.006Z' });
    try {
      expect(moved.newest).toBe(anchor);
      expect(moved.events.map((r) => r._id)).toEqual(plain.events.map((r) => r._id));
      expect(offsets(moved.events, anchor)).toEqual(offsets(plain.events, plain.newest));
      expect(offsets(moved.blocks, anchor)).toEqual(offsets(plain.blocks, plain.newest));
      // The kit's fixtures move with the generated records.
      const [fixture] = kitFixtures;
      expect(moved.events.find((r) => r._id === fixture!._id)?.timestamp).toBe(fixture!.timestamp + anchor - plain.newest);
      for (const a of [Date.UTC(2030, 0, 2, 3, 4, 5, 6), new Date(anchor)]) {
        const again = await timeline({ anchor: a });
        expect(JSON.stringify(again.events)).toBe(JSON.stringify(moved.events));
        await again.fake.close();
      }
    } finally {
      await plain.fake.close();
      await moved.fake.close();
    }
  });

  it('`now` is the clock at start, and blocks made at run time follow the seeded ones on that timeline', async () => {
    const clock = createManualClock(Date.UTC(2031, 5, 1));
    const start = clock.now();
    const t = await timeline({ anchor: 'now', clock, rateLimit: [{ key: 'uri', limit: 2, windowSeconds: 10, blockSeconds: 60 }] });
    try {
      expect(t.newest).toBe(start);
      clock.advance(5_000);
      for (let i = 0; i < 3; i++) {
        const response = await t.fake.inject({ url: '/node/api/users/current', headers: { authorization: ADMIN } });
        expect(validator.checkResponse('getCurrentUser', { status: response.statusCode, headers: response.headers as Record<string, string>, body: response.body })).toEqual([]);
        expect(response.statusCode).toBe(i < 2 ? 200 : 429);
      }
      const blocks = await get(t.fake, 'getLimitBlockLog', '/node/api/limit-block-log');
      expect(blocks.length).toBe(t.blocks.length + 1);
      expect(blocks.at(-1)!.timestamp).toBe(start + 5_000);
      expect(blocks.slice(0, -1)).toEqual(t.blocks);
    } finally {
      await t.fake.close();
    }
  });

  it('refuses what is not an instant, and an anchor that would put the data before 1970', async () => {
    await expect(createFake({ anchor: 'yesterday' })).rejects.toThrow(/expected "now", an ISO date-time/);
    await expect(createFake({ anchor: 1000 })).rejects.toThrow(/would start before 1970/);
  });
});

describe('serve and the anchor', () => {
  /** The newest instant of the data: of the event log's newest record and the block log's. */
  const newestOf = async (baseUrl: string): Promise<number> => {
    const newest: number[] = [];
    for (const [operationId, path] of [['getEventLog', '/event-log?sortField=timestamp&sortDirection=desc&limit=1'], ['getLimitBlockLog', '/limit-block-log']] as const) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: ADMIN } });
      const body = await response.text();
      expect(validator.checkResponse(operationId, { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
      newest.push(...(JSON.parse(body) as Timed[]).map((r) => r.timestamp));
    }
    return Math.max(...newest);
  };

  it('ends the seeded data when the server starts, and --anchor pins it for byte-identical runs', async () => {
    const before = Date.now();
    const served = await serveBin([]);
    try {
      const newest = await newestOf(served.baseUrl);
      expect(newest).toBeGreaterThanOrEqual(before);
      expect(newest).toBeLessThanOrEqual(Date.now());
    } finally {
      await served.stop();
    }
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const pinned = await serveBin(['--anchor', '2030-01-01T00:00:00Z']);
      try {
        expect(await newestOf(pinned.baseUrl)).toBe(Date.UTC(2030, 0, 1));
        for (const [operationId, path] of [['getEventLog', '/event-log'], ['getLimitBlockLog', '/limit-block-log']] as const) {
          const response = await fetch(`${pinned.baseUrl}${path}`, { headers: { authorization: ADMIN } });
          const body = await response.text();
          expect(validator.checkResponse(operationId, { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
          bodies.push(body);
        }
      } finally {
        await pinned.stop();
      }
    }
    expect(bodies[2]).toBe(bodies[0]);
    expect(bodies[3]).toBe(bodies[1]);
  }, 60_000);
});
