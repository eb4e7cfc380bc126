import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

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
    // Prefer: the one-request overrides (`code=`, `latency=`) a page may send in its tests.
    allowedHeaders: ['Content-Type', 'Authorization', 'x-csrf-token', 'Prefer'],
    exposedHeaders: ['Retry-After', 'Allow'],
    maxAge: 600,
  });
}
