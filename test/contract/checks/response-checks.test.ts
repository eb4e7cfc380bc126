import { describe, expect, it } from 'vitest';
import { contentType } from '../../../src/contract/checks/content-type.js';
import { notServerError } from '../../../src/contract/checks/not-server-error.js';
import { prismViolations } from '../../../src/contract/checks/prism-violations.js';
import { responseSchema } from '../../../src/contract/checks/response-schema.js';
import { statusDocumented } from '../../../src/contract/checks/status-documented.js';
import { transportError } from '../../../src/contract/checks/transport-error.js';
import { context, exchange, records, trap } from '../helpers/synthetic.js';

describe('not-server-error', () => {
  it('flags a 5xx as a violation and passes a 4xx', async () => {
    const ctx = await context();
    const [f] = notServerError.run(exchange('getEventLog', { status: 500, body: {} }), ctx);
    expect(f).toMatchObject({ check: 'not-server-error', operationId: 'getEventLog', verdict: 'violation', severity: 'error' });
    expect(f?.citation).toMatchObject({ source: 'spec', ref: '4.4' });
    expect(notServerError.run(exchange('getEventLog', { status: 400, body: {} }), ctx)).toEqual([]);
  });
});

describe('transport-error', () => {
  it('flags an exchange without an answer', async () => {
    const ex = { ...exchange('getEventLog', undefined), error: 'timeout after 10000 ms' };
    expect(transportError.run(ex, await context())[0]?.message).toContain('timeout');
  });
});

describe('status-documented', () => {
  it('passes documented statuses', async () => {
    expect(statusDocumented.run(exchange('getEventLog', { status: 200, body: [] }), await context())).toEqual([]);
  });
  it('makes an undocumented error status a note (every error response is a gap-fill)', async () => {
    const [f] = statusDocumented.run(exchange('createAuthToken', { status: 422, body: {} }), await context());
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
  });
  it('makes an undocumented success status of a gap-filled success a note (createSession 201)', async () => {
    const [f] = statusDocumented.run(exchange('createSession', { status: 201, body: 'x' }), await context());
    expect(f?.verdict).toBe('note');
    expect(f?.citation.text).toMatch(/does not show the response body or status of 4\.3/);
  });
  it('makes an undocumented success status of a spec-defined answer a violation (getEventLog 206)', async () => {
    const [f] = statusDocumented.run(exchange('getEventLog', { status: 206, body: [] }), await context());
    expect(f).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '4.4' } });
  });
  it('makes a redirect a violation', async () => {
    const [f] = statusDocumented.run(exchange('getCurrentUser', { status: 302 }), await context());
    expect(f?.verdict).toBe('violation');
  });
});

describe('content-type', () => {
  it('flags a JSON answer sent as text/html, and a body that is not JSON', async () => {
    const ctx = await context();
    const html = exchange('getEventLog', { status: 200, text: '[]', headers: { 'content-type': 'text/html' } });
    expect(contentType.run(html, ctx)[0]).toMatchObject({ verdict: 'violation', citation: { ref: '4.4' } });
    const broken = exchange('getEventLog', { status: 200, text: '[{' });
    expect(contentType.run(broken, ctx)[0]?.message).toMatch(/not valid JSON/);
  });
  it('makes a non-JSON error body a note (error bodies are a gap-fill)', async () => {
    const ex = exchange('getEventLog', { status: 401, text: 'Unauthorized', headers: { 'content-type': 'text/plain' } });
    expect(contentType.run(ex, await context())[0]?.verdict).toBe('note');
  });
});

describe('response-schema', () => {
  it('passes a conforming list', async () => {
    expect(responseSchema.run(exchange('getEventLog', { status: 200, body: records(6) }), await context())).toEqual([]);
  });

  it('makes a record missing timestamp a violation, grouped over records', async () => {
    const list = records(6).map((r) => {
      const { timestamp: _drop, ...rest } = r;
      return rest;
    });
    const failures = responseSchema.run(exchange('getEventLog', { status: 200, body: list }), await context());
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '2' } });
    expect(failures[0]?.message).toBe("/[n] must have required property 'timestamp' (6 times)");
  });

  it('makes a record missing agentId a violation and names only the branch of its type', async () => {
    const { agentId: _drop, ...rest } = trap(1);
    const [f, ...others] = responseSchema.run(exchange('getEventLog', { status: 200, body: [rest] }), await context());
    expect(others).toEqual([]);
    expect(f).toMatchObject({ verdict: 'violation' });
    expect(f?.message).toContain("must have required property 'agentId'");
    expect(f?.message).not.toMatch(/constant|oneOf/);
  });

  it('makes an _id that is not an ObjectId a note (the ObjectId format is a gap-fill)', async () => {
    const [f] = responseSchema.run(exchange('getEventLog', { status: 200, body: [trap(1, { _id: '42' })] }), await context());
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill', ref: 'components/schemas/ObjectId' } });
  });

  it('makes an agentId of the wrong JSON type a violation (the field table of spec 2)', async () => {
    const bad = { ...trap(1), agentId: 7 };
    const [f] = responseSchema.run(exchange('getEventLog', { status: 200, body: [bad] }), await context());
    expect(f).toMatchObject({ verdict: 'violation', citation: { ref: '2' } });
  });

  it('makes an error body of another shape a note (Error is a gap-fill)', async () => {
    const failures = responseSchema.run(exchange('getEventLog', { status: 400, body: { error: 'bad limit' } }), await context());
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/Error' } });
  });

  it('makes a user record without permissions a note (the document adds the field) and without login a violation', async () => {
    const ctx = await context();
    const [noPermissions] = responseSchema.run(exchange('getCurrentUser', { status: 200, body: { id: '5867948233835d9661c56dc8', login: 'admin' } }), ctx);
    expect(noPermissions?.verdict).toBe('note');
    const [noLogin] = responseSchema.run(exchange('getCurrentUser', { status: 200, body: { id: '5867948233835d9661c56dc8', permissions: [] } }), ctx);
    expect(noLogin).toMatchObject({ verdict: 'violation', citation: { ref: '2' } });
  });

  it('makes a token that is not a UUID a note', async () => {
    const [f] = responseSchema.run(exchange('createAuthToken', { status: 200, body: 'abc' }), await context());
    expect(f).toMatchObject({ verdict: 'note', citation: { ref: 'components/schemas/AuthToken' } });
  });
});

describe('prism-violations', () => {
  it('reports response violations from the sl-violations header as notes and ignores request ones', async () => {
    const header = JSON.stringify([
      { location: ['request', 'query', 'limit'], severity: 'Error', message: 'must match pattern' },
      { location: ['response', 'body', '0'], severity: 'Error', message: "must have required property 'agentId'" },
    ]);
    const failures = prismViolations.run(exchange('getEventLog', { status: 200, body: [], headers: { 'sl-violations': header } }), await context());
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ verdict: 'note', check: 'prism-violations' });
    expect(failures[0]?.message).toContain('agentId');
  });
});
