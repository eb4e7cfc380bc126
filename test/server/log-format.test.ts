import { afterAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/fake/create-fake.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// The pretty format: one line a person reads per answered request (method, path, status, ms,
// user), made by pino-pretty from the same masked fields as the JSON lines.
const lines: string[] = [];
const json: string[] = [];
const pretty = await createFake({ spec, docs: false, records: 5, logger: { level: 'info', format: 'pretty', stream: { write: (line) => void lines.push(line) } } });
const plain = await createFake({ spec, docs: false, records: 5, logger: { level: 'info', stream: { write: (line) => void json.push(line) } } });
afterAll(() => Promise.all([pretty.close(), plain.close()]));

describe('the pretty log format', () => {
  it('writes one readable line per request: time, level, method, masked path, status, ms and the user', async () => {
    for (const fake of [pretty, plain]) {
      expectConforms('getCurrentUser', await fake.inject({ url: `${API}/users/current`, headers: basicOf('operator') }));
      expectConforms('getEventLog', await fake.inject({ url: `${API}/event-log?limit=abc`, headers: basicOf('viewer') }));
      expectConforms('getCurrentUser', await fake.inject({ url: `${API}/users/current?api-token=0badc0de-0000-4000-8000-000000000001` }));
    }
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/node\/api\/users\/current 200 \d+\.\d ms operator\n$/);
    expect(lines[1]).toMatch(/^\[[\d:.]+\] INFO: GET \/node\/api\/event-log\?limit=abc 400 \d+\.\d ms viewer\n$/);
    // Refused before anyone was known: no user; the token masked as in the JSON format.
    expect(lines[2]).toMatch(/^\[[\d:.]+\] INFO: GET \/node\/api\/users\/current\?api-token=\[redacted\] 401 \d+\.\d ms\n$/);
    expect(lines.join('')).not.toContain('0badc0de');
    // No colours when the lines go to a stream of the caller's.
    expect(lines.join('')).not.toContain('\u001b[');
    // The JSON format has the same fields, the user among them.
    const parsed = json.map((line) => JSON.parse(line) as { msg: string; user?: string; res: { statusCode: number } });
    expect(parsed.map((l) => [l.msg, l.res.statusCode, l.user])).toEqual([
      ['request completed', 200, 'operator'],
      ['request completed', 400, 'viewer'],
      ['request completed', 401, undefined],
    ]);
  });
});
