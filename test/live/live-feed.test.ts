import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { startLiveFeed, type FeedTimers } from '../../src/live/live-feed.js';
import type { EventLogRecord } from '../../src/spec/types.js';
import { validator } from '../server/helpers.js';

/** Timers whose ticks a test fires by hand. */
function manualTimers() {
  const intervals: { tick: () => void; ms: number; cleared: boolean }[] = [];
  const timers: FeedTimers = {
    setInterval: (tick, ms) => {
      intervals.push({ tick, ms, cleared: false });
      return intervals.length - 1;
    },
    clearInterval: (handle) => {
      intervals[handle as number]!.cleared = true;
    },
  };
  return { timers, intervals, fire: () => intervals.forEach((i) => !i.cleared && i.tick()) };
}

function feed(rate: number, seed = 42, start = 1_756_500_000_000) {
  const clock = createManualClock(start);
  const manual = manualTimers();
  const records: EventLogRecord[] = [];
  const live = startLiveFeed({ rate, seed, clock, add: (r) => void records.push(r), timers: manual.timers });
  /** Moves the clock in tick-sized steps, firing the timer after each. */
  const run = (ms: number, step = manual.intervals[0]!.ms) => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(Math.min(step, ms - t));
      manual.fire();
    }
  };
  return { clock, manual, records, live, run };
}

describe('the live feed', () => {
  it('adds `rate` records per second of clock time, stamped with the clock, in timestamp order', () => {
    const { records, run, manual } = feed(5);
    expect(manual.intervals[0]!.ms).toBe(200);
    run(1000);
    expect(records).toHaveLength(5);
    run(3000);
    expect(records).toHaveLength(20);
    expect(records.map((r) => r.timestamp)).toEqual([...records.map((r) => r.timestamp)].sort((a, b) => a - b));
    expect(records[0]!.timestamp).toBe(1_756_500_000_200);
    expect(records.at(-1)!.timestamp).toBe(1_756_500_004_000);
    expect(new Set(records.map((r) => r._id)).size).toBe(20);
    for (const record of records) expect(validator.validateNamed('EventLogRecord', record)).toEqual([]);
    expect(new Set(records.map((r) => r.type))).toEqual(new Set(['snmp-trap', 'mqtt-message']));
  });

  it('ticks at most ten times a second, adding several records a tick at high rates', () => {
    const { records, run, manual } = feed(200);
    expect(manual.intervals[0]!.ms).toBe(100);
    run(1000);
    expect(records).toHaveLength(200);
  });

  it('is the same for the same seed, and differs for another', () => {
    const a = feed(10, 7);
    const b = feed(10, 7);
    const c = feed(10, 8);
    for (const f of [a, b, c]) f.run(2000);
    expect(b.records).toEqual(a.records);
    expect(c.records.map((r) => r._id)).not.toEqual(a.records.map((r) => r._id));
    expect(c.records.map((r) => r.payload)).not.toEqual(a.records.map((r) => r.payload));
  });

  it('catches up ten seconds at most after a long pause, and stops for good', () => {
    const { records, clock, manual, live } = feed(2);
    clock.advance(3_600_000);
    manual.fire();
    expect(records).toHaveLength(20);
    live.stop();
    live.stop();
    expect(manual.intervals[0]!.cleared).toBe(true);
  });

  it('skips a record the store refuses and goes on', () => {
    const clock = createManualClock(0);
    const manual = manualTimers();
    const kept: EventLogRecord[] = [];
    let calls = 0;
    startLiveFeed({
      rate: 1, seed: 1, clock, timers: manual.timers,
      add: (r) => {
        if (calls++ === 0) throw new Error('duplicate _id');
        kept.push(r);
      },
    });
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      manual.fire();
    }
    expect(kept).toHaveLength(2);
  });

  it('refuses a rate outside 1 to 1000', () => {
    for (const rate of [0, -1, 1.5, 1001]) {
      expect(() => startLiveFeed({ rate, seed: 1, clock: createManualClock(0), add: () => undefined, timers: manualTimers().timers })).toThrow(/live rate/);
    }
  });
});
