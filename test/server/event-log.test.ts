import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

type Rec = { _id: string; type: string; timestamp: number; agentId: string; payload: Record<string, unknown>; entity: unknown };

const app = await buildFake({ spec });
afterAll(() => app.close());
beforeEach(() => app.fake.state.reset());

// fixtures/events.json: an SNMP trap and an MQTT message of it, by hand.
const TRAP_ID = '68b25f476669787472000001';
const MQTT_ID = '68b4487c6669787472000004';
// The default seed: 1,000 generated records plus the 7 of fixtures/events.json.
const SEEDED = 1_007;

async function get(query: string, user: 'admin' | 'viewer' = 'viewer'): Promise<LightMyRequestResponse> {
  const response = await app.inject({ url: `${API}/event-log${query}`, headers: basicOf(user) });
  expectConforms('getEventLog', response);
  return response;
}
async function records(query: string): Promise<Rec[]> {
  const response = await get(query);
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as Rec[];
}
async function patch(id: string, payload: unknown, user: 'operator' | 'viewer' = 'operator') {
  const response = await app.inject({ method: 'PATCH', url: `${API}/event-log/${id}/payload`, payload: payload as object, headers: basicOf(user) });
  expectConforms('updateEventLogPayload', response);
  return response;
}

describe('GET /node/api/event-log on the default seed', () => {
  it('returns every seeded record exactly once when paged by skip and limit', async () => {
    const seen: string[] = [];
    for (let skip = 0; ; skip += 100) {
      const page = await records(`?skip=${skip}&limit=100`);
      seen.push(...page.map((r) => r._id));
      if (page.length < 100) break;
    }
    expect(seen.length).toBe(SEEDED);
    expect(new Set(seen).size).toBe(SEEDED);
    expect((await records('')).map((r) => r._id)).toEqual(seen);
  });

  it('orders by timestamp ascending by default; desc and inverse reverse it', async () => {
    const asc = await records('?limit=1007');
    const times = asc.map((r) => r.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const desc = await records('?sortDirection=desc');
    expect(desc.map((r) => r._id)).toEqual([...asc].reverse().map((r) => r._id));
    expect((await records('?inverse=true')).map((r) => r._id)).toEqual(desc.map((r) => r._id));
    expect((await records('?sortDirection=desc&inverse=true')).map((r) => r._id)).toEqual(asc.map((r) => r._id));
  });

  it('selects by type, inclusive from/to, and a MongoDB-style filter', async () => {
    const all = await records('');
    const traps = await records('?type=1');
    const mqtt = await records('?type=2');
    expect(traps.length + mqtt.length).toBe(all.length);
    expect(traps.every((r) => r.type === 'snmp-trap')).toBe(true);
    expect(mqtt.every((r) => r.type === 'mqtt-message')).toBe(true);

    const from = all[100]!.timestamp;
    const to = all[200]!.timestamp;
    const ranged = await records(`?from=${from}&to=${to}`);
    expect(ranged.map((r) => r._id)).toEqual(all.filter((r) => r.timestamp >= from && r.timestamp <= to).map((r) => r._id));

    const linkDown = await records(`?filter=${encodeURIComponent(JSON.stringify({ 'payload.trapOid': '1.3.6.1.6.3.1.1.5.3' }))}`);
    expect(linkDown.length).toBeGreaterThan(0);
    expect(linkDown.map((r) => r._id)).toEqual(all.filter((r) => r.payload.trapOid === '1.3.6.1.6.3.1.1.5.3').map((r) => r._id));
  });

  it('sorts by another field with ties broken by _id, so pages never overlap', async () => {
    const whole = await records('?sortField=agentId');
    const paged = [...(await records('?sortField=agentId&limit=500')), ...(await records('?sortField=agentId&skip=500'))];
    expect(paged.map((r) => r._id)).toEqual(whole.map((r) => r._id));
    for (let i = 1; i < whole.length; i++) {
      const [a, b] = [whole[i - 1]!, whole[i]!];
      expect(a.agentId < b.agentId || (a.agentId === b.agentId && a._id < b._id), `${a._id} before ${b._id}`).toBe(true);
    }
  });

  it('gives the same bytes for the same seed and other data for another seed', async () => {
    const again = await buildFake({ spec });
    const other = await buildFake({ spec, seed: 7 });
    const body = async (target: typeof app) => (await target.inject({ url: `${API}/event-log?limit=50`, headers: basicOf('viewer') })).body;
    expect(await body(again)).toBe(await body(app));
    expect(await body(other)).not.toBe(await body(app));
    await Promise.all([again.close(), other.close()]);
  });
});

describe('GET /node/api/event-log refuses bad input with a 400 naming the parameter', () => {
  const cases: [string, string, string][] = [
    ['?filter=not-json', 'INVALID_FILTER', 'filter'],
    ['?filter=[1,2]', 'INVALID_FILTER', 'filter'],
    [`?filter=${encodeURIComponent('{"$where":"sleep(1000)"}')}`, 'INVALID_FILTER', 'filter'],
    [`?filter=${encodeURIComponent('{"agentId":{"$regex":"(a)\\\\1"}}')}`, 'INVALID_FILTER', 'filter'],
    [`?filter=${encodeURIComponent('{"a":'.repeat(1000) + '1' + '}'.repeat(1000))}`, 'INVALID_FILTER', 'filter'],
    ['?limit=ten', 'INVALID_PARAMETER', 'limit'],
    ['?skip=-1', 'INVALID_PARAMETER', 'skip'],
    ['?type=3', 'INVALID_PARAMETER', 'type'],
    ['?sortDirection=up', 'INVALID_PARAMETER', 'sortDirection'],
    ['?from=10&to=5', 'INVALID_PARAMETER', 'from'],
  ];
  it.each(cases)('%s → %s', async (query, code, name) => {
    const response = await get(query);
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body) as { code: string; details: { name: string }[] };
    expect(body.code).toBe(code);
    expect(body.details.map((d) => d.name)).toContain(name);
  });
});

