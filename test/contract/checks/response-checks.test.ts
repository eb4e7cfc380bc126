import { describe, expect, it } from 'vitest';
import { contentType, notServerError, sessionCookieAttributes, statusDocumented, transportError } from '../../../src/contract/checks/response-checks.js';
import { responseSchema } from '../../../src/contract/checks/response-schema.js';
import { context, exchange, found, mqtt, records, trap } from '../helpers/synthetic.js';

describe('not-server-error', () => {
  it('flags a 5xx as a violation and passes a 4xx', async () => {
    const ctx = await context();
    const [f] = found(notServerError.run(exchange('getEventLog', { status: 500, body: {} }), ctx));
    expect(f).toMatchObject({ check: 'not-server-error', operationId: 'getEventLog', verdict: 'violation', severity: 'error' });
    expect(f?.citation).toMatchObject({ source: 'spec', ref: '4.4' });
    expect(found(notServerError.run(exchange('getEventLog', { status: 400, body: {} }), ctx))).toEqual([]);
  });
});

describe('transport-error', () => {
  it('flags an exchange whose connection failed before an answer', async () => {
    const ex = { ...exchange('getEventLog', undefined), error: 'ECONNRESET: socket hang up' };
    expect(found(transportError.run(ex, await context()))[0]).toMatchObject({ verdict: 'violation', message: 'no answer: ECONNRESET: socket hang up' });
  });
  it('calls no answer within the runner\'s own deadline inconclusive (the spec sets no time limit)', async () => {
    const ex = { ...exchange('getEventLog', undefined), error: 'timed out', timedOutAfterMs: 10_000 };
    expect(transportError.run(ex, await context())).toEqual({ inconclusive: expect.stringMatching(/^no answer within the runner's timeout of 10000 ms \(--timeout\)/) as unknown });
  });
});

describe('status-documented', () => {
  it('passes documented statuses', async () => {
    expect(found(statusDocumented.run(exchange('getEventLog', { status: 200, body: [] }), await context()))).toEqual([]);
  });
  it('makes an undocumented error status a note (every error response is a gap-fill)', async () => {
    const [f] = found(statusDocumented.run(exchange('createAuthToken', { status: 422, body: {} }), await context()));
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
  });
  it('makes an undocumented success status of a gap-filled success a note (createSession 201)', async () => {
    const [f] = found(statusDocumented.run(exchange('createSession', { status: 201, body: 'x' }), await context()));
    expect(f?.verdict).toBe('note');
    expect(f?.citation.text).toMatch(/does not show the response body or status of 4\.3/);
  });
  it('makes an undocumented success status of a spec-defined answer a violation (getEventLog 206)', async () => {
    const [f] = found(statusDocumented.run(exchange('getEventLog', { status: 206, body: [] }), await context()));
    expect(f).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '4.4' } });
  });
  it('makes a redirect a violation', async () => {
    const [f] = found(statusDocumented.run(exchange('getCurrentUser', { status: 302 }), await context()));
    expect(f?.verdict).toBe('violation');
  });
});

