import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import type { Operation } from '../spec/index.js';
import { routedPath } from './request-path.js';

interface PathEntry {
  readonly pattern: RegExp;
  readonly methods: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$|()[\]\\]/g, '\\$&');

/** `/node/api/users/{id}/auth-token` → a RegExp matching one non-empty segment per parameter. */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/\{[^}/]+\}/)
    .map(escapeRegExp)
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}

/** Paths where a newcomer looks first (`/`, the API's prefix): their 404 points to the docs, the inspector and the seeded logins. */
export interface StartPaths {
  readonly paths: readonly string[];
  /** The seeded logins, as the message names them (`admin`, `operator` or `viewer`). */
  readonly logins: () => string;
}

/**
 * The handler of requests no route takes: a path of the document with another method is
 * 405 with `Allow`, anything else 404. Only operations that have a route count. The Host and
 * Origin guard (host-origin-guard.ts) has already judged the path, so an outsider does not learn
 * which paths exist.
 */
export function createRouteNotFoundHandler(
  operations: readonly Operation[],
  errors: ErrorFactory,
  messages: ErrorMessage,
  start?: StartPaths,
) {
  const byTemplate = new Map<string, PathEntry>();
  for (const op of operations) {
    const entry = byTemplate.get(op.path) ?? { pattern: templatePattern(op.path), methods: [] };
    entry.methods.push(op.method.toUpperCase());
    byTemplate.set(op.path, entry);
  }
  const entries = [...byTemplate.values()];

  return async function routeNotFound(request: FastifyRequest, _reply: FastifyReply): Promise<never> {
    const path = routedPath(request.url);
    const allowed = entries.filter((e) => e.pattern.test(path)).flatMap((e) => e.methods);
    if (allowed.length > 0) {
      const allow = [...new Set(allowed)].join(', ');
      throw errors('METHOD_NOT_ALLOWED', messages('METHOD_NOT_ALLOWED', 'notAllowed', { method: request.method, allow }), {
        headers: { allow },
      });
    }
    const shown = JSON.stringify(path.slice(0, 200));
    if (start?.paths.includes(path)) throw errors('ROUTE_NOT_FOUND', messages('ROUTE_NOT_FOUND', 'start', { path: shown, logins: start.logins() }));
    throw errors('ROUTE_NOT_FOUND', messages('ROUTE_NOT_FOUND', 'noOperation', { path: shown }));
  };
}
