import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { createState } from '../../src/store/state.js';
import type { FixtureUser } from '../../src/spec/types.js';
import { createUserStore } from '../../src/store/accounts.js';

const seed: FixtureUser[] = [
  { id: '5867948233835d9661c56dc8', login: 'admin', password: 'secret', permissions: ['manage-users'], authenticationToken: 'seeded-token' },
  { id: '5867948233835d9661c56dc9', login: 'viewer', password: '', permissions: [] },
];

describe('user store', () => {
  const users = createUserStore(seed);

  it('looks users up by login and id', () => {
    expect(users.byLogin('admin')?.id).toBe('5867948233835d9661c56dc8');
    expect(users.byId('5867948233835d9661c56dc9')?.login).toBe('viewer');
    expect(users.byLogin('nobody')).toBeUndefined();
    expect(users.list().map((u) => u.login)).toEqual(['admin', 'viewer']);
  });

  it('checks passwords exactly', () => {
    expect(users.verify('admin', 'secret')?.login).toBe('admin');
    expect(users.verify('admin', 'Secret')).toBeUndefined();
    expect(users.verify('admin', 'secret ')).toBeUndefined();
    expect(users.verify('admin', '')).toBeUndefined();
    expect(users.verify('viewer', '')?.login).toBe('viewer');
    expect(users.verify('nobody', 'secret')).toBeUndefined();
  });

  it('remembers a right pair without letting another split of the same characters in', () => {
    const store = createUserStore([
      { id: '5867948233835d9661c56dd1', login: 'a', password: 'b:c\u0000d', permissions: [] },
      { id: '5867948233835d9661c56dd2', login: 'a:b', password: 'other', permissions: [] },
    ]);
    for (let i = 0; i < 3; i++) expect(store.verify('a', 'b:c\u0000d')?.login, `try ${i}`).toBe('a');
    expect(store.verify('a:b', 'c\u0000d')).toBeUndefined();
    expect(store.verify('a\u0000b:c', 'd')).toBeUndefined();
    expect(store.verify('a', 'b:c\u0000')).toBeUndefined();
    expect(store.verify('a:b', 'other')?.login).toBe('a:b');
  });

  it('keeps neither the password nor the token in the record', () => {
    const record = users.byLogin('admin')!.record;
    expect(record).toEqual({ id: '5867948233835d9661c56dc8', login: 'admin', permissions: ['manage-users'] });
    expect(JSON.stringify(users.list())).not.toContain('secret');
  });
});

describe('state', () => {
  it('seeds fixture tokens and goes back to the seed on reset', () => {
    const state = createState({ clock: createManualClock(), users: seed, sessions: { max: 10, maxPerUser: 10, idleSeconds: 60 } });
    expect(state.tokens.userFor('seeded-token')).toBe('5867948233835d9661c56dc8');
    state.tokens.issue('5867948233835d9661c56dc8');
    state.tokens.issue('5867948233835d9661c56dc9');
    state.sessions.create('5867948233835d9661c56dc9');
    state.reset();
    expect(state.tokens.userFor('seeded-token')).toBe('5867948233835d9661c56dc8');
    expect(state.tokens.tokenOf('5867948233835d9661c56dc9')).toBeUndefined();
    expect(state.sessions.size).toBe(0);
  });
});
