// A Vitest test of code that calls the monitoring API, against the fake in-process.
// Copy into your project as e.g. event-log.test.ts (type-checked here by `npm run typecheck`).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from 'monitoring-api-kit';

let fake: Fake;
let baseUrl: string;

beforeAll(async () => {
  fake = await createFake({ seed: 7, records: 200 }); // the same seed, the same data on every run
  ({ baseUrl } = await fake.listen()); // a free port on 127.0.0.1
});
beforeEach(() => fake.reset()); // each test starts from the seed
afterAll(() => fake.close());

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('the event log client', () => {
  it('reads the newest traps', async () => {
    const { login, password } = fake.users.viewer!;
    const response = await fetch(`${baseUrl}/event-log?type=1&sortDirection=desc&limit=5`, { headers: { authorization: basic(login, password) } });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(5);
  });

  it('shows a trap that has just arrived', async () => {
    const [trap] = await fake.addRecords([
      {
        type: 'snmp-trap',
        agentId: '5867948233835d9661c50001',
        payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 'linkDown on core-sw-01', bindings: [] },
        entity: { entityId: '5867948233835d9661c5e001', entityType: 1, entityName: 'core-sw-01' },
      },
    ]);
    const { login, password } = fake.users.viewer!;
    const response = await fetch(`${baseUrl}/event-log?sortDirection=desc&limit=1`, { headers: { authorization: basic(login, password) } });
    expect((await response.json())[0]._id).toBe(trap!._id);
  });

  it('copes with a server error', async () => {
    await fake.injectFault({ operationId: 'getEventLog', status: 503, count: 1 });
    const { login, password } = fake.users.viewer!;
    const response = await fetch(`${baseUrl}/event-log`, { headers: { authorization: basic(login, password) } });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'INJECTED_FAULT' });
  });
});
