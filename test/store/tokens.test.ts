import { describe, expect, it } from 'vitest';
import { createTokenStore } from '../../src/store/accounts.js';

describe('token store', () => {
  it('issues one token per user; a new one replaces the old', () => {
    let n = 0;
    const tokens = createTokenStore(() => `t${n++}`);
    expect(tokens.issue('u1')).toBe('t0');
    expect(tokens.issue('u2')).toBe('t1');
    expect(tokens.issue('u1')).toBe('t2');
    expect(tokens.userFor('t0')).toBeUndefined();
    expect(tokens.userFor('t2')).toBe('u1');
    expect(tokens.userFor('t1')).toBe('u2');
    expect(tokens.tokenOf('u1')).toBe('t2');
  });

  it('revokes, and says whether there was a token', () => {
    const tokens = createTokenStore();
    const t = tokens.issue('u1');
    expect(tokens.revoke('u1')).toBe(true);
    expect(tokens.userFor(t)).toBeUndefined();
    expect(tokens.tokenOf('u1')).toBeUndefined();
    expect(tokens.revoke('u1')).toBe(false);
  });

  it('issues random UUIDs by default', () => {
    const tokens = createTokenStore();
    const a = tokens.issue('a');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tokens.issue('b')).not.toBe(a);
  });

  it('assigning a token another user holds takes it from that user', () => {
    const tokens = createTokenStore();
    tokens.assign('a', 'shared');
    tokens.assign('b', 'shared');
    expect(tokens.userFor('shared')).toBe('b');
    expect(tokens.tokenOf('a')).toBeUndefined();
  });
});
