import { describe, expect, it } from 'vitest';
import { authMethodAccepted, permissionRefused, unauthenticatedRefused, wrongCredentialsRefused } from '../../../src/contract/checks/access-checks.js';
import { context, exchange, found } from '../helpers/synthetic.js';

const user = { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [] };
const refused = (status: number) => ({ status, body: { status, code: 'UNAUTHENTICATED', message: 'no' } });

describe('unauthenticated-refused', () => {
  it('passes 401, flags acceptance as a violation of spec 5 and another refusal as a note', async () => {
    const ctx = await context();
    expect(found(unauthenticatedRefused.run(exchange('getEventLog', refused(401), 'none'), ctx, {}))).toEqual([]);
    const [accepted] = found(unauthenticatedRefused.run(exchange('getEventLog', { status: 200, body: [] }, 'none'), ctx, {}));
    expect(accepted).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '5' } });
    const [forbidden] = found(unauthenticatedRefused.run(exchange('getEventLog', refused(403), 'none'), ctx, {}));
    expect(forbidden).toMatchObject({ verdict: 'note', citation: { ref: 'getEventLog response 401' } });
  });
  it('does not apply to operations without security', async () => {
    expect(found(unauthenticatedRefused.run(exchange('createSession', { status: 200, body: 'x' }, 'none'), await context(), {}))).toEqual([]);
  });
});

describe('wrong-credentials-refused', () => {
  it('flags an accepted forged token as a violation', async () => {
    const [f] = found(wrongCredentialsRefused.run(exchange('getCurrentUser', { status: 200, body: user }, 'wrong-token'), await context(), {}));
    expect(f).toMatchObject({ verdict: 'violation', message: 'a request with an api-token no one was issued was accepted with 200' });
  });
  it('makes an accepted bogus cookie on the log-out extension a note', async () => {
    const [f] = found(wrongCredentialsRefused.run(exchange('deleteSession', { status: 204 }, 'wrong-session'), await context(), {}));
    expect(f?.verdict).toBe('note');
  });
});

describe('auth-method-accepted', () => {
  it('passes the caller\'s own record and flags another user\'s', async () => {
    const ctx = await context();
    const facts = { expectLogin: 'admin' };
    expect(found(authMethodAccepted.run(exchange('getCurrentUser', { status: 200, body: user }, 'session'), ctx, facts))).toEqual([]);
    const [f] = found(authMethodAccepted.run(exchange('getCurrentUser', { status: 200, body: { ...user, login: 'viewer' } }, 'session'), ctx, facts));
    expect(f).toMatchObject({ verdict: 'violation', citation: { ref: '4.2' } });
  });
  it('flags a refused valid Basic login as a violation and a refused auth-token alias as a note', async () => {
    const ctx = await context();
    expect(found(authMethodAccepted.run(exchange('getEventLog', refused(401), 'basic'), ctx, {}))[0]?.verdict).toBe('violation');
    expect(found(authMethodAccepted.run(exchange('getEventLog', refused(401), 'auth-token'), ctx, {}))[0]?.verdict).toBe('note');
  });
  it('makes a token refused because token authentication is off a note (spec 5, rule 2)', async () => {
    const off = { status: 401, body: { status: 401, code: 'TOKEN_AUTH_DISABLED', message: 'off' } };
    expect(found(authMethodAccepted.run(exchange('getEventLog', off, 'token'), await context(), {}))[0]?.verdict).toBe('note');
  });
});

describe('permission-refused', () => {
  it('passes 403 and flags acceptance as a violation of the operation\'s permission', async () => {
    const ctx = await context();
    expect(found(permissionRefused.run(exchange('getLimitBlockLog', { status: 403, body: {} }), ctx, { login: 'viewer' }))).toEqual([]);
    const [f] = found(permissionRefused.run(exchange('getLimitBlockLog', { status: 200, body: [] }), ctx, { login: 'viewer' }));
    expect(f).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '4.6', text: 'Permission: manage-users.' } });
  });
});
