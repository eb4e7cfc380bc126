import { describe, expect, it } from 'vitest';
import { assertAllowed, decidePolicy, isLoopbackUrl, SafetyError } from '../../src/contract/safety.js';

describe('isLoopbackUrl', () => {
  it.each([
    ['http://127.0.0.1:4010', true],
    ['http://127.8.9.1', true],
    ['http://localhost:4010', true],
    ['http://api.localhost', true],
    ['http://[::1]:4010', true],
    ['http://staging.example.com', false],
    ['http://10.0.0.5', false],
    ['http://128.0.0.1', false],
    ['http://localhost.example.com', false],
  ])('%s → %s', (url, loopback) => {
    expect(isLoopbackUrl(new URL(url))).toBe(loopback);
  });
});

describe('decidePolicy', () => {
  it('allows writes on loopback and reads only elsewhere, unless told', () => {
    expect(decidePolicy({ targetUrl: 'http://127.0.0.1:4010' }).writes).toBe(true);
    expect(decidePolicy({ targetUrl: 'https://staging.example.com' })).toMatchObject({ writes: false, probeLimits: false });
    expect(decidePolicy({ targetUrl: 'https://staging.example.com', allowWrites: true }).writes).toBe(true);
    expect(decidePolicy({ targetUrl: 'http://127.0.0.1:4010', allowWrites: false }).writes).toBe(false);
    expect(decidePolicy({ targetUrl: 'http://127.0.0.1:4010', isLoopback: () => false }).writes).toBe(false);
  });
});

describe('assertAllowed', () => {
  const readOnly = decidePolicy({ targetUrl: 'https://staging.example.com' });
  it('lets reads and session log-in/out through in read-only mode', () => {
    expect(() => assertAllowed(readOnly, 'GET', 'getEventLog')).not.toThrow();
    expect(() => assertAllowed(readOnly, 'POST', 'createSession')).not.toThrow();
    expect(() => assertAllowed(readOnly, 'DELETE', 'deleteSession')).not.toThrow();
  });
  it('stops every other write', () => {
    for (const [method, op] of [['PATCH', 'updateEventLogPayload'], ['POST', 'createAuthToken'], ['DELETE', 'revokeAuthToken']] as const) {
      expect(() => assertAllowed(readOnly, method, op)).toThrow(SafetyError);
    }
    expect(() => assertAllowed(decidePolicy({ targetUrl: 'http://127.0.0.1' }), 'PATCH', 'updateEventLogPayload')).not.toThrow();
  });
});
