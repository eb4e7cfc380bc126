import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotateTrap, latestTraps, monitoringClient, whoAmI } from '../../examples/openapi-fetch-client.js';
import { createFake, type Fake } from '../../src/index.js';
import { spec, validator } from '../server/helpers.js';

let fake: Fake;
let origin = '';
beforeAll(async () => {
  fake = await createFake({ spec, records: 40, docs: false });
  origin = (await fake.listen()).origin;
});
afterAll(() => fake.close());

describe('examples/openapi-fetch-client.ts against a running fake', () => {
  it('reads the newest traps, annotates one, and sees the change', async () => {
    const client = monitoringClient(origin, fake.users.operator!);
    expect(await whoAmI(client)).toBe('operator');
    const traps = await latestTraps(client, 3);
    expect(traps).toHaveLength(3);
    for (const trap of traps) expect(trap.type).toBe('snmp-trap');
    expect(traps.map((t) => t.timestamp)).toEqual([...traps.map((t) => t.timestamp)].sort((a, b) => b - a));
    expect(validator.validate(spec.operation('getEventLog').responses['200']!.content!['application/json']!.schema!, traps)).toEqual([]);

    await annotateTrap(client, traps[0]!._id, 'acknowledged by the example');
    const [newest] = await latestTraps(client, 1);
    expect(newest).toMatchObject({ _id: traps[0]!._id, payload: { text: 'acknowledged by the example' } });
  });

  it('turns an error answer into an Error naming the code', async () => {
    const viewer = monitoringClient(origin, fake.users.viewer!);
    const [trap] = await latestTraps(viewer, 1);
    await expect(annotateTrap(viewer, trap!._id, 'not allowed')).rejects.toThrow(/403 PERMISSION_DENIED/);
    await expect(whoAmI(monitoringClient(origin, { login: 'admin', password: 'wrong' }))).rejects.toThrow(/UNAUTHENTICATED/);
  });
});
