// A server that sets hundreds of new cookies on every answer: the runner keeps a bounded number per
// actor, so later requests (and the curl lines of the reports) do not grow with it.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, MAX_KEPT_COOKIES } from '../../../src/contract/client/api-client.js';
import { createTransport } from '../../../src/contract/client/transport.js';
import { createRandom } from '../../../src/contract/random.js';
import { decidePolicy } from '../../../src/contract/safety.js';
import { createSecrets } from '../../../src/shared/redaction/secret-values.js';
import { specAndValidator } from '../helpers/synthetic.js';

let app: FastifyInstance;
let origin: string;
let logins = 0;

beforeAll(async () => {
  app = Fastify();
  app.post('/node/api/users/session', async (_request, reply) => {
    logins++;
    const flood = Array.from({ length: 500 }, (_, i) => `j${logins}x${i}=v; Path=/`);
    reply.header('set-cookie', [...flood, `sid=session-${logins}; Path=/; HttpOnly`, `csrf=csrf-${logins}; Path=/`]);
    return `session-${logins}`;
  });
  app.get('/node/api/users/current', async (request) => ({ id: '5867948233835d9661c56dc8', login: 'admin', permissions: [], cookie: request.headers.cookie ?? '' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app.close();
});

const cookieNames = (header: string) => header.split('; ').map((pair) => pair.slice(0, pair.indexOf('=')));

describe('a server that floods the cookie jar', () => {
  it(`keeps at most ${MAX_KEPT_COOKIES} cookies per actor, and a new session still replaces the old`, async () => {
    const { spec } = await specAndValidator();
    const client = createApiClient({
      spec,
      transport: createTransport({ baseUrl: origin, timeoutMs: 5000 }),
      policy: decidePolicy({ targetUrl: origin, allowWrites: true }),
      secrets: createSecrets(),
      random: createRandom(1),
      admin: { login: 'admin', password: 'admin-password' },
    });
    const current = async () => ((await client.call({ operationId: 'getCurrentUser', key: 'k', auth: 'session' })).response?.json as { cookie: string }).cookie;
    await client.call({ operationId: 'createSession', key: 'login', auth: 'none', body: { login: 'admin', password: 'admin-password' } });
    const first = cookieNames(await current());
    expect(first.length).toBeLessThanOrEqual(MAX_KEPT_COOKIES);
    await client.call({ operationId: 'createSession', key: 'login', auth: 'none', body: { login: 'admin', password: 'admin-password' } });
    const second = await current();
    expect(cookieNames(second).length).toBeLessThanOrEqual(MAX_KEPT_COOKIES);
    // The jar was full of the first answer's cookies: the session and CSRF cookies it already held are still replaced.
    expect(second).toContain('sid=session-2');
  });
});
