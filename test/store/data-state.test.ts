import { beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { defaultEventFixturesPath, loadEventFixtures } from '../../src/seed/fixtures.js';
import { seedRecords } from '../../src/seed/seed-records.js';
import { controlApiPath, createSpecValidator, loadSpec, rateLimitPresets } from '../../src/spec/index.js';
import type { EventLogRecord } from '../../src/spec/types.js';
import { createState, type StateOptions } from '../../src/store/state.js';

const presets = rateLimitPresets(await loadSpec(controlApiPath));

/** The state with no users: its data (event log, block log, limiter) and the reset. */
const dataState = (data: StateOptions['data'], clock = createManualClock()) => {
  const state = createState({ clock, users: [], sessions: { max: 10, maxPerUser: 10, idleSeconds: 60 }, data });
  return { ...state.data, reset: state.reset };
};

describe('the data state', () => {
  let fixtures: EventLogRecord[];
  beforeAll(async () => {
    fixtures = await loadEventFixtures([defaultEventFixturesPath], createSpecValidator(await loadSpec()));
  });

  it('seeds the event log with the default seed and the fixtures; pages hold every record exactly once', () => {
    const state = dataState(seedRecords({ fixtures }));
    expect(state.events.size).toBe(1000 + fixtures.length);
    for (const f of fixtures) expect(state.events.get(f._id)).toEqual(f);
    for (const [direction, inverse] of [['asc', 'false'], ['desc', 'false'], ['asc', 'true']] as const) {
      const seen: string[] = [];
      for (let skip = 0; skip < state.events.size + 50; skip += 50) {
        seen.push(...state.events.query({ skip, limit: 50, sortDirection: direction, inverse: inverse === 'true' }).map((r) => r._id));
      }
      expect(seen).toHaveLength(state.events.size);
      expect(new Set(seen).size).toBe(state.events.size);
      const times = seen.map((id) => state.events.get(id)?.timestamp as number);
      const ascending = (direction === 'asc') !== (inverse === 'true');
      expect(times).toEqual([...times].sort((a, b) => (ascending ? a - b : b - a)));
    }
    expect(state.blocks.size).toBe(40);
  });

  it('records the blocks the limiter activates and resets everything to the seed', () => {
    const clock = createManualClock(Date.UTC(2025, 8, 2));
    const state = dataState({ ...seedRecords({ count: 20 }), rateLimit: { preset: 'strict', rules: [...presets.strict] } }, clock);
    const seedBlocks = state.blocks.snapshot();
    const request = { ip: '203.0.113.50', uri: '/node/api/event-log' };
    const ipRule = state.limiter.settings().rules.find((r) => r.key === 'ip');
    if (!ipRule) throw new Error('the strict preset has an ip rule');
    for (let i = 0; i < ipRule.limit; i++) expect(state.admit(request).allowed).toBe(true);
    const record = { ip: '203.0.113.50', timestamp: clock.now(), ttl: ipRule.blockSeconds };
    expect(state.admit(request)).toEqual({ allowed: false, retryAfterSeconds: ipRule.blockSeconds, newBlocks: [record] });
    expect(state.admit(request)).toMatchObject({ allowed: false, newBlocks: [] });
    expect(state.blocks.query({ ip: true, from: clock.now() })).toEqual([record]);
    state.limiter.setRules([]);
    const trap = state.events.query({ type: 'snmp-trap', limit: 1 })[0] as EventLogRecord;
    state.events.updatePayload(trap._id, { text: 'changed' });
    state.reset();
    expect(state.blocks.snapshot()).toEqual(seedBlocks);
    expect(state.events.get(trap._id)).toEqual(trap);
    expect(state.limiter.settings().preset).toBe('strict');
    expect(state.limiter.activeBlocks()).toEqual([]);
    expect(state.admit(request).allowed).toBe(true);
  });
});
