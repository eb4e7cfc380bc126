import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Pages served from any port of localhost or 127.0.0.1 (or [::1]), over http. */
const LOCAL_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** Whether a page of this origin may call the fake: the allow-list when given, else any local origin. */
export function originAllowed(allowList: readonly string[] | undefined): (origin: string) => boolean {
  if (allowList === undefined) return (origin) => LOCAL_ORIGIN.test(origin);
  const allowed = new Set(allowList.map((o) => o.replace(/\/+$/, '')));
  return (origin) => allowed.has(origin);
}

/**
 * CORS for a frontend served from another port: credentialed requests (so the session
 * cookie travels; SameSite=Lax allows it, as ports of one host are the same site), the
 * headers the API reads, and Retry-After readable by the page.
 */
export async function registerCors(app: FastifyInstance, allowed: (origin: string) => boolean): Promise<void> {
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed(origin)),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'x-csrf-token'],
    exposedHeaders: ['Retry-After', 'Allow'],
    maxAge: 600,
  });
}
