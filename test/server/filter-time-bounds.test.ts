import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';

// A fake of its own process with enough records that a slow filter shows: no regex may hold
// it (or the requests beside it) up. Bounds are generous (a loaded machine is slow); the
// bench (npm run bench:hostile) measures the real times.
const bin = fileURLToPath(new URL('../../bin/monitoring-api-kit.js', import.meta.url));
const RECORDS = 50_000;
let origin = '';
let stop: () => void = () => undefined;

beforeAll(async () => {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--records', String(RECORDS), '--anchor', '2025-09-01T00:00:00Z', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
  stop = () => child.kill('SIGKILL');
  let out = '';
  origin = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}, 60_000);
afterAll(() => stop());

interface Answer {
  readonly response: LightMyRequestResponse;
  /** When the answer was complete (performance.now). */
  readonly at: number;
}

async function get(path: string, user: 'viewer' | 'admin' = 'viewer'): Promise<Answer> {
  const r = await request(`${origin}${path}`, { headers: basicOf(user), headersTimeout: 60_000, bodyTimeout: 60_000 });
  const body = await r.body.text();
  const response = { statusCode: r.statusCode, headers: r.headers, body } as unknown as LightMyRequestResponse;
  return { response, at: performance.now() };
}

const filtered = (filter: unknown, more = '') => `${API}/event-log?filter=${encodeURIComponent(JSON.stringify(filter))}${more}`;

describe(`a fake with ${RECORDS} records and filters meant to hold it up`, () => {
  it('answers or refuses the regex that froze it (bounded repetitions) within seconds', async () => {
    for (const more of ['&limit=50', `&from=${Date.UTC(2025, 7, 31, 23)}`]) {
      const started = performance.now();
      const { response, at } = await get(filtered({ 'payload.text': { $regex: '.{0,200}.{0,200}.{0,200}.{0,200}.{0,200}!' } }, more));
      expectConforms('getEventLog', response);
      // Priced by its compiled size: refused over all the records, answered over an hour of them.
      if (more === '&limit=50') expect((JSON.parse(response.body) as { code: string }).code, response.body).toBe('INVALID_FILTER');
      else expect(response.statusCode, response.body).toBe(200);
      expect(at - started).toBeLessThan(5_000);
    }
  });

  it('answers or refuses .*.*.*x, nested quantifiers, large alternations and long patterns, each within seconds', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}x`).join('|');
    const filters = [
      ...['.*.*.*x', '(a+)+$', '(.*a){20}', `(?:${words})+!`, '[a-z ]*[aeiou][a-z ]{60}[0-9]'].map((p) => ({ 'payload.text': { $regex: p, $options: 'i' } })),
      { 'payload.text': { $regex: `${'[^x]{0,400}'.repeat(7)}[0-9]` } },
      { $or: Array.from({ length: 10 }, (_, i) => ({ 'payload.text': { $regex: `[^0-9][^x]{0,250}[^x]{0,250}[^x]{0,250}[0-9]{${i + 5}}` } })) },
    ];
    for (const filter of filters) {
      const started = performance.now();
      const { response, at } = await get(filtered(filter));
      expectConforms('getEventLog', response);
      if (response.statusCode !== 200) expect((JSON.parse(response.body) as { code: string }).code, response.body).toBe('INVALID_FILTER');
      expect(at - started, JSON.stringify(filter)).toBeLessThan(5_000);
    }
  });

  it('serves other requests while a long query runs', async () => {
    // Every record sorted by a field, for a page near the end: a full sort, taken in slices.
    const started = performance.now();
    let longAnswer: Answer | undefined;
    const long = get(`${API}/event-log?sortField=payload.text&skip=${RECORDS - 100}&limit=10`).then((a) => (longAnswer = a));
    const answeredMeanwhile: number[] = [];
    while (!longAnswer && performance.now() - started < 30_000) {
      const current = await get(`${API}/users/current`, 'admin');
      expect(current.response.statusCode).toBe(200);
      if (!longAnswer) answeredMeanwhile.push(current.at);
    }
    const { response } = await long;
    expect(response.statusCode, response.body).toBe(200);
    expectConforms('getEventLog', response);
    expect((JSON.parse(response.body) as unknown[]).length).toBe(10);
    expect(answeredMeanwhile.length).toBeGreaterThanOrEqual(3);
  });
});

describe('a query past its computing budget', () => {
  // The document's budget made tiny, so that a long scan of the log runs out of it.
  const document = structuredClone(spec.document);
  const filterParameter = (document.paths?.['/node/api/event-log']?.get?.parameters as { name: string; 'x-filter-limits'?: Record<string, number> }[]).find(
    (p) => p.name === 'filter',
  );
  Object.assign(filterParameter?.['x-filter-limits'] ?? {}, { budgetMs: 20, budgetMicrosPerRecord: 0.001, sliceMs: 1 });
  let app: FakeApp;
  beforeAll(async () => {
    app = await buildFake({ spec: { ...spec, document }, records: 20_000 });
  });
  afterAll(() => app.close());

  it('is refused with 400 INVALID_FILTER naming the filter, and nothing is returned', async () => {
    // About 5 µs a record: 100 ms for all of them.
    const response = await app.inject({ url: filtered({ 'payload.text': { $regex: '[a-z ]*[aeiou][a-z ]{30}[0-9]' } }), headers: basicOf('viewer') });
    expectError(response, 400, 'INVALID_FILTER');
    expectConforms('getEventLog', response);
    expect(JSON.parse(response.body).details).toEqual([
      { location: 'query', name: 'filter', problem: expect.stringMatching(/^is too costly: it computed longer than its budget of 20 ms; narrow the time range or the type/) },
    ]);
  });

  it('leaves a query without a filter alone, and a narrow one answered', async () => {
    const all = await app.inject({ url: `${API}/event-log?sortField=payload.text&limit=5`, headers: basicOf('viewer') });
    expect(all.statusCode, all.body).toBe(200);
    const newest = (JSON.parse((await app.inject({ url: `${API}/event-log?sortDirection=desc&limit=1`, headers: basicOf('viewer') })).body) as { timestamp: number }[])[0]!;
    const narrow = await app.inject({ url: filtered({ type: 'snmp-trap' }, `&from=${newest.timestamp}`), headers: basicOf('viewer') });
    expect(narrow.statusCode, narrow.body).toBe(200);
  });
});