describe('content-type (spec 1: JSON over HTTP)', () => {
  it('flags a JSON answer sent as text/html, and a body that is not JSON', async () => {
    const ctx = await context();
    const html = exchange('getEventLog', { status: 200, text: '[]', headers: { 'content-type': 'text/html' } });
    expect(found(contentType.run(html, ctx))[0]).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '1' } });
    const broken = exchange('getEventLog', { status: 200, text: '[{' });
    expect(found(contentType.run(broken, ctx))[0]?.message).toMatch(/not valid JSON/);
  });
  it('makes a body the spec describes (4.2 user, 4.4 records, 4.6 blocks) in another format a violation', async () => {
    const ctx = await context();
    for (const operationId of ['getCurrentUser', 'getEventLog', 'getLimitBlockLog']) {
      const text = exchange(operationId, { status: 200, text: 'id=1', headers: { 'content-type': 'text/plain' } });
      expect(found(contentType.run(text, ctx))[0], operationId).toMatchObject({ verdict: 'violation', citation: { ref: '1' } });
    }
  });
  it('makes another format a note where the spec does not show the body (4.1 token, 4.3 session, errors)', async () => {
    const ctx = await context();
    const token = exchange('createAuthToken', { status: 200, text: '32925106-8c56-41d1-8713-410f203e8ce0', headers: { 'content-type': 'text/plain' } });
    expect(found(contentType.run(token, ctx))[0]).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
    const session = exchange('createSession', { status: 200, text: 'ok', headers: { 'content-type': 'text/plain' } });
    expect(found(contentType.run(session, ctx))[0]?.verdict).toBe('note');
    const error = exchange('getEventLog', { status: 401, text: 'Unauthorized', headers: { 'content-type': 'text/plain' } });
    expect(found(contentType.run(error, ctx))[0]?.verdict).toBe('note');
  });
  it('makes a body labelled JSON that does not parse a violation, even where the spec does not show the body', async () => {
    const ctx = await context();
    const bareUuid = exchange('createAuthToken', { status: 200, text: '32925106-8c56-41d1-8713-410f203e8ce0' });
    expect(found(contentType.run(bareUuid, ctx))[0]).toMatchObject({ verdict: 'violation', citation: { ref: '1' } });
    const error = exchange('getEventLog', { status: 400, text: '{"error":' });
    expect(found(contentType.run(error, ctx))[0]?.verdict).toBe('violation');
  });
});

