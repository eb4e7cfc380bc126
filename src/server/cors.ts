import type { FastifyInstance } from 'fastify';
import { ANSWERED, type FrontStep } from './front-door.js';

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** The pages allowed by default: any port of a loopback host, over http (as `--help` and the README say). */
export const LOCAL_ORIGINS: readonly string[] = LOCAL_HOSTS.map((host) => `http://${host}:*`);
const LOCAL_ORIGIN = new RegExp(`^http://(${LOCAL_HOSTS.map((h) => h.replace(/[.[\]]/g, '\\$&')).join('|')})(:\\d{1,5})?$`);

/** Whether a page of this origin may call the fake: the allow-list when given, else any local origin. */
export function originAllowed(allowList: readonly string[] | undefined): (origin: string) => boolean {
  if (allowList === undefined) return (origin) => LOCAL_ORIGIN.test(origin);
  const allowed = new Set(allowList.map((o) => o.replace(/\/+$/, '')));
  return (origin) => allowed.has(origin);
}

/** What a page may do and read, as the preflight and every answer to an allowed origin say. */
const POLICY = {
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].join(', '),
  // Prefer: the one-request overrides (`code=`, `latency=`) a page may send in its tests.
  allowedHeaders: ['Content-Type', 'Authorization', 'x-csrf-token', 'Prefer'].join(', '),
  exposedHeaders: ['Retry-After', 'Allow'].join(', '),
  maxAgeSeconds: '600',
};

/**
 * CORS for a frontend served from another port: credentialed requests (so the session cookie
 * travels; SameSite=Lax allows it, as ports of one host are the same site), the headers the API
 * reads, and Retry-After readable by the page. Every answer varies by Origin; an allowed origin
 * is reflected. A preflight (OPTIONS with Origin and Access-Control-Request-Method, as the Fetch
 * standard defines it) of an allowed origin is answered here, 204, before any route's check; any
 * other OPTIONS request goes on to the router (405 with Allow, in the document's shape).
 *
 * Not @fastify/cors: it answers an OPTIONS request from an allowed origin without
 * Access-Control-Request-Method with a text/plain 400 outside the document, and builds its
 * options and the route's options object twice for every request. A step of the front door
 * (front-door.ts), after the Host checks (host-header.ts), which check a preflight's Host too.
 */
export function corsStep(allowed: (origin: string) => boolean): FrontStep {
  return function cors(request, reply) {
    reply.header('vary', 'Origin');
    const { origin } = request.headers;
    if (origin === undefined || !allowed(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-expose-headers', POLICY.exposedHeaders);
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return;
    reply.header('access-control-allow-methods', POLICY.methods);
    reply.header('access-control-allow-headers', POLICY.allowedHeaders);
    reply.header('access-control-max-age', POLICY.maxAgeSeconds);
    // Content-Length 0: some browsers wait for a body of a 204 without it.
    void reply.code(204).header('content-length', '0').send();
    return ANSWERED;
  };
}

/**
 * A route for OPTIONS on every path, so that a preflight is routed (not a path no route takes,
 * which the journal keeps): answered by the CORS step; any other OPTIONS request is passed to
 * the not-found handler (405 with Allow on a documented path). Hidden from the docs.
 */
export function registerPreflightRoute(app: FastifyInstance): void {
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}