describe('PATCH /node/api/event-log/{id}/payload', () => {
  it('changes the text of a trap and nothing else; the next GET shows it', async () => {
    const before = (await records('')).find((r) => r._id === TRAP_ID)!;
    expect((await patch(TRAP_ID, { text: 'acknowledged by the night shift' })).statusCode).toBe(204);
    const after = (await records('')).find((r) => r._id === TRAP_ID)!;
    expect(after).toEqual({ ...before, payload: { ...before.payload, text: 'acknowledged by the night shift' } });
  });

  it('refuses an MQTT record with 422, an unknown id with 404, a viewer with 403', async () => {
    expect(JSON.parse((await patch(MQTT_ID, { text: 'x' })).body).code).toBe('NOT_AN_SNMP_RECORD');
    expect((await patch('5867948233835d9661c56dff', { text: 'x' })).statusCode).toBe(404);
    expect((await patch(TRAP_ID, { text: 'x' }, 'viewer')).statusCode).toBe(403);
  });

  it.each([
    ['another field', { text: 'x', trapOid: '1.3.6' }],
    ['an empty object', {}],
    ['a number', { text: 5 }],
    ['a text over 4096 characters', { text: 'x'.repeat(4097) }],
  ])('refuses %s with 400 and changes nothing', async (_what, body) => {
    const before = await records('');
    const response = await patch(TRAP_ID, body);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).code).toBe('INVALID_BODY');
    expect(await records('')).toEqual(before);
  });
});

describe('GET /node/api/limit-block-log', () => {
  async function blocks(query: string) {
    const response = await app.inject({ url: `${API}/limit-block-log${query}`, headers: basicOf('admin') });
    expectConforms('getLimitBlockLog', response);
    expect(response.statusCode, response.body).toBe(200);
    return JSON.parse(response.body) as Record<string, unknown>[];
  }

  it('has seeded historic records; the boolean filters keep only records with that field', async () => {
    const all = await blocks('');
    expect(all.length).toBeGreaterThan(0);
    for (const field of ['ip', 'login', 'uri', 'user']) {
      const some = await blocks(`?${field}=true`);
      expect(some.length, field).toBeGreaterThan(0);
      expect(some.every((b) => typeof b[field] === 'string' && b[field] !== ''), field).toBe(true);
      expect(some.length).toBe(all.filter((b) => typeof b[field] === 'string' && b[field] !== '').length);
      expect(await blocks(`?${field}=false`)).toEqual(all);
    }
  });

  it('pages with skip/limit and bounds by from/to', async () => {
    const all = await blocks('');
    expect([...(await blocks('?limit=10')), ...(await blocks('?skip=10'))]).toEqual(all);
    const from = all[5]!.timestamp as number;
    const to = all[15]!.timestamp as number;
    const ranged = await blocks(`?from=${from}&to=${to}`);
    expect(ranged).toEqual(all.filter((b) => (b.timestamp as number) >= from && (b.timestamp as number) <= to));
  });

  it('refuses a negative limit with 400 naming it', async () => {
    const response = await app.inject({ url: `${API}/limit-block-log?limit=-1`, headers: basicOf('admin') });
    expectConforms('getLimitBlockLog', response);
    expect(JSON.parse(response.body).details[0].name).toBe('limit');
  });
});