describe('response-schema', () => {
  it('passes a conforming list', async () => {
    expect(found(responseSchema.run(exchange('getEventLog', { status: 200, body: records(6) }), await context()))).toEqual([]);
  });

  it('makes a record missing timestamp a violation, grouped over records', async () => {
    const list = records(6).map((r) => {
      const { timestamp: _drop, ...rest } = r;
      return rest;
    });
    const failures = found(responseSchema.run(exchange('getEventLog', { status: 200, body: list }), await context()));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '2' } });
    expect(failures[0]?.message).toBe("/[n] must have required property 'timestamp' (6 times)");
  });

  it('makes a record missing agentId a violation and names only the branch of its type', async () => {
    const { agentId: _drop, ...rest } = trap(1);
    const [f, ...others] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [rest] }), await context()));
    expect(others).toEqual([]);
    expect(f).toMatchObject({ verdict: 'violation' });
    expect(f?.message).toContain("must have required property 'agentId'");
    expect(f?.message).not.toMatch(/constant|oneOf/);
  });

  it('makes an _id that is not an ObjectId a note (the ObjectId format is a gap-fill)', async () => {
    const [f, ...others] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [trap(1, { _id: '42' })] }), await context()));
    expect(others).toEqual([]);
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill', ref: 'components/schemas/SnmpTrapRecord/properties/_id' } });
    expect(f?.citation.text).toMatch(/24 lowercase hex characters/);
  });

  it('makes a timestamp sent as a string a violation, though Timestamp carries only a gap-fill (spec 2: timestamp | integer)', async () => {
    const list = records(4).map((r) => ({ ...r, timestamp: String(r.timestamp) }));
    const failures = found(responseSchema.run(exchange('getEventLog', { status: 200, body: list }), await context()));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '2', text: 'timestamp is an integer' } });
    expect(failures[0]?.message).toBe('/[n]/timestamp must be integer (4 times)');
  });

  it('makes an entityType sent as a string a violation (spec 2: entityType | integer)', async () => {
    const bad = trap(1, { entity: { entityId: 'e1', entityType: '1' as unknown as number, entityName: 'core' } });
    const [f, ...others] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [bad] }), await context()));
    expect(others).toEqual([]);
    expect(f).toMatchObject({ verdict: 'violation', citation: { ref: '2', text: 'entityType is an integer' } });
  });

  it('makes a wrong type of a field of an MQTT record a violation, its payload fields (not shown) notes', async () => {
    const ctx = await context();
    const [stamp] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [mqtt(1, { agentId: 3 as unknown as string })] }), ctx));
    expect(stamp).toMatchObject({ verdict: 'violation', citation: { text: 'agentId is a string' } });
    const qos = mqtt(1, { payload: { topic: 't', message: 'm', qos: '1' as unknown as 0 } });
    const [f] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [qos] }), ctx));
    expect(f).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/MqttMessageRecord/properties/payload' } });
    expect(f?.citation.text).toMatch(/MQTT records/);
  });

  it('makes a record of an unknown type a note when its listed fields have their types, a violation when not', async () => {
    const ctx = await context();
    const odd = { ...mqtt(1), type: 'syslog' };
    const notes = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [odd] }), ctx));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((f) => f.verdict === 'note')).toBe(true);
    const [f] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [{ ...odd, timestamp: 'now' }] }), ctx));
    expect(f).toMatchObject({ verdict: 'violation', citation: { text: 'timestamp is an integer' } });
  });

  it('makes a negative ttl of a blocked request a note, a string ttl a violation', async () => {
    const ctx = await context();
    const [negative] = found(responseSchema.run(exchange('getLimitBlockLog', { status: 200, body: [{ ip: '192.0.2.1', ttl: -1 }] }), ctx));
    expect(negative).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/BlockedRequest/properties/ttl' } });
    const [text] = found(responseSchema.run(exchange('getLimitBlockLog', { status: 200, body: [{ ip: '192.0.2.1', ttl: '60' }] }), ctx));
    expect(text).toMatchObject({ verdict: 'violation', citation: { text: 'ttl is an integer' } });
  });

  it('makes a list answered as an object a violation (4.4 returns a JSON array)', async () => {
    const [f] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: { records: [] } }), await context()));
    expect(f).toMatchObject({ verdict: 'violation' });
  });

  it('makes an agentId of the wrong JSON type a violation (the field table of spec 2)', async () => {
    const bad = { ...trap(1), agentId: 7 };
    const [f] = found(responseSchema.run(exchange('getEventLog', { status: 200, body: [bad] }), await context()));
    expect(f).toMatchObject({ verdict: 'violation', citation: { ref: '2' } });
  });

  it('makes an error body of another shape a note (Error is a gap-fill)', async () => {
    const failures = found(responseSchema.run(exchange('getEventLog', { status: 400, body: { error: 'bad limit' } }), await context()));
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/Error' } });
  });

  it('makes a user record without permissions a note (the document adds the field) and without login a violation', async () => {
    const ctx = await context();
    const [noPermissions] = found(responseSchema.run(exchange('getCurrentUser', { status: 200, body: { id: '5867948233835d9661c56dc8', login: 'admin' } }), ctx));
    expect(noPermissions?.verdict).toBe('note');
    const [noLogin] = found(responseSchema.run(exchange('getCurrentUser', { status: 200, body: { id: '5867948233835d9661c56dc8', permissions: [] } }), ctx));
    expect(noLogin).toMatchObject({ verdict: 'violation', citation: { ref: '2' } });
  });

  it('makes a token that is not a UUID a note', async () => {
    const [f] = found(responseSchema.run(exchange('createAuthToken', { status: 200, body: 'abc' }), await context()));
    expect(f).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/AuthToken' } });
  });
});

describe('session-cookie-attributes', () => {
  const logIn = (cookies: string[]) => {
    const e = exchange('createSession', { status: 200, body: '32925106-8c56-41d1-8713-410f203e8ce0' });
    return { ...e, response: e.response && { ...e.response, headers: { ...e.response.headers, 'set-cookie': cookies } } };
  };

  it('holds when each cookie the document states comes with its attributes, and names what is missing', async () => {
    const ctx = await context();
    const sid = 'sid=abc; Path=/; HttpOnly; SameSite=Lax';
    expect(found(sessionCookieAttributes.run(logIn([sid, 'csrf=def; Path=/; SameSite=Lax']), ctx))).toEqual([]);
    const [lacking, absent] = found(sessionCookieAttributes.run(logIn(['sid=abc; Path=/; SameSite=Strict']), ctx));
    expect(lacking?.message).toBe('the cookie "sid" lacks HttpOnly, SameSite=Lax');
    expect(lacking?.expected).toBe('Set-Cookie: sid=…; Path=/; HttpOnly; SameSite=Lax');
    expect(absent?.message).toBe('the answer sets no cookie "csrf"');
  });
});
