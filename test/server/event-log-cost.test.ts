import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// 20,000 records: a filter of 300 conditions may test 5,000,000 / 300 = 16,666 of them.
const app = await buildFake({ spec, records: 20_000 });
afterAll(() => app.close());

const get = async (filter: unknown, query = '') => {
  const response = await app.inject({ url: `${API}/event-log?filter=${encodeURIComponent(JSON.stringify(filter))}${query}`, headers: basicOf('viewer') });
  expectConforms('getEventLog', response);
  return response;
};

describe('GET /node/api/event-log with a costly filter', () => {
  // Cheap to run (the first condition fails), but priced by its size like any filter.
  const costly = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, 0]));

  it('refuses a filter that would test too many records with 400 INVALID_FILTER naming the filter', async () => {
    const response = await get(costly);
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body);
    expect(body.code).toBe('INVALID_FILTER');
    expect(body.details).toEqual([{ location: 'query', name: 'filter', problem: expect.stringMatching(/^is too costly: it would test more than 16666 records with 300 conditions/) }]);
  });

  it('answers the same filter over a narrower range', async () => {
    const newest = JSON.parse((await app.inject({ url: `${API}/event-log?sortDirection=desc&limit=1`, headers: basicOf('viewer') })).body)[0];
    const response = await get(costly, `&from=${newest.timestamp - 3_600_000}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toEqual([]);
  });
});
