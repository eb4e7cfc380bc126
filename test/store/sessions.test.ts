import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { createSessionStore } from '../../src/store/accounts.js';

function store(max = 3, idleSeconds = 10, maxPerUser = max) {
  const clock = createManualClock(0);
  let n = 0;
  const sessions = createSessionStore({ clock, max, maxPerUser, idleSeconds, generateId: () => `id-${n++}` });
  return { clock, sessions };
}

describe('session store', () => {
  it('creates sessions with an id, the user and a csrf value', () => {
    const { sessions } = store();
    const s = sessions.create('u1');
    expect(s).toMatchObject({ id: 'id-0', userId: 'u1', csrf: 'id-1', lastSeen: 0 });
    expect(sessions.touch('id-0')).toBe(s);
    expect(sessions.touch('nope')).toBeUndefined();
  });

  it('expires a session idle for idleSeconds; a touch resets the wait', () => {
    const { clock, sessions } = store(3, 10);
    const a = sessions.create('a');
    clock.set(9_999);
    expect(sessions.touch(a.id)?.lastSeen).toBe(9_999);
    clock.set(19_998);
    expect(sessions.touch(a.id)).toBeDefined();
    clock.set(29_998);
    expect(sessions.touch(a.id)).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('evicts the least recently used when full', () => {
    const { clock, sessions } = store(2);
    const a = sessions.create('a');
    clock.advance(1);
    const b = sessions.create('b');
    clock.advance(1);
    sessions.touch(a.id);
    const c = sessions.create('c');
    expect(sessions.touch(b.id)).toBeUndefined();
    expect(sessions.touch(a.id)).toBeDefined();
    expect(sessions.touch(c.id)).toBeDefined();
  });

  it('drops expired sessions when new ones come, so idle ones do not hold memory', () => {
    const { clock, sessions } = store(100, 10);
    for (let i = 0; i < 50; i++) sessions.create('u');
    clock.advance(10_000);
    sessions.create('u');
    expect(sessions.size).toBe(1);
  });

  it('stays within max however many logins come', () => {
    const sessions = createSessionStore({ clock: createManualClock(), max: 1000, maxPerUser: 1000, idleSeconds: 1800 });
    for (let i = 0; i < 200_000; i++) sessions.create(`u${i % 3}`);
    expect(sessions.size).toBe(1000);
  });

  it('deletes and clears', () => {
    const { sessions } = store();
    const a = sessions.create('a');
    sessions.create('b');
    expect(sessions.delete(a.id)).toBe(true);
    expect(sessions.delete(a.id)).toBe(false);
    sessions.clear();
    expect(sessions.size).toBe(0);
  });

  it('keeps each user within maxPerUser, ending that user\'s least recently used session only', () => {
    const { clock, sessions } = store(100, 1000, 3);
    const other = sessions.create('other');
    const [first, second, third] = [sessions.create('u'), sessions.create('u'), sessions.create('u')];
    clock.advance(1);
    sessions.touch(first!.id);
    const fourth = sessions.create('u');
    expect(sessions.touch(second!.id)).toBeUndefined();
    for (const kept of [first, third, fourth, other]) expect(sessions.touch(kept!.id), kept!.id).toBeDefined();
    expect(sessions.list().filter((s) => s.userId === 'u')).toHaveLength(3);
    expect(sessions.clear('u')).toBe(3);
    expect(sessions.list()).toEqual([other]);
  });

  it('refuses a max or maxPerUser below 1', () => {
    expect(() => createSessionStore({ clock: createManualClock(), max: 0, maxPerUser: 1, idleSeconds: 1 })).toThrow(/max/);
    expect(() => createSessionStore({ clock: createManualClock(), max: 1, maxPerUser: 0, idleSeconds: 1 })).toThrow(/maxPerUser/);
  });
});
