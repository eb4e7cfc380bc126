import type { FastifyInstance } from 'fastify';
import { INSPECTOR_HEADERS, INSPECTOR_HTML } from './page.js';

/** Where the fake serves its request inspector. */
export const INSPECTOR_PATH = '/__inspector';

/**
 * The inspector page: the journal of requests, live. It shows what the control API shows, so
 * the Host and Origin guard gives it the control API's rule (host-origin-guard.ts).
 */
export function registerInspector(app: FastifyInstance): void {
  app.route({
    method: 'GET',
    url: INSPECTOR_PATH,
    handler: (_request, reply) => reply.headers(INSPECTOR_HEADERS).send(INSPECTOR_HTML),
  });
}
