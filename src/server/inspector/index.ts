import type { FastifyInstance } from 'fastify';
import { checksHook, type RequestCheck } from '../request-hooks.js';
import { INSPECTOR_HEADERS, INSPECTOR_HTML } from './page.js';

/** Where the fake serves its request inspector. */
export const INSPECTOR_PATH = '/__inspector';

/**
 * The inspector page: the journal of requests, live. It shows what the control API shows, so
 * it carries the control API's guard as its first check, on the route the router matched
 * (however the path is spelled).
 */
export function registerInspector(app: FastifyInstance, access: RequestCheck): void {
  app.route({
    method: 'GET',
    url: INSPECTOR_PATH,
    onRequest: checksHook([access]),
    handler: (_request, reply) => reply.headers(INSPECTOR_HEADERS).send(INSPECTOR_HTML),
  });
}
