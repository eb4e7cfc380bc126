import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// getLimitBlockLog's parameters: shapes by the document at the route, `from` above `to` by the handler.
const app = await buildFake({ spec, docs: false, records: 0 });
afterAll(() => app.close());
const get = async (query: string) => {
  const response = await app.inject({ url: `${API}/limit-block-log?${query}`, headers: basicOf('admin') });
  expectConforms('getLimitBlockLog', response);
  return { status: response.statusCode, body: JSON.parse(response.body) as { details?: { name: string; problem: string }[] } };
};

describe('the query of getLimitBlockLog', () => {
  it('takes the parameters of the document and names refused ones', async () => {
    expect((await get('from=1&to=5&limit=10&skip=0&ip=true&login=false')).status).toBe(200);
    const refused = await get('limit=-1&skip=x&uri=maybe');
    expect(refused.status).toBe(400);
    expect(refused.body.details?.map((p) => p.name)).toEqual(['limit', 'skip', 'uri']);
    const range = await get('from=9&to=1');
    expect(range.status).toBe(400);
    expect(range.body.details?.[0]?.problem).toMatch(/greater than "to"/);
  });
});
